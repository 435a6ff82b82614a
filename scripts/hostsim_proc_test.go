package scripts

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/takokit/takokit/catalog/readyfile"
)

// simProc is one hostsim process a scenario started.
type simProc struct {
	name  string
	args  []string // serve arguments, without --addr and --ready-file
	addr  string   // host:port, reused on restart so the URL stays valid
	url   string
	admin string
	cmd   *exec.Cmd
	done  chan struct{}
	err   error // exit status once done is closed
	log   *os.File
	mark  *counters // counters at the last hostsim-mark, for delta: counts
	// exitSeen is set when the scenario waited for the exit (hostsim-wait NAME exited):
	// only then is a process that ended by itself expected.
	exitSeen bool
}

var (
	procsMu sync.Mutex
	procs   = map[*testscript.TestScript]map[string]*simProc{}
)

func lookupSim(ts *testscript.TestScript, name string) (*simProc, error) {
	procsMu.Lock()
	defer procsMu.Unlock()
	p, ok := procs[ts][name]
	if !ok {
		return nil, fmt.Errorf("no hostsim named %q was started in this scenario (use hostsim-start)", name)
	}
	return p, nil
}

func cmdHostsimStart(ts *testscript.TestScript, args []string) error {
	if len(args) < 2 {
		return usageError("need NAME and PROFILE")
	}
	name := args[0]
	if _, err := lookupSim(ts, name); err == nil {
		return usageError(fmt.Sprintf("hostsim %q already started", name))
	}
	p := &simProc{name: name, args: append([]string{"--profile", args[1]}, args[2:]...), addr: "127.0.0.1:0"}
	if lane := ts.Getenv(laneEnv); lane != "" && !slices.Contains(args, "--lane") && !slices.Contains(args, "--catalog") {
		p.args = append(p.args, "--lane", lane)
	}
	if err := p.start(ts); err != nil {
		return err
	}
	procsMu.Lock()
	if procs[ts] == nil {
		procs[ts] = map[string]*simProc{}
		ts.Defer(func() { failAtEnd(ts, stopAll(ts)) })
	}
	procs[ts][name] = p
	procsMu.Unlock()
	if lane := ts.Getenv(laneEnv); lane != "" && !slices.Contains(args, "--catalog") {
		got, err := simLane(p)
		if err != nil || got.Name != lane {
			return fmt.Errorf("hostsim %s should speak %s on this run: %v %v", name, lane, got, err)
		}
	}
	ts.Setenv(name+"_URL", p.url)
	ts.Setenv(name+"_ADMIN", p.admin)
	return nil
}

