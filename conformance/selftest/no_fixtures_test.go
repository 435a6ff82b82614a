package selftest

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/catalogtest"
	"github.com/takokit/takokit/conformance"
)

// TestAFamilyWithoutFixturesIsNotBlamedOnTheHost: a family may declare no
// conformance fixtures at all (docs/catalog-rules.md). Run against a host that
// installs every Form of it, no check fails or errs, and none that needs an
// instance says the host lacks a Form it does install or an operation it does
// offer: each not-applicable names the Forms that declare no fixtures
// (docs/guides/conformance.md#not-applicable).
func TestAFamilyWithoutFixturesIsNotBlamedOnTheHost(t *testing.T) {
	t.Parallel() // its own host
	only := areaChecks(t)
	base, err := catalog.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, f := range base.Forms() {
		if !strings.Contains(strings.Join(kinds, " ")+" ", " "+f.Ref.Kind+" ") {
			kinds = append(kinds, f.Ref.Kind)
		}
	}
	dir := filepath.Join(t.TempDir(), "catalog")
	cat, err := catalogtest.WithoutFixtures(dir, kinds...)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	sim, err := startInProcess(ctx, "", "full", "--catalog", dir)
	if err != nil {
		t.Fatal(err)
	}
	defer sim.Stop()
	cfg := conformance.Config{Endpoint: sim.URL, Catalog: cat, Space: "no-fixtures", Only: only}
	tokens(&cfg)
	rep, err := conformance.Run(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	named := 0
	for _, r := range rep.Checks {
		switch {
		case r.Status == conformance.StatusSkipped && only != nil:
		case r.Status != conformance.StatusPass && r.Status != conformance.StatusNotApplicable:
			t.Errorf("on a family without fixtures: %s\nwant pass or not-applicable", r.Line())
		case r.Status == conformance.StatusPass:
		case strings.Contains(strings.ToLower(r.Message), "fixture"):
			named++
		case !strings.Contains(r.Message, "the self-test proves this check on a test catalog"):
			// the two relation checks that need a second definition no family of one has
			t.Errorf("on a family without fixtures, whose every Form the host installs: %s\nwant the not-applicable to name the Forms without fixtures", r.Line())
		}
	}
	if only == nil && named < 100 {
		t.Errorf("%d checks named the Forms without fixtures; a family without any leaves most checks nothing to build (over 100 of %d)", named, len(rep.Checks))
	}
}
