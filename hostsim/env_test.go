package hostsim_test

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/takokit/takokit/catalog"
)

var (
	catOnce sync.Once
	testCat *catalog.Catalog
	catErr  error
)

// referenceDir finds the published reference documents (team rule: env
// TAKOKIT_REFERENCE_DIR, else ../shared/reference/takoform-v1alpha3 next to go.work).
func referenceDir() string {
	if d := os.Getenv("TAKOKIT_REFERENCE_DIR"); d != "" {
		return d
	}
	wd, _ := os.Getwd()
	for d := wd; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.work")); err == nil {
			return filepath.Join(d, "..", "shared", "reference", "takoform-v1alpha3")
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}

// testCatalog is the built-in catalog when it loads with Forms, else the
// published family from the reference directory.
func testCatalog(t testing.TB) *catalog.Catalog {
	t.Helper()
	catOnce.Do(func() {
		if c, err := catalog.Embedded(); err == nil && len(c.Forms()) > 0 {
			testCat = c
			return
		}
		dir := referenceDir()
		if _, err := os.Stat(dir); err != nil {
			catErr = err
			return
		}
		testCat, catErr = catalog.Load(os.DirFS(dir))
	})
	if catErr != nil {
		t.Skipf("no catalog to test with: the built-in catalog is empty and the reference directory %q does not load: %v", referenceDir(), catErr)
	}
	return testCat
}
