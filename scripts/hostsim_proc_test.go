package scripts

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
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
	if err := p.start(ts); err != nil {
		return err
	}
	procsMu.Lock()
	if procs[ts] == nil {
		procs[ts] = map[string]*simProc{}
		ts.Defer(func() { stopAll(ts) })
	}
	procs[ts][name] = p
	procsMu.Unlock()
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
	cmd := exec.Command(filepath.Join(ts.Getenv("TAKOKIT_BIN"), "hostsim"), args...)
	cmd.Dir = ts.MkAbs(".")
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start hostsim %s: %v", p.name, err)
	}
	p.cmd, p.log, p.done = cmd, logf, make(chan struct{})
	go func() { p.err = cmd.Wait(); close(p.done) }()
	deadline := time.Now().Add(20 * time.Second)
	for {
		if r, ok := readReady(ready); ok {
			p.url, p.admin = r.URL, r.Admin
			p.addr = strings.TrimPrefix(r.URL, "http://")
			return nil
		}
		select {
		case <-p.done:
			return fmt.Errorf("hostsim %s exited before it was ready (%v); its log:\n%s", p.name, p.err, readLog(logf.Name()))
		case <-time.After(25 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			return fmt.Errorf("hostsim %s wrote no ready file within 20s; its log:\n%s", p.name, readLog(logf.Name()))
		}
	}
}

// readyDoc is what `hostsim serve --ready-file` writes once it accepts connections.
type readyDoc struct {
	URL   string `json:"url"`
	Admin string `json:"admin"`
	PID   int    `json:"pid"`
}

// readReady reads a ready file; ok is false until hostsim has written a complete one.
func readReady(path string) (readyDoc, bool) {
	var r readyDoc
	b, err := os.ReadFile(path)
	if err != nil || json.Unmarshal(b, &r) != nil || r.URL == "" {
		return r, false
	}
	return r, true
}

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

// stop interrupts the process and waits for it; it reports a non-zero exit.
func (p *simProc) stop() error {
	if p.exited() {
		return nil
	}
	_ = p.cmd.Process.Signal(syscall.SIGINT)
	select {
	case <-p.done:
	case <-time.After(10 * time.Second):
		_ = p.cmd.Process.Kill()
		<-p.done
		return fmt.Errorf("hostsim %s did not stop within 10s of SIGINT", p.name)
	}
	p.log.Close()
	if p.err != nil {
		return fmt.Errorf("hostsim %s exited with %v after SIGINT", p.name, p.err)
	}
	return nil
}

func stopAll(ts *testscript.TestScript) {
	procsMu.Lock()
	m := procs[ts]
	delete(procs, ts)
	procsMu.Unlock()
	for _, p := range m {
		_ = p.stop()
	}
}

func cmdHostsimRestart(ts *testscript.TestScript, args []string) error {
	if len(args) != 1 {
		return usageError("need NAME")
	}
	p, err := lookupSim(ts, args[0])
	if err != nil {
		return err
	}
	if !p.exited() {
		if err := p.stop(); err != nil {
			return err
		}
	}
	return p.start(ts)
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
