package selftest

import (
	"context"
	"testing"
	"time"

	"github.com/takokit/takokit/conformance"
)

// TestChecksTakeTheOtherTenantOnlyWhenGiven: the two checks that try their refusal
// with every other principal (the alternate one, and tenant B's when a token for it
// is given) pass against hostsim full with the alternate principal alone, as they do
// with both (docs/guides/conformance.md: --other-tenant-token-env is optional).
func TestChecksTakeTheOtherTenantOnlyWhenGiven(t *testing.T) {
	t.Parallel() // its own in-process host
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	sim, err := startInProcess(ctx, "", "full")
	if err != nil {
		t.Fatal(err)
	}
	defer sim.Stop()
	ids := []string{"upload-session-bound-to-its-creating-principal", "operation-bound-to-its-creating-principal"}
	cfg := conformance.Config{Endpoint: sim.URL, Space: "alt-only", Only: ids, Timeout: 20 * time.Second}
	tokens(&cfg)
	cfg.OtherTenant = ""
	rep, err := conformance.Run(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	passed := 0
	for _, r := range rep.Checks {
		switch {
		case r.Status == conformance.StatusPass:
			passed++
		case r.Status != conformance.StatusSkipped:
			t.Errorf("without an other-tenant token: %s", r.Line())
		}
	}
	if passed != len(ids) {
		t.Errorf("%d of %v passed without an other-tenant token, want all: %s", passed, ids, rep.Summary.Line())
	}
}
