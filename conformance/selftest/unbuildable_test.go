package selftest

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/catalogtest"
	"github.com/takokit/takokit/conformance"
)

// statusLog remembers every request the runner sends and the status it got.
type statusLog struct {
	mu   sync.Mutex
	seen []string // "PUT /path 422"
}

func (r *statusLog) RoundTrip(req *http.Request) (*http.Response, error) {
	res, err := http.DefaultTransport.RoundTrip(req)
	if err == nil {
		r.mu.Lock()
		r.seen = append(r.seen, req.Method+" "+req.URL.Path+" "+res.Status[:3])
		r.mu.Unlock()
	}
	return res, err
}

// puts returns the PUTs of resources of kind, with their status.
func (r *statusLog) puts(kind string) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, s := range r.seen {
		if strings.HasPrefix(s, "PUT ") && strings.Contains(s, "/"+kind+"/") {
			out = append(out, s)
		}
	}
	return out
}

// runLogged runs one check with every request and its status logged.
func runLogged(t *testing.T, ctx context.Context, endpoint string, cat *catalog.Catalog, space, id string) (conformance.Result, *statusLog) {
	t.Helper()
	rec := &statusLog{}
	cfg := conformance.Config{Endpoint: endpoint, Catalog: cat, Space: space, Only: []string{id}, Transport: rec}
	tokens(&cfg)
	rep, err := conformance.Run(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.Checks {
		if r.ID == id {
			return r, rec
		}
	}
	t.Fatalf("%s did not run", id)
	return conformance.Result{}, nil
}

// TestSupportEnforcementOverFormsItCannotBuild: a definition may declare no
// conformance fixtures. On a catalog whose ModuleWorker has none, no instance of a
// Form that refers to a worker can be built, so support-profile-enforced-at-apply
// cannot try the narrowings the profile advertises for those Forms (a range and an
// omitted update of QueueConsumer, an omitted create of WorkerCronTrigger): it skips
// them, sends no apply of either kind, and still measures the Forms it can build
// (AtLeastOnceQueue's range), passing on a host that enforces and failing at that
// range on one that does not.
func TestSupportEnforcementOverFormsItCannotBuild(t *testing.T) {
	t.Parallel() // its own hostsim processes
	const id = "support-profile-enforced-at-apply"
	bin := checkBinary(t, conformance.AreaSupport, id)
	dir := t.TempDir()
	cat, err := catalogtest.WithoutFixtures(filepath.Join(dir, "catalog"), "ModuleWorker")
	if err != nil {
		t.Fatal(err)
	}
	profile := filepath.Join(dir, "profile.json")
	if err := os.WriteFile(profile, []byte(`{
  "name": "narrowed-unbuildable",
  "description": "Test host for the conformance self-test: full, with narrowings on Forms that refer to a worker and on queues.",
  "extends": "full",
  "operations": {"QueueConsumer": ["create", "read", "delete", "import", "observe"],
                 "WorkerCronTrigger": ["read", "delete", "import", "observe"]},
  "supportedRanges": {"QueueConsumer": {"maxBatchSize": {"maximum": 50}},
                      "AtLeastOnceQueue": {"messageRetentionSeconds": {"minimum": 60, "maximum": 86400}}}
}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, sim, _ := startSim(t, bin, profile, "--catalog", filepath.Join(dir, "catalog"))
	run := func(space string) (conformance.Result, *statusLog) {
		return runLogged(t, ctx, sim.URL, cat, space, id)
	}

	r, rec := run("unbuildable")
	if r.Status != conformance.StatusPass {
		t.Errorf("on a host that enforces its profile: %s, want pass (a narrowing of a Form with no buildable instance is skipped, not the whole check)", r.Line())
	}
	for _, kind := range []string{"QueueConsumer", "WorkerCronTrigger"} {
		if puts := rec.puts(kind); len(puts) > 0 {
			t.Errorf("the check applied %s, which it cannot build without a worker fixture: %v", kind, puts)
		}
	}
	var refused bool
	for _, p := range rec.puts("AtLeastOnceQueue") {
		refused = refused || strings.HasSuffix(p, " 422")
	}
	if !refused {
		t.Errorf("no apply of AtLeastOnceQueue outside its supportedRanges was refused 422: %v", rec.puts("AtLeastOnceQueue"))
	}

	if err := sim.ArmFault(ctx, "support.unenforced"); err != nil {
		t.Fatal(err)
	}
	r, _ = run("unenforced")
	if r.Status != conformance.StatusFail || !strings.Contains(r.Message, "AtLeastOnceQueue supportedRanges.messageRetentionSeconds") {
		t.Errorf("on a host that does not enforce its profile: %s, want a failure at AtLeastOnceQueue's range", r.Line())
	}
}

// TestSupportEnforcementAppliesUninstalledFormsWithoutFixtures: the check applies
// every Form of the runner's catalog the host does not install and expects
// form_unknown; a Form without fixtures goes with the spec {} (the host refuses the
// FormRef before it reads the spec). ObjectBucket without fixtures on kv-only, which
// does not install it: the apply is sent, refused 404, and the check passes.
func TestSupportEnforcementAppliesUninstalledFormsWithoutFixtures(t *testing.T) {
	t.Parallel() // its own hostsim processes
	const id = "support-profile-enforced-at-apply"
	bin := checkBinary(t, conformance.AreaSupport, id)
	dir := t.TempDir()
	cat, err := catalogtest.WithoutFixtures(dir, "ObjectBucket")
	if err != nil {
		t.Fatal(err)
	}
	ctx, sim, _ := startSim(t, bin, "kv-only", "--catalog", dir)
	r, rec := runLogged(t, ctx, sim.URL, cat, "uninstalled", id)
	if r.Status != conformance.StatusPass {
		t.Errorf("kv-only with ObjectBucket lacking fixtures: %s, want pass", r.Line())
	}
	puts := rec.puts("ObjectBucket")
	if len(puts) != 1 || !strings.HasSuffix(puts[0], " 404") {
		t.Errorf("applies of the uninstalled ObjectBucket: %v, want one, refused 404 form_unknown", puts)
	}
}
