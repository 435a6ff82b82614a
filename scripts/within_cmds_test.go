package scripts

import (
	"bytes"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// cmdWithin runs one program, or several separated by `--` at the same time, as
// exec would (their output becomes stdout/stderr, a non-zero exit fails), but
// bounded: whatever still runs once DURATION has passed is killed and the command
// fails, so a load scenario that stalls fails in bounded time instead of hanging.
func cmdWithin(ts *testscript.TestScript, args []string) error {
	if len(args) < 2 {
		return usageError("need DURATION PROGRAM [ARGS...] [-- PROGRAM [ARGS...]]...")
	}
	limit, err := time.ParseDuration(args[0])
	if err != nil || limit <= 0 {
		return usageError("DURATION must be a positive Go duration such as 90s")
	}
	var progs [][]string
	cur := []string{}
	for _, a := range args[1:] {
		if a == "--" {
			progs, cur = append(progs, cur), []string{}
			continue
		}
		cur = append(cur, a)
	}
	progs = append(progs, cur)
	type run struct {
		argv      []string
		cmd       *exec.Cmd
		out, errb bytes.Buffer
		done      chan error
		err       error
	}
	runs := make([]*run, len(progs))
	start := time.Now()
	for i, argv := range progs {
		if len(argv) == 0 {
			return usageError("an empty program between --")
		}
		path, err := scriptLookPath(ts, argv[0])
		if err != nil {
			return err
		}
		r := &run{argv: argv, cmd: exec.Command(path, argv[1:]...), done: make(chan error, 1)}
		r.cmd.Dir = ts.MkAbs(".")
		r.cmd.Env = environ(ts)
		r.cmd.Stdout, r.cmd.Stderr = &r.out, &r.errb
		if err := r.cmd.Start(); err != nil {
			return err
		}
		go func() { r.done <- r.cmd.Wait() }()
		runs[i] = r
	}
	deadline := time.After(limit)
	var late []string
	for _, r := range runs {
		select {
		case r.err = <-r.done:
		case <-deadline:
			deadline = closed // every later wait ends at once: the bound is over
			_ = r.cmd.Process.Kill()
			r.err = fmt.Errorf("killed: still running after %s", limit)
			<-r.done
			late = append(late, strings.Join(r.argv, " "))
		}
	}
	var failed []string
	for _, r := range runs {
		if len(runs) > 1 {
			fmt.Fprintf(ts.Stdout(), "== %s\n", strings.Join(r.argv, " "))
			fmt.Fprintf(ts.Stderr(), "== %s\n", strings.Join(r.argv, " "))
		}
		_, _ = ts.Stdout().Write(r.out.Bytes())
		_, _ = ts.Stderr().Write(r.errb.Bytes())
		if r.err != nil {
			failed = append(failed, fmt.Sprintf("%s: %v", strings.Join(r.argv, " "), r.err))
		}
	}
	ts.Logf("%d program(s) finished in %s (bound %s)", len(runs), time.Since(start).Round(time.Millisecond), limit)
	if len(late) > 0 {
		return fmt.Errorf("not finished within %s: %s", limit, strings.Join(late, "; "))
	}
	if len(failed) > 0 {
		return fmt.Errorf("%s", strings.Join(failed, "; "))
	}
	return nil
}

// closed is a channel that is always ready.
var closed = func() <-chan time.Time {
	c := make(chan time.Time)
	close(c)
	return c
}()
