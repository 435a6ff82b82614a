// Package fsx holds the file-tree helpers the mage targets and the repository's own tests
// share (the family build, the demo, the provider docs render, the guide tests).
package fsx

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// CopyTree copies a file or a directory tree from src to dst, making the directories it
// needs; files are written 0644. An absent src copies nothing and is no error: the
// callers copy optional parts (a family's bindings/, a lane marker, an example's dir).
func CopyTree(src, dst string) error {
	if _, err := os.Stat(src); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		raw, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		return os.WriteFile(target, raw, 0o644)
	})
}
