package catalog

import (
	"errors"
	"io/fs"
)

// Load reads, checks and derives a whole catalog root (catalog.md §2–§6). It returns a
// complete catalog or one error listing every violation, one per line.
func Load(fsys fs.FS) (*Catalog, error) {
	return nil, errors.New("catalog: loader not implemented yet")
}
