package catalog

import (
	"os"
	"path/filepath"
	"testing"
)

// referenceDir finds the published reference directory by the rule of docs/catalog-rules.md#other-catalogs:
// TAKOKIT_REFERENCE_DIR when set, else ../shared/reference/takoform-v1alpha3 relative
// to the first directory above the working directory that holds go.work. It skips
// the test, naming the path it tried, only when the directory is absent.
func referenceDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("TAKOKIT_REFERENCE_DIR")
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			t.Fatal(err)
		}
		root := ""
		for d := wd; ; d = filepath.Dir(d) {
			if _, err := os.Stat(filepath.Join(d, "go.work")); err == nil {
				root = d
				break
			}
			if filepath.Dir(d) == d {
				break
			}
		}
		if root == "" {
			t.Skipf("reference directory not found: no go.work above %s and TAKOKIT_REFERENCE_DIR is not set", wd)
		}
		dir = filepath.Join(root, "..", "shared", "reference", "takoform-v1alpha3")
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		t.Skipf("reference directory %s is absent; set TAKOKIT_REFERENCE_DIR to run this test", dir)
	}
	return dir
}
