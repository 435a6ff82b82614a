package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/takokit/takokit/catalog/wire"
)

// proc is a server started as a child process with a ready file.
type proc struct {
	name  string
	url   string
	procs int // its GOMAXPROCS: from the ready file of the bench's own servers, from hostsim's health (run)
	cmd   *exec.Cmd
	done  chan struct{}
}

// start runs bin args... --addr 127.0.0.1:0 --ready-file F and waits for F.
func start(dir, name, bin string, args ...string) (*proc, error) {
	ready := filepath.Join(dir, name+".ready.json")
	args = append(args, "--addr", "127.0.0.1:0", "--ready-file", ready)
	logf, err := os.Create(filepath.Join(dir, name+".log"))
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = logf, logf
	// a bench killed mid-run (^C, a closed pipe) takes its servers with it
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		logf.Close()
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	p := &proc{name: name, cmd: cmd, done: make(chan struct{})}
	go func() { _ = cmd.Wait(); logf.Close(); close(p.done) }()
	started.Lock()
	started.procs = append(started.procs, p)
	started.Unlock()
	deadline := time.After(30 * time.Second)
	for p.url == "" {
		var r struct {
			URL        string `json:"url"`
			GoMaxProcs int    `json:"goMaxProcs"`
		}
		if b, err := os.ReadFile(ready); err == nil && json.Unmarshal(b, &r) == nil {
			p.url, p.procs = r.URL, r.GoMaxProcs
			break
		}
		select {
		case <-p.done:
			log, _ := os.ReadFile(logf.Name())
			return nil, fmt.Errorf("%s exited before it was ready: %s", name, log)
		case <-deadline:
			p.stop()
			return nil, fmt.Errorf("%s wrote no ready file within 30s", name)
		case <-time.After(20 * time.Millisecond):
		}
	}
	return p, nil
}

// healthProcs is the goMaxProcs a host's GET /_sim/health reports.
func healthProcs(base string) (int, error) {
	b, err := newClient(base, wire.FormRef{}, true).do("GET", "/_sim/health", nil, nil, 200)
	if err != nil {
		return 0, err
	}
	var h struct {
		GoMaxProcs int `json:"goMaxProcs"`
	}
	if err := json.Unmarshal(b, &h); err != nil || h.GoMaxProcs < 1 {
		return 0, fmt.Errorf("GET /_sim/health names no goMaxProcs: %s", b)
	}
	return h.GoMaxProcs, nil
}

func (p *proc) pid() int { return p.cmd.Process.Pid }

// kill kills the process and waits for it.
func (p *proc) kill() {
	_ = p.cmd.Process.Kill()
	<-p.done
}

// stop interrupts the process and waits for it (killing it after 10s).
func (p *proc) stop() {
	select {
	case <-p.done:
		return
	default:
	}
	_ = p.cmd.Process.Signal(syscall.SIGINT)
	select {
	case <-p.done:
	case <-time.After(10 * time.Second):
		_ = p.cmd.Process.Kill()
		<-p.done
	}
}

// rss is a process's resident set: all of it, and how much of it is
// anonymous memory (heaps) and file pages (the mapped binary).
type rss struct{ total, anon, file float64 }

// readRSS reads the resident set of a process, in MiB.
func readRSS(pid int) (rss, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return rss{}, err
	}
	return statusRSS(pid, string(b))
}

// statusRSS reads VmRSS, RssAnon and RssFile of a /proc/PID/status text, in MiB.
func statusRSS(pid int, status string) (rss, error) {
	var r rss
	found := false
	for _, line := range strings.Split(status, "\n") {
		for key, dst := range map[string]*float64{"VmRSS:": &r.total, "RssAnon:": &r.anon, "RssFile:": &r.file} {
			if rest, ok := strings.CutPrefix(line, key); ok {
				kb, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
				if err != nil {
					return rss{}, err
				}
				*dst, found = kb/1024, found || key == "VmRSS:"
			}
		}
	}
	if !found {
		return rss{}, fmt.Errorf("no VmRSS in /proc/%d/status", pid)
	}
	return r, nil
}
