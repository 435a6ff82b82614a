// Package reftest finds the published Takoform reference documents for tests that
// read them at run time (docs/catalog-rules.md#other-catalogs). They are never part
// of the repository: a user's fresh clone does not have them, so a test that needs
// them skips saying where it looked, except under CI (CI=true), where their absence
// fails the test instead of hiding a regression.
package reftest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog/wire"
)

// EnvID is the variable `go tool mage test` sets to an id of the reference documents'
// files (internal/testinputs). They lie outside every module, where go test does not
// look at the files a test reads: Dir, which every way of finding them goes through,
// reads the id so that a test's result is kept only while they are unchanged, and a
// skip for their absence ends when they appear.
const EnvID = "TAKOKIT_REFERENCE_ID"

// Root returns the reference root: the directory holding one folder per lane
// (takoform-v1beta1, takoform-v1alpha3), found as Dir finds it from the working
// directory; absent, the test skips (fails under CI).
func Root(t testing.TB) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	dir, err := Dir(wd)
	if err != nil {
		absent(t, err.Error())
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		absent(t, "the reference directory "+dir+" is absent")
	}
	return dir
}

// Dir is where the reference root is for a process working in wd, whether it exists or
// not: TAKOKIT_REFERENCE_DIR when set (a lane folder given there stands for its parent),
// else ../shared/reference next to the first directory at or above wd holding go.work.
func Dir(wd string) (string, error) {
	_ = os.Getenv(EnvID) // keys the calling test's result on the documents (EnvID)
	dir := os.Getenv("TAKOKIT_REFERENCE_DIR")
	if dir != "" && strings.HasPrefix(filepath.Base(filepath.Clean(dir)), "takoform-") {
		dir = filepath.Dir(filepath.Clean(dir))
	}
	if dir != "" {
		return dir, nil
	}
	for d := wd; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.work")); err == nil {
			return filepath.Join(d, "..", "shared", "reference"), nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("no go.work above %s and TAKOKIT_REFERENCE_DIR is not set", wd)
		}
	}
}

// Find is Dir from wd made absolute (so a relative wd is looked above too), with the
// answer made absolute, for a caller that is not a test: ok is false when the
// directory is absent.
func Find(wd string) (dir string, ok bool) {
	wd, err := filepath.Abs(wd)
	if err != nil {
		return "", false
	}
	if dir, err = Dir(wd); err != nil {
		return "", false
	}
	if dir, err = filepath.Abs(dir); err != nil {
		return "", false
	}
	st, err := os.Stat(dir)
	return dir, err == nil && st.IsDir()
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
