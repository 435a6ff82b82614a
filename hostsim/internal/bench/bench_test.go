package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

func TestParseOptions(t *testing.T) {
	o, err := parseOptions(nil, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if o.hostsim != "bin/hostsim" || o.sequential != 1500 || o.parallel != 4000 || o.workers != 8 || o.rounds != 5 || o.rssAfter != 6000 || o.profile != "" {
		t.Fatalf("defaults: %+v", o)
	}
	o, err = parseOptions([]string{"--hostsim", "/x/hostsim", "--workers", "2", "--rounds", "5", "--sequential", "10",
		"--parallel", "20", "--rss-after", "40", "--profile", "out", "--profile-null", "--heap-rate", "1"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if o.hostsim != "/x/hostsim" || o.workers != 2 || o.rounds != 5 || o.sequential != 10 || o.parallel != 20 ||
		o.rssAfter != 40 || o.profile != "out" || !o.profileNull || o.heapRate != 1 {
		t.Fatalf("flags: %+v", o)
	}
	for _, tc := range []struct {
		args []string
		says string
	}{
		{[]string{"--rounds", "0"}, "--rounds 0"},
		{[]string{"--workers", "0"}, "--workers 0"},
		{[]string{"--sequential", "4"}, "--sequential 4"},
		{[]string{"--workers", "8", "--parallel", "7"}, "--parallel 7"},
		{[]string{"--rss-after", "3"}, "--rss-after 3"},
		{[]string{"--workers", "many"}, "invalid value"},
		{[]string{"--no-such-flag"}, "no-such-flag"},
		{[]string{"extra"}, `unexpected argument "extra"`},
	} {
		if _, err := parseOptions(tc.args, io.Discard); err == nil || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%v: %v; want an error naming %q", tc.args, err, tc.says)
		}
	}
}

func TestMedians(t *testing.T) {
	if m := median([]float64{5, 1, 3}); m != 3 {
		t.Errorf("median of 5, 1, 3 = %v", m)
	}
	if m := median([]float64{4, 1, 3, 2}); m != 3 {
		t.Errorf("median of four = %v; the upper middle is reported", m)
	}
	in := []float64{2, 1}
	median(in)
	if in[0] != 2 {
		t.Error("median sorted its argument")
	}
	c := medianCost([]cost{{server: 9, client: 9}, {server: 1, client: 1}, {server: 2, client: 5}})
	if c != (cost{server: 2, client: 5}) {
		t.Errorf("medianCost = %+v; want the round with the median total", c)
	}
	if s := (cost{server: 150 * time.Microsecond, client: 50 * time.Microsecond}).String(); s != "server  150 µs + client   50 µs =  200 µs" {
		t.Errorf("cost prints %q", s)
	}
}

// The summary is the median rate of each host and mode and hostsim's share
// of the null server's.
func TestReport(t *testing.T) {
	var out strings.Builder
	rates := [4][]float64{{1000, 900, 1100}, {300, 500, 400}, {4000, 2000, 3000}, {600, 900, 1200}}
	costs := [4][]cost{{{100, 1}, {200, 1}, {100, 1}}, {{250, 2}, {400, 2}, {300, 2}}, {{50, 3}, {0, 3}, {40, 3}}, {{160, 4}, {999, 4}, {150, 4}}}
	report(&out, options{workers: 8, rounds: 3}, rates, costs)
	for _, want := range []string{
		"null                       sequential    1000 lifecycles/s   8 workers    3000 lifecycles/s",
		"hostsim full (in-memory)   sequential     400 lifecycles/s   8 workers     900 lifecycles/s",
		"hostsim/null               sequential    0.40                 8 workers    0.30   (median of 3 interleaved rounds)",
		"hostsim 8 workers",
		// per round: 2.50, 2.00, 3.00 and 3.20, (none: the null cost nothing), 3.75
		"server CPU hostsim/null    sequential  2.50 (2.00–3.00)   8 workers  3.75 (3.20–3.75)",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the report lacks %q:\n%s", want, out.String())
		}
	}
}

func TestProcReaders(t *testing.T) {
	// A command name may hold spaces and parentheses: the times are counted
	// from the last ')'.
	line := "4242 (a ) b) S 1 1 1 0 -1 4194560 100 0 0 0 250 50 0 0 20 0 1 0 100 1000 10"
	d, err := statCPU(4242, line)
	if err != nil || d != 3*time.Second {
		t.Fatalf("statCPU = %v, %v; want 3s (300 ticks)", d, err)
	}
	if _, err := statCPU(1, "4242 no name"); err == nil {
		t.Error("a line without a command name was read")
	}
	r, err := statusRSS(1, "Name:\tx\nVmRSS:\t  2048 kB\nRssAnon:\t 1024 kB\nRssFile:\t  512 kB\n")
	if err != nil || r != (rss{total: 2, anon: 1, file: 0.5}) {
		t.Fatalf("statusRSS = %+v, %v", r, err)
	}
	if _, err := statusRSS(1, "Name:\tx\n"); err == nil {
		t.Error("a status without VmRSS was read")
	}
	// This process, as the harness reads a server.
	if _, err := procCPU(os.Getpid()); err != nil {
		t.Errorf("procCPU of this process: %v", err)
	}
	if r, err := readRSS(os.Getpid()); err != nil || r.total <= 0 {
		t.Errorf("readRSS of this process: %+v, %v", r, err)
	}
}

// The CPU clock reads another process's CPU time to the nanosecond and agrees
// with the kernel's tick count of it: a child that spins has used about as much
// CPU by either reading. The child is read once it has used 100 ms by the ticks,
// however long a loaded machine takes to give it that (at most 20 s).
func TestClockCPUReadsAChild(t *testing.T) {
	cmd := exec.Command("/bin/sh", "-c", "while :; do :; done")
	if err := cmd.Start(); err != nil {
		t.Fatalf("spin a shell: %v", err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	pid := cmd.Process.Pid
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		used, err := tickCPU(pid)
		if err != nil {
			t.Fatal(err)
		}
		if used >= 100*time.Millisecond {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the spinning child used only %v of CPU in 20 s", used)
		}
	}
	c0, err := clockCPU(pid)
	if err != nil {
		t.Fatal(err)
	}
	ticks, err := tickCPU(pid)
	if err != nil {
		t.Fatal(err)
	}
	c1, err := clockCPU(pid)
	if err != nil {
		t.Fatal(err)
	}
	if c0 < 90*time.Millisecond || c1 < c0 {
		t.Fatalf("clock read %v then %v for a child the ticks say used at least 100 ms", c0, c1)
	}
	// ticks were read between the two clock readings: within a tick of them
	if ticks < c0-2*time.Second/clockTicks || ticks > c1+2*time.Second/clockTicks {
		t.Fatalf("ticks %v outside the clock's %v..%v (± two ticks)", ticks, c0, c1)
	}
	if c0%(time.Second/clockTicks) == 0 && c1%(time.Second/clockTicks) == 0 {
		t.Errorf("clock readings %v and %v are whole ticks: not the nanosecond clock", c0, c1)
	}
	if _, err := clockCPU(1 << 27); err == nil { // above any pid_max (at most 2^22)
		t.Error("the CPU clock of a process that does not exist was read")
	}
}

// The bench reads the GOMAXPROCS a host serves with from its health, and
// refuses a health that does not say.
func TestHealthProcs(t *testing.T) {
	for _, c := range []struct {
		body string
		want int
	}{{`{"status":"ok","goMaxProcs":3}`, 3}, {`{"status":"ok"}`, 0}} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != "/_sim/health" {
				http.NotFound(w, r)
				return
			}
			_, _ = w.Write([]byte(c.body))
		}))
		got, err := healthProcs(srv.URL)
		srv.Close()
		if got != c.want || (c.want == 0) != (err != nil) {
			t.Errorf("health %s: %d, %v; want %d", c.body, got, err, c.want)
		}
	}
}
