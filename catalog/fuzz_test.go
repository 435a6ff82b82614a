package catalog

import (
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"
)

// FuzzLoadDefinition replaces one definition of the test catalog with arbitrary bytes:
// the loader must never panic, and must refuse anything but a valid document.
func FuzzLoadDefinition(f *testing.F) {
	base := readTree(f, goodDir)
	f.Add(base[gadget1])
	for _, rule := range []string{"open-output-schema", "nested-default", "reference-with-both-annotations", "unsupported-shape"} {
		if b, err := os.ReadFile(filepath.Join("testdata/bad", rule, filepath.FromSlash(gadget1))); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`{"desiredSchema":{"properties":{"x":{"properties":{"apiVersion":{"const":1},"kind":{"const":"K"},"name":true}}}}}`))
	f.Fuzz(func(t *testing.T, def []byte) {
		fsys := fstest.MapFS{}
		for p, b := range base {
			fsys[p] = &fstest.MapFile{Data: b}
		}
		fsys[gadget1] = &fstest.MapFile{Data: def}
		c, err := Load(fsys)
		if err == nil && string(def) != string(base[gadget1]) {
			// Another valid document must still be sealed: its digest would differ
			// from the index, so success here means the index check was skipped.
			t.Fatalf("loaded a changed definition without a digest mismatch (%d forms)", len(c.Forms()))
		}
	})
}
