package catalog

import (
	"embed"
	"fmt"
	"io/fs"
	"sync"

	"github.com/takokit/takokit/catalog/wire"
)

// data holds the project's catalog roots, one per lane: data/<lane>/ (data/v1beta1,
// data/v1alpha3). The loader reads only forms/, interfaces/, bindings/, transitions.json
// and the lane markers from a root (docs/catalog-rules.md).
//
//go:embed all:data
var data embed.FS

type loaded struct {
	once sync.Once
	cat  *Catalog
	err  error
}

var embeddedLanes = map[*wire.Lane]*loaded{}
var embeddedMu sync.Mutex

// Embedded loads the project's catalog of the default lane, once; later calls return
// the same catalog (or the same error).
func Embedded() (*Catalog, error) { return EmbeddedLane(wire.DefaultLane) }

// EmbeddedLane loads the project's catalog of lane, once per lane. The data is fixed
// into the binary and this module's tests hold every lane of it to the checking Load
// (TestEmbeddedLanesPassTheCheckingLoad), so a process derives the model with
// LoadPrechecked: the same model, without the checks that only reject
// (docs/catalog-rules.md#load-modes).
func EmbeddedLane(lane *wire.Lane) (*Catalog, error) {
	embeddedMu.Lock()
	l, ok := embeddedLanes[lane]
	if !ok {
		l = &loaded{}
		embeddedLanes[lane] = l
	}
	embeddedMu.Unlock()
	l.once.Do(func() {
		fsys, err := EmbeddedLaneFS(lane)
		if err != nil {
			l.err = err
			return
		}
		l.cat, l.err = LoadPrechecked(fsys)
		if l.err == nil && l.cat.Lane() != lane {
			l.err = fmt.Errorf("the embedded catalog data/%s speaks %s", lane.Name, l.cat.Lane())
		}
	})
	return l.cat, l.err
}

// EmbeddedFS returns the embedded catalog root of the default lane as a file system.
func EmbeddedFS() fs.FS {
	fsys, _ := EmbeddedLaneFS(wire.DefaultLane)
	return fsys
}

// EmbeddedLaneFS returns the embedded catalog root of lane.
func EmbeddedLaneFS(lane *wire.Lane) (fs.FS, error) {
	sub, err := fs.Sub(data, "data/"+lane.Name)
	if err != nil {
		return nil, err
	}
	if _, err := fs.Stat(sub, "forms"); err != nil {
		return nil, fmt.Errorf("the project carries no catalog of lane %s", lane.Describe())
	}
	return sub, nil
}

// EmbeddedDir is the embedded root of lane relative to the catalog module
// ("data/v1beta1"), for tools that read or write it on disk.
func EmbeddedDir(lane *wire.Lane) string { return "data/" + lane.Name }
