package catalog

import (
	"testing"

	"github.com/takokit/takokit/catalog/reftest"
	"github.com/takokit/takokit/catalog/wire"
)

// referenceDir is the published folder of the withdrawn v1alpha3 lane (reftest.Lane),
// the family the digest tables of published_test.go were recomputed from.
func referenceDir(t *testing.T) string {
	t.Helper()
	return reftest.Lane(t, wire.V1alpha3)
}
