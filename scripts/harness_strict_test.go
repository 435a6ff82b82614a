package scripts

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// fakeHostsim behaves like `hostsim serve --ready-file F` as far as the harness can
// see, then misbehaves as its mode says: die (exit 3 right after it is ready),
// panic (log a Go panic before it is ready, then stop cleanly on SIGINT) or clean.
const fakeHostsim = `#!/usr/bin/env bash
mode="MODE"
ready=""
while [ $# -gt 0 ]; do
  if [ "$1" = "--ready-file" ]; then ready="$2"; shift; fi
  shift
done
trap 'exit 0' INT TERM
# the panic is logged before the host is ready, so a scenario that stops it at once still sees it
if [ "$mode" = panic ]; then
  printf 'panic: runtime error: index out of range [3] with length 3\n\ngoroutine 42 [running]:\nmain.handler()\n' >&2
fi
printf '{"url": "http://127.0.0.1:9", "admin": "http://127.0.0.1:9/_sim", "pid": %d}' $$ > "$ready.tmp"
mv "$ready.tmp" "$ready"
if [ "$mode" = die ]; then sleep 0.2; echo "fatal: lost the database" >&2; exit 3; fi
while true; do sleep 0.05; done
`

// recT is a testscript.T that records failures instead of failing the real test.
type recT struct {
	mu     sync.Mutex
	failed bool
	log    strings.Builder
	only   string   // when set, the one script run, as `go test -run Test/name` runs one
	ran    []string // the work folder of each script set up
}

func (r *recT) Skip(a ...any)  { r.Log(a...); runtime.Goexit() }
func (r *recT) Fatal(a ...any) { r.Log(a...); r.FailNow() }
func (r *recT) Parallel()      {}
func (r *recT) Verbose() bool  { return false }
func (r *recT) Log(a ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	fmt.Fprintln(&r.log, a...)
}
func (r *recT) Errorf(format string, a ...any) {
	r.mu.Lock()
	r.failed = true
	r.mu.Unlock()
	r.Log(fmt.Sprintf(format, a...))
}
func (r *recT) FailNow() {
	r.mu.Lock()
	r.failed = true
	r.mu.Unlock()
	runtime.Goexit()
}
func (r *recT) Run(name string, f func(testscript.T)) {
	if r.only != "" && name != r.only {
		return
	}
	done := make(chan struct{})
	go func() { defer close(done); f(r) }()
	<-done
}

// runFakeScenario runs script through the real harness commands against the fake
// hostsim in mode, and returns whether the scenario failed and its log.
func runFakeScenario(t *testing.T, mode, script string) (bool, string) {
	t.Helper()
	r := &recT{}
	runFakeScripts(t, r, mode, map[string]string{"s": script})
	return r.failed, r.log.String()
}

