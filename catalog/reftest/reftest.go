// Package reftest finds the published Takoform reference documents for tests that
// read them at run time (docs/catalog-rules.md#other-catalogs). They are never part
// of the repository: a user's fresh clone does not have them, so a test that needs
// them skips saying where it looked, except under CI (CI=true), where their absence
// fails the test instead of hiding a regression.
package reftest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog/wire"
)

// Root returns the reference root: the directory holding one folder per lane
// (takoform-v1beta1, takoform-v1alpha3). It is TAKOKIT_REFERENCE_DIR when set (a lane
// folder given there stands for its parent), else ../shared/reference next to the
// first directory above the working directory that holds go.work.
func Root(t testing.TB) string {
	t.Helper()
	dir := os.Getenv("TAKOKIT_REFERENCE_DIR")
	if dir != "" && strings.HasPrefix(filepath.Base(filepath.Clean(dir)), "takoform-") {
		dir = filepath.Dir(filepath.Clean(dir))
	}
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			t.Fatal(err)
		}
		for d := wd; ; d = filepath.Dir(d) {
			if _, err := os.Stat(filepath.Join(d, "go.work")); err == nil {
				dir = filepath.Join(d, "..", "shared", "reference")
				break
			}
			if filepath.Dir(d) == d {
				absent(t, "no go.work above "+wd+" and TAKOKIT_REFERENCE_DIR is not set")
			}
		}
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		absent(t, "the reference directory "+dir+" is absent")
	}
	return dir
}

// Lane returns the published folder of lane (Root/takoform-<lane>).
func Lane(t testing.TB, lane *wire.Lane) string {
	t.Helper()
	dir := filepath.Join(Root(t), "takoform-"+lane.Name)
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		absent(t, "the published folder of lane "+lane.Name+" is absent at "+dir)
	}
	return dir
}

// File returns a file of lane's published folder, which must exist.
func File(t testing.TB, lane *wire.Lane, rel string) string {
	t.Helper()
	p := filepath.Join(Lane(t, lane), filepath.FromSlash(rel))
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("the published folder of lane %s has no %s: %v", lane.Name, rel, err)
	}
	return p
}

func absent(t testing.TB, why string) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s; CI must run the tests that read the published reference documents (set TAKOKIT_REFERENCE_DIR or put them at ../shared/reference next to the workspace root)", why)
	}
	t.Skipf("%s; set TAKOKIT_REFERENCE_DIR to the folder holding takoform-v1beta1 and takoform-v1alpha3 to run this test", why)
}
