package testrun

import (
	"reflect"
	"testing"
)

func TestChangedPackagesFindsTheNearestPackageAboveEachFile(t *testing.T) {
	pkgs := ParsePackages(`/w/catalog ex/catalog /w/catalog
/w/catalog/wire ex/catalog/wire /w/catalog
/w/hostsim ex/hostsim /w/hostsim
/w/hostsim/internal/store ex/hostsim/internal/store /w/hostsim
/w/scripts ex/scripts /w
/w/internal/testrun ex/internal/testrun /w
`)
	if len(pkgs) != 6 {
		t.Fatalf("parsed %d packages, want 6: %+v", len(pkgs), pkgs)
	}
	got := ChangedPackages([]string{
		"/w/catalog/wire/lane.go",
		"/w/catalog/data/v1beta1/forms/queue.json", // the catalog package's embedded data
		"/w/catalog/wire/lane_test.go",             // the same package twice
		"/w/hostsim/internal/store/testdata/old.db",
		"/w/hostsim/internal/gone/gone.go", // a deleted package: its nearest package above
		"/w/scripts/testdata/x.txtar",
		"/w/docs/decisions.md",   // in no package
		"/w/magefile.go",         // the magefiles are no package of go list
		"/w/internal/testrunner", // a sibling whose name starts like a package's
	}, pkgs)
	want := map[string][]string{
		"/w/catalog": {"ex/catalog", "ex/catalog/wire"},
		"/w/hostsim": {"ex/hostsim", "ex/hostsim/internal/store"},
		"/w":         {"ex/scripts"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v\nwant %v", got, want)
	}
}

func TestChangedPackagesOfNothingIsNothing(t *testing.T) {
	if got := ChangedPackages(nil, ParsePackages("/w/a ex/a /w\n")); len(got) != 0 {
		t.Errorf("no change mapped to %v", got)
	}
}
