package selftest

import (
	"context"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/conformance"
)

// idsOfAreas lists the checks of the given areas, narrowed further by
// TAKOKIT_SELFTEST_AREAS when it is set (mage mutate).
// checkBinary is the hostsim binary for a test of check id in area, skipping
// the test when TAKOKIT_SELFTEST_AREAS narrows the check away.
func checkBinary(t *testing.T, area conformance.Area, id string) string {
	t.Helper()
	bin := hostsimBinary(t)
	if !slices.Contains(idsOfAreas(t, area), id) {
		t.Skip("narrowed away by TAKOKIT_SELFTEST_AREAS")
	}
	return bin
}

func idsOfAreas(t *testing.T, areas ...conformance.Area) []string {
	t.Helper()
	narrow := areaChecks(t)
	var ids []string
	for _, c := range conformance.Table() {
		if slices.Contains(areas, c.Area) && (narrow == nil || slices.Contains(narrow, c.ID)) {
			ids = append(ids, c.ID)
		}
	}
	return ids
}

func runChecks(t *testing.T, ctx context.Context, endpoint string, cat *catalog.Catalog, ids []string) map[string]conformance.Result {
	t.Helper()
	cfg := conformance.Config{Endpoint: endpoint, Catalog: cat, Space: "partial", Only: ids}
	tokens(&cfg)
	rep, err := conformance.Run(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]conformance.Result{}
	for _, r := range rep.Checks {
		if r.Status != conformance.StatusSkipped {
			out[r.ID] = r
		}
	}
	return out
}

// TestChecksOnPartialHosts: a partial host is conformant for what it claims. Against
// hostsim's partial profiles (and a test profile that cannot update queues) the
// outputs, support and transition checks pass or are not-applicable, never fail:
// this is where the support checks' enforcement paths run against a correct host.
func TestChecksOnPartialHosts(t *testing.T) {
	t.Parallel() // its own hostsim processes
	bin := hostsimBinary(t)
	cat, err := catalog.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	ids := idsOfAreas(t, conformance.AreaOutputs, conformance.AreaSupport, conformance.AreaTransitions)
	if len(ids) == 0 {
		t.Skip("TAKOKIT_SELFTEST_AREAS names none of outputs, support profiles, transitions")
	}
	file := func(name string) string { return testProfile(t, name) }
	noUpdate := file("queues-without-update.json")
	hosts := []struct {
		profile  string
		wantNA   []string // checks that must be not-applicable (not pass) on this host
		mayFail  []string // checks this host fails by design
		mustPass []string
	}{
		{profile: "kv-only"}, // the queue pair is gone; the endpoint pair is left
		{profile: file("no-transitions.json"), wantNA: []string{"form-transition-commits-with-exact-proof", "form-transition-claim-fences-lifecycle"},
			mustPass: []string{"form-declared-outputs-are-exact"}}, // its without-outputs half still applies
		{profile: file("queue-0.1-only.json"), mustPass: []string{"form-transition-commits-with-exact-proof"}},
		{profile: file("queues-read-only.json"), mustPass: []string{"form-transition-commits-with-exact-proof"}},
		{profile: "tight-limits", mustPass: []string{"support-profile-enforced-at-apply"}},
		{profile: "silent-support"},
		{profile: "unreadable-support", mustPass: []string{"support-profile-enforced-at-apply"},
			mayFail: []string{"support-profiles-present", "support-form-refusal-is-form-unknown", "support-contract-refusal-is-resource-not-found", "support-profile-carries-no-commercial-data",
				"edge-interface-contracts-advertised", "module-worker-runtime-contract-advertised"}},
		{profile: noUpdate, mustPass: []string{"support-profile-enforced-at-apply"}},
	}
	for _, h := range hosts {
		t.Run(filepath.Base(h.profile), func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			sim, err := Start(ctx, bin, h.profile)
			if err != nil {
				t.Fatal(err)
			}
			defer sim.Stop()
			got := runChecks(t, ctx, sim.URL, cat, ids)
			for _, id := range ids {
				r := got[id]
				if (r.Status == conformance.StatusFail || r.Status == conformance.StatusError) && !slices.Contains(h.mayFail, id) {
					t.Errorf("%s on a correct partial host: %s", filepath.Base(h.profile), r.Line())
				}
			}
			for _, id := range h.wantNA {
				if r, ok := got[id]; ok && r.Status != conformance.StatusNotApplicable {
					t.Errorf("%s on %s: %s, want not-applicable (the host installs no transition pair)", id, filepath.Base(h.profile), r.Line())
				}
			}
			for _, id := range h.mustPass {
				if r, ok := got[id]; ok && r.Status != conformance.StatusPass {
					t.Errorf("%s on %s: %s, want pass", id, filepath.Base(h.profile), r.Line())
				}
			}
		})
	}
}

