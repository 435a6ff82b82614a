package fsx

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
)

// SHA256 is the hex SHA-256 of the file at path (a release archive's checksum, a test
// binary's identity for the scenarios' reused passes).
func SHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
