package simhosts

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/takokit/takokit/internal/testinputs"
)

// TestSimHostsStartAndStop: the partial hosts of `go tool mage sim` start from
// bin/hostsim side by side on the lane asked for, each saying what it refuses
// compared with full, and Stop leaves no process behind. It needs bin/hostsim
// (`go tool mage build`; `mage unit` skips it by name).
func TestSimHostsStartAndStop(t *testing.T) {
	testinputs.DeclareBin("bin/hostsim")
	bin, err := filepath.Abs("../../bin/hostsim")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("%s is missing: run `go tool mage build` (or `go tool mage test`) first", bin)
	}
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
	Stop(hosts)
	stopped = true
	for _, h := range hosts {
		if err := h.cmd.Process.Signal(syscall.Signal(0)); err == nil {
			t.Errorf("%s: process %d is still there after Stop", h.Profile, h.cmd.Process.Pid)
		}
	}
}
