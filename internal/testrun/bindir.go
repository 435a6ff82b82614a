package testrun

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// usedFile holds, in a checkout's folder of test binaries, the time of its last run
// (Unix seconds) as text: file times are no guide on machines restored with every file's
// time set anew (docs/decisions.md#ci-disk).
const usedFile = "used"

// rootFile holds, in a checkout's folder of test binaries, the path of that checkout.
const rootFile = "root"

// BinDir is the folder where the test jobs of the checkout at root keep their test
// binaries (`go test -o`): base (the user's cache, takokit/testbin) holds one folder per
// checkout, named by a hash of its path, made when missing and stamped with now and
// root. The folders of checkouts that are gone (their recorded path no longer exists)
// are removed, and of the others only the keep most recently used stay, so checkouts
// at ever new paths (a CI clone each run) cannot fill the disk
// (docs/decisions.md#test-binaries).
func BinDir(base, root string, now time.Time, keep int) (string, error) {
	if inside(base, root) {
		// a test opening its own binary there would have it as an input that go touches
		// on every run: its result would never be reused
		return "", fmt.Errorf("the folder for the test binaries (%s) is inside the checkout (%s): go test would never reuse the result of a test that opens its own binary; give a folder outside it", base, root)
	}
	sum := sha256.Sum256([]byte(root))
	dir := filepath.Join(base, hex.EncodeToString(sum[:6]))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("the folder for the test binaries: %w", err)
	}
	for name, text := range map[string]string{usedFile: strconv.FormatInt(now.Unix(), 10), rootFile: root} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text+"\n"), 0o644); err != nil {
			return "", fmt.Errorf("the folder for the test binaries: %w", err)
		}
	}
	entries, err := os.ReadDir(base)
	if err != nil {
		return "", fmt.Errorf("the folder for the test binaries: %w", err)
	}
	type folder struct {
		path string
		used int64
	}
	var others []folder
	for _, e := range entries {
		p := filepath.Join(base, e.Name())
		if !e.IsDir() || p == dir {
			continue
		}
		if gone(p) {
			if err := os.RemoveAll(p); err != nil {
				return "", fmt.Errorf("removing the test binaries of a checkout that is gone (%s): %w", p, err)
			}
			continue
		}
		used := int64(0) // a folder without a readable stamp goes first
		if b, err := os.ReadFile(filepath.Join(p, usedFile)); err == nil {
			used, _ = strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
		}
		others = append(others, folder{p, used})
	}
	slices.SortFunc(others, func(a, b folder) int { return cmp.Compare(b.used, a.used) }) // most recent first
	for i, f := range others {
		if i+1 < keep { // this checkout's folder is one of the keep
			continue
		}
		if err := os.RemoveAll(f.path); err != nil {
			return "", fmt.Errorf("removing the test binaries of a checkout used less lately (%s): %w", f.path, err)
		}
	}
	return dir, nil
}

// gone: the folder p records a checkout path that no longer exists. A folder without
// the record (or with one that cannot be read) is not known to be gone: it is kept or
// removed by when it was used.
func gone(p string) bool {
	b, err := os.ReadFile(filepath.Join(p, rootFile))
	if err != nil {
		return false
	}
	root := strings.TrimSpace(string(b))
	if root == "" {
		return false
	}
	_, err = os.Stat(root)
	return errors.Is(err, fs.ErrNotExist)
}