func (p *simProc) start(ts *testscript.TestScript) error {
	ready := ts.MkAbs(fmt.Sprintf(".hostsim-%s.ready", p.name))
	_ = os.Remove(ready)
	logf, err := os.OpenFile(ts.MkAbs(fmt.Sprintf(".hostsim-%s.log", p.name)), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	args := append([]string{"serve", "--addr", p.addr, "--ready-file", ready}, p.args...)
	cmd, err := startUnlessBusy(func() *exec.Cmd {
		cmd := exec.Command(filepath.Join(ts.Getenv("TAKOKIT_BIN"), "hostsim"), args...)
		cmd.Dir = ts.MkAbs(".")
		cmd.Stdout, cmd.Stderr = logf, logf
		return cmd
	})
	if err != nil {
		return fmt.Errorf("start hostsim %s: %v", p.name, err)
	}
	p.cmd, p.log, p.done = cmd, logf, make(chan struct{})
	go func() { p.err = cmd.Wait(); close(p.done) }()
	r, err := readyfile.Await(context.Background(), ready, p.done, readyWithin)
	switch {
	case errors.Is(err, readyfile.ErrExited):
		return fmt.Errorf("hostsim %s exited before it was ready (%v); its log:\n%s", p.name, p.err, readLog(logf.Name()))
	case err != nil:
		_ = cmd.Process.Kill()
		return fmt.Errorf("hostsim %s wrote no ready file within %s; its log:\n%s", p.name, readyWithin, readLog(logf.Name()))
	}
	p.url, p.admin = r.URL, r.Admin
	p.addr = strings.TrimPrefix(r.URL, "http://")
	return nil
}

// readyWithin is how long a started hostsim may take to write its ready file.
const readyWithin = 20 * time.Second

func readLog(path string) string {
	b, _ := os.ReadFile(path)
	return string(b)
}

func (p *simProc) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// stop interrupts the process and waits for it. It is an error when the process had
// already died without the scenario waiting for it (hostsim-wait NAME exited), when
// it exits non-zero after SIGINT, and when its log shows a panic.
func (p *simProc) stop() error {
	if p.exited() {
		p.log.Close()
		if !p.exitSeen {
			p.exitSeen = true // reported once
			return fmt.Errorf("hostsim %s had already exited (%v) before the scenario stopped it; its log:\n%s", p.name, p.err, readLog(p.log.Name()))
		}
		return p.logProblem()
	}
	_ = p.cmd.Process.Signal(syscall.SIGINT)
	select {
	case <-p.done:
	case <-time.After(10 * time.Second):
		_ = p.cmd.Process.Kill()
		<-p.done
		p.log.Close()
		return fmt.Errorf("hostsim %s did not stop within 10s of SIGINT", p.name)
	}
	p.log.Close()
	p.exitSeen = true // stopped on purpose: a later stop or the end of the scenario expects it gone
	if p.err != nil {
		return fmt.Errorf("hostsim %s exited with %v after SIGINT; its log:\n%s", p.name, p.err, readLog(p.log.Name()))
	}
	return p.logProblem()
}

// panicInLog matches what a Go panic leaves in a log: the panic line, a goroutine
// stack header, net/http's report of a handler panic it recovered, or the record
// of hostsim's recover middleware (hostsim.PanicLogMessage).
var panicInLog = regexp.MustCompile(`(?m)^panic: |^goroutine \d+ \[|http: panic serving|msg"?[:=]"?panic recovered`)

// logProblem reports a panic in the host's log: a host that panicked failed the
// scenario even when the client saw an ordinary answer.
func (p *simProc) logProblem() error {
	log := readLog(p.log.Name())
	if loc := panicInLog.FindStringIndex(log); loc != nil {
		return fmt.Errorf("hostsim %s logged a panic; its log from there:\n%s", p.name, log[loc[0]:])
	}
	return nil
}

// stopAll stops every host of the scenario and returns every problem found.
func stopAll(ts *testscript.TestScript) error {
	procsMu.Lock()
	m := procs[ts]
	delete(procs, ts)
	procsMu.Unlock()
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	var errs []error
	for _, n := range names {
		if err := m[n].stop(); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// failAtEnd reports problems found after the script's last line (a host that died or
// panicked) as a failure of the scenario.
func failAtEnd(ts *testscript.TestScript, err error) {
	if err == nil {
		return
	}
	t, _ := ts.Value(scenarioT{}).(testscript.T)
	if e, ok := t.(interface{ Errorf(string, ...any) }); ok {
		e.Errorf("after the scenario: %v", err)
		return
	}
	if t != nil {
		t.Fatal("after the scenario: ", err)
	}
	panic("no testscript.T to report to: " + err.Error())
}

// scenarioT is the Env value key under which setupEnv stores the scenario's T.
type scenarioT struct{}

func cmdHostsimRestart(ts *testscript.TestScript, args []string) error {
	if len(args) != 1 {
		return usageError("need NAME")
	}
	p, err := lookupSim(ts, args[0])
	if err != nil {
		return err
	}
	if err := p.stop(); err != nil {
		return err
	}
	p.exitSeen = false
	return p.start(ts)
}

// cmdHostsimKill sends SIGKILL: the process ends at once, with no shutdown and
// nothing flushed, as a crash would; the scenario then expects it gone.
func cmdHostsimKill(ts *testscript.TestScript, args []string) error {
	if len(args) != 1 {
		return usageError("need NAME")
	}
	p, err := lookupSim(ts, args[0])
	if err != nil {
		return err
	}
	if p.exited() {
		return fmt.Errorf("hostsim %s had already exited (%v) before the kill", p.name, p.err)
	}
	if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		return err
	}
	select {
	case <-p.done:
	case <-time.After(10 * time.Second):
		return fmt.Errorf("hostsim %s did not end within 10s of SIGKILL", p.name)
	}
	p.exitSeen = true
	ts.Logf("hostsim %s killed: %v", p.name, p.err)
	return nil
}

func cmdHostsimStop(ts *testscript.TestScript, args []string) error {
	if len(args) != 1 {
		return usageError("need NAME")
	}
	p, err := lookupSim(ts, args[0])
	if err != nil {
		return err
	}
	return p.stop()
}

// busyTries and busyPause bound startUnlessBusy: a descriptor held by a forked child
// lasts until that child execs, well under a millisecond; 40 tries 25 ms apart allow a
// second on a loaded machine.
const (
	busyTries = 40
	busyPause = 25 * time.Millisecond
)

// startUnlessBusy starts the command newCmd builds, building and starting it again
// while the start fails with "text file busy" (ETXTBSY). A test that writes an
// executable (a fake hostsim) and runs it races every test beside it that forks: a
// child forked while the file was open for writing holds that descriptor until it
// execs, and until then the kernel refuses to run the file. Go's own tests retry the
// same way; any other error is returned at once.
func startUnlessBusy(newCmd func() *exec.Cmd) (*exec.Cmd, error) {
	for i := 1; ; i++ {
		cmd := newCmd()
		err := cmd.Start()
		if err == nil || !errors.Is(err, syscall.ETXTBSY) || i == busyTries {
			return cmd, err
		}
		time.Sleep(busyPause)
	}
}