// TestNarrowedOperationsAreEnforcedByTheCheck: profiles that omit update, or create,
// on a host that does not enforce them fail support-profile-enforced-at-apply at that
// operation.
func TestNarrowedOperationsAreEnforcedByTheCheck(t *testing.T) {
	t.Parallel() // its own hostsim processes
	bin := checkBinary(t, conformance.AreaSupport, "support-profile-enforced-at-apply")
	cat, err := catalog.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	for file, want := range map[string]string{
		"queues-without-update.json": "whose profile omits update",
		"queues-read-only.json":      "whose profile omits create",
	} {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		sim, err := Start(ctx, bin, testProfile(t, file))
		if err != nil {
			cancel()
			t.Fatal(err)
		}
		if err := sim.ArmFault(ctx, "support.unenforced"); err != nil {
			t.Fatal(err)
		}
		r := runChecks(t, ctx, sim.URL, cat, []string{"support-profile-enforced-at-apply"})["support-profile-enforced-at-apply"]
		if r.Status != conformance.StatusFail || !strings.Contains(r.Message, want) {
			t.Errorf("%s, not enforced: %s, want a failure naming %q", file, r.Line(), want)
		}
		sim.Stop()
		cancel()
	}
}

// TestSupportEnforcementTriesUnknownRefs: a host that serves any schemaDigest of an
// installed kind fails support-profile-enforced-at-apply at the apply under a FormRef
// it does not install.
func TestSupportEnforcementTriesUnknownRefs(t *testing.T) {
	t.Parallel() // its own hostsim processes
	bin := checkBinary(t, conformance.AreaSupport, "support-profile-enforced-at-apply")
	ctx, sim, cat := startSim(t, bin, "full")
	if err := sim.ArmFault(ctx, "formref.loose"); err != nil {
		t.Fatal(err)
	}
	r := runChecks(t, ctx, sim.URL, cat, []string{"support-profile-enforced-at-apply"})["support-profile-enforced-at-apply"]
	if r.Status != conformance.StatusFail || !strings.Contains(r.Message, "does not install") {
		t.Fatalf("a host that serves an unknown schemaDigest: %s, want a failure at that apply", r.Line())
	}
}

// TestOutputsChecksReadEveryAnswer: the outputs checks measure the create answer,
// a read and an observe. A proxy in front of hostsim breaks the outputs of only one
// of those answers; the check must fail naming that one.
func TestOutputsChecksReadEveryAnswer(t *testing.T) {
	t.Parallel() // its own hostsim processes
	bin := hostsimBinary(t)
	if ids := idsOfAreas(t, conformance.AreaOutputs); len(ids) == 0 {
		t.Skip("narrowed away by TAKOKIT_SELFTEST_AREAS")
	}
	ctx, sim, cat := startSim(t, bin, "full", "--conformance-probes")
	// breakOutputs edits resource representations in answers matching when.
	breakOutputs := func(when func(*http.Request) bool, edit func(status map[string]any)) string {
		return rewriteJSON(t, sim.URL, func(req *http.Request, doc map[string]any) bool {
			if !when(req) {
				return false
			}
			res := doc
			if inner, ok := doc["resource"].(map[string]any); ok {
				res = inner
			}
			st, ok := res["status"].(map[string]any)
			if !ok || res["kind"] == nil {
				return false
			}
			edit(st)
			return true
		})
	}
	isGet := func(r *http.Request) bool { return r.Method == http.MethodGet }
	isObserve := func(r *http.Request) bool { return strings.HasSuffix(r.URL.Path, "/observe") }
	isCreate := func(r *http.Request) bool { return r.Method == http.MethodPut }
	dropOrAdd := func(st map[string]any) {
		if _, ok := st["outputs"]; ok {
			delete(st, "outputs")
		} else {
			st["outputs"] = map[string]any{}
		}
	}
	for _, c := range []struct {
		name, check string
		when        func(*http.Request) bool
		edit        func(map[string]any)
		want        string
	}{
		{"create answer", "form-declared-outputs-are-exact", isCreate, dropOrAdd, "PUT "},
		{"create answer of a Form with outputs", "form-declared-outputs-are-exact", isCreate, func(st map[string]any) { delete(st, "outputs") }, "lacks outputs"},
		{"read answer", "form-declared-outputs-are-exact", isGet, dropOrAdd, "GET "},
		{"observe answer", "form-declared-outputs-are-exact", isObserve, dropOrAdd, "/observe"},
		{"read after a status change", "outputs-move-revision-not-generation", isGet, func(st map[string]any) {
			if o, ok := st["outputs"].(map[string]any); ok {
				o["conformanceMoved"] = true
			}
		}, "without a revision change"},
	} {
		url := breakOutputs(c.when, c.edit)
		r := runChecks(t, ctx, url, cat, []string{c.check})[c.check]
		if r.Status != conformance.StatusFail || !strings.Contains(r.Message, c.want) {
			t.Errorf("outputs broken only in the %s: %s, want a failure naming %q", c.name, r.Line(), c.want)
		}
	}
}

// TestBindingContractOnAHostLackingOneBinding: on no-bucket-binding (ObjectBucket
// installed, its binding contract not implemented) binding-contract-verified
// reaches its unimplemented-binding branch and passes: the host refuses the
// binding unsupported_capability. Its negative arms bindings.unchecked there.
func TestBindingContractOnAHostLackingOneBinding(t *testing.T) {
	t.Parallel() // its own hostsim processes
	bin := hostsimBinary(t)
	ctx, sim, cat := startSim(t, bin, "no-bucket-binding")
	got := runChecks(t, ctx, sim.URL, cat, []string{"binding-contract-verified"})
	if r := got["binding-contract-verified"]; r.Status != conformance.StatusPass {
		t.Fatalf("binding-contract-verified on no-bucket-binding: %s, want pass", r.Line())
	}
}
