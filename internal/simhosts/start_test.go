package simhosts

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/takokit/takokit/internal/testinputs"
)

// TestSimHostsStartAndStop: the partial hosts of `go tool mage sim` start from
// bin/hostsim side by side on the lane asked for, each saying what it refuses
// compared with full, and Stop leaves no process behind. It needs bin/hostsim
// (`go tool mage build`; `mage unit` skips it by name).
func TestSimHostsStartAndStop(t *testing.T) {
	bin := hostsimBin(t)
	hosts, err := Start(bin, t.TempDir(), []string{"full", "kv-only"}, env(EnvLane, "v1alpha3"))
	if err != nil {
		t.Fatal(err)
	}
	stopped := false
	defer func() {
		if !stopped {
			Stop(hosts)
		}
	}()
	if len(hosts) != 2 {
		t.Fatalf("%d hosts started, want 2", len(hosts))
	}
	for _, h := range hosts {
		if h.Lane != "forms.takoform.com/v1alpha3" || !strings.HasPrefix(h.URL, "http://127.0.0.1:") || h.UI != h.URL+"/_sim/ui/" {
			t.Errorf("%s: lane %q, URL %q, dashboard %q; want the v1alpha3 lane on loopback", h.Profile, h.Lane, h.URL, h.UI)
		}
	}
	if len(hosts[0].Refuses) != 0 {
		t.Errorf("full refuses %q; want nothing", hosts[0].Refuses)
	}
	if len(hosts[1].Refuses) == 0 || !slices.ContainsFunc(hosts[1].Refuses, func(r string) bool { return strings.Contains(r, "AtLeastOnceQueue") }) {
		t.Errorf("kv-only refuses %q; want what it does not install named (AtLeastOnceQueue among them)", hosts[1].Refuses)
	}
	begun := time.Now()
	Stop(hosts)
	stopped = true
	if took := time.Since(begun); took > 5*time.Second {
		t.Errorf("Stop took %v; want the hosts to stop on the interrupt, not after the 10 s before a kill", took)
	}
	for _, h := range hosts {
		if err := h.cmd.Process.Signal(syscall.Signal(0)); err == nil {
			t.Errorf("%s: process %d is still there after Stop", h.Profile, h.cmd.Process.Pid)
		}
	}
}

// TestAFailedStartStopsTheHostsBeforeIt: when a later profile does not start,
// the hosts already started are stopped, not left running behind an error.
func TestAFailedStartStopsTheHostsBeforeIt(t *testing.T) {
	bin := hostsimBin(t)
	dir := t.TempDir()
	if _, err := Start(bin, dir, []string{"full", "no-such-profile"}, env()); err == nil || !strings.Contains(err.Error(), "hostsim --profile no-such-profile") {
		t.Fatalf("Start with an unknown second profile: %v; want it refused naming that profile", err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "full.ready.json"))
	if err != nil {
		t.Fatalf("the first host wrote no ready file: %v", err)
	}
	var ready struct{ PID int }
	if err := json.Unmarshal(b, &ready); err != nil || ready.PID == 0 {
		t.Fatalf("the first host's ready file %s: %v", b, err)
	}
	if err := syscall.Kill(ready.PID, 0); err == nil {
		_ = syscall.Kill(ready.PID, syscall.SIGKILL)
		t.Errorf("the first host (pid %d) is still running after the second failed to start", ready.PID)
	}
}

// TestABusyPortOfTheRangeIsNamedWithTheVariable: with TAKOKIT_SIM_PORT a host
// that cannot listen because another program holds its port is reported with
// the range the variable chose, so the user knows which setting to change.
func TestABusyPortOfTheRangeIsNamedWithTheVariable(t *testing.T) {
	bin := hostsimBin(t)
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	second := busy.Addr().(*net.TCPAddr).Port
	first := second - 1 // the first host gets a port next to the busy one, which it may find taken too
	_, err = Start(bin, t.TempDir(), []string{"full", "kv-only"}, env(EnvPort, fmt.Sprint(first)))
	want := fmt.Sprintf("(TAKOKIT_SIM_PORT=%d puts the 2 hosts on ports %d to %d: free those, or give another first port)", first, first, second)
	if err == nil || !strings.Contains(err.Error(), "address already in use") || !strings.HasSuffix(err.Error(), want) {
		t.Fatalf("Start with port %d taken: %v; want hostsim's refusal, then %q", second, err, want)
	}
}

// hostsimBin is the repository's bin/hostsim; without it the test fails with
// the command that builds it.
func hostsimBin(t *testing.T) string {
	t.Helper()
	testinputs.DeclareBin("bin/hostsim")
	bin, err := filepath.Abs("../../bin/hostsim")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("%s is missing: run `go tool mage build` (or `go tool mage test`) first", bin)
	}
	return bin
}