// runFakeScripts runs scripts (by name) as runFakeScenario runs one, under r.
func runFakeScripts(t *testing.T, r *recT, mode string, scripts map[string]string) {
	t.Helper()
	bin := t.TempDir()
	if err := os.WriteFile(filepath.Join(bin, "hostsim"), []byte(strings.Replace(fakeHostsim, "MODE", mode, 1)), 0o755); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for name, script := range scripts {
		if err := os.WriteFile(filepath.Join(dir, name+".txtar"), []byte(script), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	testscript.RunT(r, inOwnRoot(t, testscript.Params{
		Dir:                 dir,
		RequireExplicitExec: true,
		Setup: func(e *testscript.Env) error {
			e.Values[scenarioT{}] = e.T()
			e.Vars = append(e.Vars, "TAKOKIT_BIN="+bin)
			r.mu.Lock()
			r.ran = append(r.ran, filepath.Base(e.WorkDir))
			r.mu.Unlock()
			return nil
		},
		Cmds: commandFuncs(),
	}))
}

func TestHarnessFailsWhenTheHostDied(t *testing.T) {
	t.Parallel() // its own fake hostsim
	failed, log := runFakeScenario(t, "die", "hostsim-start SIM full\nexec sleep 0.6\n")
	if !failed || !strings.Contains(log, "had already exited") || !strings.Contains(log, "lost the database") {
		t.Fatalf("a host that died on its own must fail the scenario with its log; failed=%v\n%s", failed, log)
	}
}

func TestHarnessFailsWhenTheHostPanicked(t *testing.T) {
	t.Parallel() // its own fake hostsim
	failed, log := runFakeScenario(t, "panic", "hostsim-start SIM full\n")
	if !failed || !strings.Contains(log, "logged a panic") || !strings.Contains(log, "goroutine 42 [running]") {
		t.Fatalf("a host whose log shows a panic must fail the scenario; failed=%v\n%s", failed, log)
	}
}

func TestHarnessStopReportsAnEarlierDeath(t *testing.T) {
	t.Parallel() // its own fake hostsim
	failed, log := runFakeScenario(t, "die", "hostsim-start SIM full\nhostsim-wait SIM exited 5s\nhostsim-stop SIM\n")
	if failed {
		t.Fatalf("a death the scenario waited for is expected; the scenario failed:\n%s", log)
	}
	failed, log = runFakeScenario(t, "die", "hostsim-start SIM full\nexec sleep 0.6\nhostsim-stop SIM\n")
	if !failed || !strings.Contains(log, "had already exited") {
		t.Fatalf("hostsim-stop of a host that died unseen must fail; failed=%v\n%s", failed, log)
	}
}

// A scenario run leaves no folder behind in the temp dir, not even the
// common root of its work folders, when only some of its scripts run (as
// `go test -run 'TestScenarios/name'` runs one): testscript removes that root
// only once every script it was given has finished.
func TestScenarioRunsLeaveNoFolderInTheTempDir(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("GOTMPDIR", tmp) // where testscript puts its root when not told otherwise
	t.Setenv("TMPDIR", tmp)
	r := &recT{only: "one"}
	t.Run("run", func(t *testing.T) { // whose cleanups have run when it returns
		runFakeScripts(t, r, "clean", map[string]string{"one": "exec true\n", "two": "exec true\n"})
	})
	if r.failed || !slices.Equal(r.ran, []string{"script-one"}) {
		t.Fatalf("script one alone should have run, and passed; ran %v:\n%s", r.ran, r.log.String())
	}
	if left, _ := os.ReadDir(tmp); len(left) > 0 {
		t.Fatalf("the run left %d entries in the temp dir, the first %s", len(left), left[0].Name())
	}
}

func TestHarnessPassesACleanHost(t *testing.T) {
	t.Parallel() // its own fake hostsim
	failed, log := runFakeScenario(t, "clean", "hostsim-start SIM full\nhostsim-restart SIM\nhostsim-stop SIM\n")
	if failed {
		t.Fatalf("a host that starts, restarts and stops cleanly failed the scenario:\n%s", log)
	}
}

// The record hostsim's recover middleware writes (text or JSON logs) counts as a
// panic too: a recovered panic is still a hostsim bug.
func TestPanicInLogMatchesARecoveredPanic(t *testing.T) {
	for _, line := range []string{
		`time=2026-01-01T00:00:00Z level=ERROR msg="panic recovered" requestId=req_1 panic=boom stack="goroutine 7 [running]:\n..."`,
		`{"time":"2026-01-01T00:00:00Z","level":"ERROR","msg":"panic recovered","requestId":"req_1"}`,
	} {
		if !panicInLog.MatchString(line) {
			t.Errorf("panicInLog misses a recovered panic: %s", line)
		}
	}
	if panicInLog.MatchString(`time=x level=INFO msg=request route=apply status=500`) {
		t.Error("panicInLog matches an ordinary 500 answer")
	}
}

// TestSocketRoomNamesTheScenarioWhoseSocketWouldNotFit: a scenario whose provider
// socket path would pass a Unix socket's 107 bytes under the root is refused before it
// runs, named with the length and what to do; every scenario of testdata fits under a
// root as long as the one the run makes.
func TestSocketRoomNamesTheScenarioWhoseSocketWouldNotFit(t *testing.T) {
	long := strings.Repeat("n", 60)
	root := "/dev/shm/tk/ts1234567890"
	if err := socketRoom(root, []string{"testdata/" + long + ".txtar"}); err == nil ||
		!strings.Contains(err.Error(), "scenario "+long) || !strings.Contains(err.Error(), "shorten the scenario's name by") {
		t.Errorf("a %d-byte name under %s: %v; want it refused by name", len(long), root, err)
	}
	fits := strings.Repeat("n", 107-len(root+"/script-"+socketTail))
	if err := socketRoom(root, []string{fits + ".txtar"}); err != nil {
		t.Errorf("a name of exactly the room left: %v", err)
	}
	if err := socketRoom(root, []string{fits + "n.txtar"}); err == nil {
		t.Errorf("a name one byte over the room left was not refused")
	}
	files, _ := filepath.Glob("testdata/*.txtar")
	dir, err := os.MkdirTemp("", "ts")
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(dir)
	// the longest root MkdirTemp can make: "ts" and ten digits
	worst := filepath.Join(filepath.Dir(dir), "ts1234567890")
	if err := socketRoom(worst, files); err != nil {
		t.Errorf("under this run's temporary folder: %v", err)
	}
}
