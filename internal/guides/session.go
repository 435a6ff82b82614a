package guides

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"
)

// Session is one guide's terminal: each command block runs in bash, starting from the
// exported variables and the working directory the block before it left, as in the shell a
// reader types the guide into. A block runs under `set -e -o pipefail`, so every command in
// it must succeed.
type Session struct {
	Root    string        // the directory the guide starts in (a copy of the repository)
	Timeout time.Duration // how long one foreground block may take
	state   string        // holds env (export -p) and cwd between blocks
	bg      *background
}

// NewSession starts a session in root with the environment env; state is a directory of its own.
func NewSession(root, state string, env []string) (*Session, error) {
	var b strings.Builder
	sort.Strings(env)
	for _, kv := range env {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" || strings.ContainsAny(k, " ;'\"$") {
			continue
		}
		fmt.Fprintf(&b, "export %s=%s\n", k, shellQuote(v))
	}
	if err := os.WriteFile(filepath.Join(state, "env"), []byte(b.String()), 0o600); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(state, "cwd"), []byte(root), 0o600); err != nil {
		return nil, err
	}
	return &Session{Root: root, Timeout: 2 * time.Minute, state: state}, nil
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// script wraps a block's commands: restore the state, run them, save the state (foreground).
func (s *Session) script(body string, save bool) string {
	env, cwd := shellQuote(filepath.Join(s.state, "env")), shellQuote(filepath.Join(s.state, "cwd"))
	var b strings.Builder
	fmt.Fprintf(&b, "cd \"$(< %s)\" || exit 125\n. %s || exit 125\n", cwd, env)
	if save {
		fmt.Fprintf(&b, "trap '__rc=$?; export -p > %s; pwd > %s; exit $__rc' EXIT\n",
			strings.ReplaceAll(env, "'", `'\''`), strings.ReplaceAll(cwd, "'", `'\''`))
	}
	b.WriteString("set -e -o pipefail\n")
	b.WriteString(body)
	return b.String()
}

// command is bash running the script with an empty environment: the script restores it.
func (s *Session) command(ctx context.Context, script string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "/bin/bash", "-c", script)
	cmd.Env = []string{}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	return cmd
}

// Run runs a foreground command block with input on standard input and returns its output
// (standard output and error interleaved). The block must end with status exit.
func (s *Session) Run(body, input string, exit int) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), s.Timeout)
	defer cancel()
	cmd := s.command(ctx, s.script(body, true))
	cmd.Stdin = strings.NewReader(input)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // nothing a block started outlives it
	}
	if ctx.Err() != nil {
		return out.String(), fmt.Errorf("the block did not finish within %v (a server? mark it <!-- guide: background until \"TEXT\" -->)", s.Timeout)
	}
	status := 0
	var exitErr *exec.ExitError
	if errors.As(err, &exitErr) {
		status = exitErr.ExitCode()
	} else if err != nil {
		return out.String(), err
	}
	if status == 125 {
		return out.String(), fmt.Errorf("the session's state could not be restored (status 125)")
	}
	if status != exit {
		return out.String(), fmt.Errorf("exit status %d, the guide expects %d", status, exit)
	}
	return out.String(), nil
}

// background is a block left running, as a server in another terminal.
type background struct {
	cmd  *exec.Cmd
	log  string
	done chan struct{}
}

// Start runs a command block in the background and waits until its output shows ready. A
// block already running in the background is stopped first, as a reader presses Ctrl-C in
// the terminal before starting another host there.
func (s *Session) Start(body, ready string) (string, error) {
	s.Stop()
	logf, err := os.CreateTemp(s.state, "background-*.log")
	if err != nil {
		return "", err
	}
	cmd := s.command(context.Background(), s.script(body, false))
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		logf.Close()
		return "", err
	}
	bg := &background{cmd: cmd, log: logf.Name(), done: make(chan struct{})}
	go func() { _ = cmd.Wait(); logf.Close(); close(bg.done) }()
	s.bg = bg
	deadline := time.After(30 * time.Second)
	for {
		out := bg.output()
		if strings.Contains(ansi.ReplaceAllString(out, ""), ready) {
			return out, nil
		}
		select {
		case <-bg.done:
			return bg.output(), fmt.Errorf("the background block ended (%v) before its output showed %q", cmd.ProcessState, ready)
		case <-deadline:
			return bg.output(), fmt.Errorf("the background block's output did not show %q within 30s", ready)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

func (bg *background) output() string {
	b, _ := os.ReadFile(bg.log)
	return string(b)
}

// BackgroundOutput is what the block running in the background printed so far.
func (s *Session) BackgroundOutput() string {
	if s.bg == nil {
		return ""
	}
	return s.bg.output()
}

// Stop interrupts the block running in the background (SIGINT, as Ctrl-C does) and kills
// what is left of it after 10 seconds.
func (s *Session) Stop() {
	bg := s.bg
	if bg == nil {
		return
	}
	s.bg = nil
	pid := bg.cmd.Process.Pid
	_ = syscall.Kill(-pid, syscall.SIGINT)
	select {
	case <-bg.done:
	case <-time.After(10 * time.Second):
	}
	_ = syscall.Kill(-pid, syscall.SIGKILL)
	<-bg.done
}
