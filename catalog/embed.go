package catalog

import (
	"embed"
	"io/fs"
	"sync"
)

// data is the project's catalog root. The loader reads only forms/, interfaces/,
// bindings/ and transitions.json from it (docs/catalog-rules.md).
//
//go:embed all:data
var data embed.FS

var embedded = sync.OnceValues(func() (*Catalog, error) {
	sub, err := fs.Sub(data, "data")
	if err != nil {
		return nil, err
	}
	return Load(sub)
})

// Embedded loads the catalog compiled into this module, once; later calls return the
// same catalog (or the same error).
func Embedded() (*Catalog, error) { return embedded() }

// EmbeddedFS returns the embedded catalog root as a file system.
func EmbeddedFS() fs.FS {
	sub, _ := fs.Sub(data, "data")
	return sub
}
