package scripts

import (
	"os"
	"testing"

	"github.com/takokit/takokit/catalog/testlog"
)

// TestMain rewrites the input list of the package's parallel tests in one order, so an
// edit undone finds the results go test kept before it (docs/decisions.md#test-cache).
func TestMain(m *testing.M) {
	os.Exit(testlog.Main(m))
}
