package selftest

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/reftest"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/conformance"
)

// startSim starts bin/hostsim under profile (and extra flags) for the rest of the
// test, bounded by a minute, and gives the embedded catalog the checks run over.
func startSim(t *testing.T, bin, profile string, extra ...string) (context.Context, *Sim, *catalog.Catalog) {
	t.Helper()
	return simFor(t, func(ctx context.Context) (*Sim, error) { return Start(ctx, bin, profile, extra...) })
}

// startInProcessSim is startSim with hostsim in the test binary (startInProcess).
func startInProcessSim(t *testing.T, profile string, extra ...string) (context.Context, *Sim, *catalog.Catalog) {
	t.Helper()
	return simFor(t, func(ctx context.Context) (*Sim, error) { return startInProcess(ctx, "", profile, extra...) })
}

// simFor runs start for the rest of the test, bounded by a minute: its context, the
// host and the embedded catalog.
func simFor(t *testing.T, start func(context.Context) (*Sim, error)) (context.Context, *Sim, *catalog.Catalog) {
	t.Helper()
	cat, err := catalog.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	t.Cleanup(cancel)
	sim, err := start(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(sim.Stop)
	return ctx, sim, cat
}

// hostsimBinary finds bin/hostsim at the workspace root. A missing binary fails the
// test, in CI and outside it, unless TAKOKIT_NO_HOSTSIM=1 asks it to skip
// (NoHostsimEnv): the self-test is what proves every check can fail, and a run that
// silently skipped it would prove nothing.
func hostsimBinary(t *testing.T) string {
	t.Helper()
	wd, _ := os.Getwd()
	bin, skip, err := LocateHostsim(wd, HostsimOptOut())
	switch {
	case err != nil:
		t.Fatal(err)
	case skip != "":
		t.Skip(skip)
	}
	return bin
}

// TestSelftest runs what `conformance selftest` runs (go tool mage test runs no other):
// the positive suite against hostsim full, on the catalog's lane and every other one,
// and every negative. A check that fails against full, or whose negative does not make
// it fail, fails the test with its line.
func TestSelftest(t *testing.T) {
	t.Parallel() // its own hostsim processes
	bin := hostsimBinary(t)
	cat, err := catalog.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	var others []string // every lane but the embedded catalog's, as the CLI runs them
	for _, l := range wire.Lanes() {
		if l != wire.DefaultLane {
			others = append(others, l.Name)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	var log strings.Builder
	out, err := Run(ctx, Options{Hostsim: bin, Catalog: cat, Out: &log, Only: areaChecks(t), OtherLanes: OtherLanes(cat)})
	if err != nil {
		t.Fatalf("self-test did not run: %v\n%s", err, log.String())
	}
	if len(out.Lanes) != len(others) {
		t.Errorf("the positive suite ran on lanes %v, want every other lane %v", slices.Sorted(maps.Keys(out.Lanes)), others)
	}
	for lane, rep := range out.Lanes {
		for _, r := range rep.Checks {
			if r.Status == conformance.StatusFail || r.Status == conformance.StatusError {
				t.Errorf("positive run against hostsim full on lane %s: %s", lane, r.Line())
			}
		}
	}
	for _, r := range out.Positive.Checks {
		if r.Status == "fail" || r.Status == "error" {
			t.Errorf("positive run against hostsim full: %s", r.Line())
		}
		// hostsim full installs everything the built-in catalog declares but one kind in
		// two groups: a check that stops applying to it measures nothing any more.
		if r.Status == conformance.StatusNotApplicable && conformance.Negatives()[r.ID].Catalog == "" {
			t.Errorf("positive run against hostsim full: %s; only a check proven on a test catalog may be not-applicable there", r.Line())
		}
	}
	for _, n := range out.Negatives {
		if !n.Caught || n.Moot {
			t.Errorf("negative matrix: %s", n.Verdict) // every check is measurable and fails at its rule
		}
	}
	t.Logf("self-test in %s: %s; %d negatives", out.Elapsed.Round(time.Millisecond), out.Positive.Summary.Line(), len(out.Negatives))
}

// areaChecks narrows the self-test to the checks of the areas named in
// TAKOKIT_SELFTEST_AREAS (comma-separated, e.g. "outputs,transitions"): `mage mutate`
// runs only the areas whose code it mutates. Unset, every check runs.
//
// TAKOKIT_SELFTEST_CHECKS (comma-separated check ids) narrows it to those checks:
// `mage mutate` runs the self-test once per check, so a mutant of one check's
// code waits only for that check and its negatives.
func areaChecks(t *testing.T) []string {
	if env := os.Getenv("TAKOKIT_SELFTEST_CHECKS"); env != "" {
		var ids []string
		for _, id := range strings.Split(env, ",") {
			id = strings.TrimSpace(id)
			if _, ok := conformance.Negatives()[id]; !ok {
				t.Fatalf("TAKOKIT_SELFTEST_CHECKS names %q, which is no check of the table", id)
			}
			ids = append(ids, id)
		}
		return ids
	}
	env := os.Getenv("TAKOKIT_SELFTEST_AREAS")
	if env == "" {
		return nil
	}
	var ids []string
	for _, a := range strings.Split(env, ",") {
		n := len(ids)
		for _, c := range conformance.Table() {
			if string(c.Area) == strings.TrimSpace(a) {
				ids = append(ids, c.ID)
			}
		}
		if len(ids) == n {
			t.Fatalf("TAKOKIT_SELFTEST_AREAS names %q, which is no area of the table (%v)", a, conformance.Areas())
		}
	}
	t.Logf("self-test narrowed to %d checks of %s", len(ids), env)
	return ids
}

// narrowedTo is those of ids the run is narrowed to (areaChecks), all of them
// when it is not; the test skips when none is left.
func narrowedTo(t *testing.T, ids ...string) []string {
	t.Helper()
	only := areaChecks(t)
	var out []string
	for _, id := range ids {
		if only == nil || slices.Contains(only, id) {
			out = append(out, id)
		}
	}
	if len(out) == 0 {
		t.Skipf("narrowed away: none of %v is among the checks named", ids)
	}
	return out
}

// testProfile is the absolute path of the test profile testdata/name, as
// hostsim serve --profile takes it.
func testProfile(t *testing.T, name string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestFindHostsimNamesWhereItLooked(t *testing.T) {
	t.Chdir(t.TempDir())
	t.Setenv("PATH", t.TempDir())
	_, err := FindHostsim("")
	if err == nil || !strings.Contains(err.Error(), filepath.Join("bin", "hostsim")) || !strings.Contains(err.Error(), "PATH") {
		t.Fatalf("FindHostsim without a binary: %v; the error must name bin/hostsim and PATH", err)
	}
	if _, err := FindHostsim("/nonexistent/hostsim"); err == nil || !strings.Contains(err.Error(), "/nonexistent/hostsim") {
		t.Fatalf("FindHostsim with a missing --hostsim: %v", err)
	}
	// a directory, or a file that cannot be run, is said as what it is before anything starts
	dir := t.TempDir()
	plain := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(plain, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{
		dir:   "--hostsim " + dir + " is a directory; give the hostsim binary in it, such as " + filepath.Join(dir, "hostsim"),
		plain: "--hostsim " + plain + " is not executable (-rw-r--r--); give the hostsim binary (`go tool mage build` writes bin/hostsim)",
	} {
		if _, err := FindHostsim(path); err == nil || err.Error() != want {
			t.Errorf("FindHostsim(%s): %v; want %q", path, err, want)
		}
	}
}

func TestFaultObject(t *testing.T) {
	got, err := faultObject("outputs.omit=url,kind=WorkerEndpoint,count=1")
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != `{"count":1,"fault":"outputs.omit","kind":"WorkerEndpoint","value":"url"}` {
		t.Fatalf("fault object %s", got)
	}
	for _, bad := range []string{"", "x,count=0", "x,nope", "x,color=red"} {
		if _, err := faultObject(bad); err == nil {
			t.Errorf("faultObject(%q) accepted a malformed fault", bad)
		}
	}
}

// TestPublishedFamily runs the whole suite against hostsim serving the published
// reference family, with the runner probing through the same catalog.
func TestPublishedFamily(t *testing.T) {
	t.Parallel() // its own hostsim processes
	bin := hostsimBinary(t)
	for _, lane := range wire.Lanes() {
		t.Run(lane.Name, func(t *testing.T) {
			dir := reftest.Lane(t, lane)
			cat, err := catalog.Load(os.DirFS(dir))
			if err != nil {
				t.Fatalf("the published family does not load: %v", err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			sim, err := Start(ctx, bin, "full", "--catalog", dir)
			if err != nil {
				t.Fatal(err)
			}
			defer sim.Stop()
			cfg := conformance.Config{Endpoint: sim.URL, Catalog: cat}
			tokens(&cfg)
			rep, err := conformance.Run(ctx, cfg)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Lane != lane.APIVersion {
				t.Errorf("the run names the host's lane %q, want %s", rep.Lane, lane.APIVersion)
			}
			for _, r := range rep.Checks {
				if r.Status == conformance.StatusFail || r.Status == conformance.StatusError {
					t.Errorf("published family of %s: %s", lane.Name, r.Line())
				}
			}
			t.Logf("published family of %s: %s", lane.Name, rep.Summary.Line())
		})
	}
}
