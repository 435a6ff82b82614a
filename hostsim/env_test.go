package hostsim_test

import (
	"sync"
	"testing"

	"github.com/takokit/takokit/catalog"
)

var (
	catOnce sync.Once
	testCat *catalog.Catalog
	catErr  error
)

// testCatalog is the built-in catalog (of the default lane).
func testCatalog(t testing.TB) *catalog.Catalog {
	t.Helper()
	catOnce.Do(func() { testCat, catErr = catalog.Embedded() })
	if catErr != nil {
		t.Fatalf("the built-in catalog does not load: %v", catErr)
	}
	return testCat
}
