// Package testrun runs the build's test jobs — `go test -json` in one module — a
// bounded number at a time, and prints the report of each job in one piece when it
// ends, so jobs that run side by side never interleave their output. The counts go
// into one testtally.Tally; the caller prints the closing line.
//
// Jobs run side by side because most of a test run waits: on OpenTofu and hostsim
// processes, on servers, on timeouts. On two cores one module's tests leave a core idle
// for much of their run (docs/decisions.md#test-time).
package testrun

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/takokit/takokit/internal/testtally"
)

// Job is one unit of a test run.
type Job struct {
	Name string   // what the job's closing line names: a module, "." (scripts), a step
	Dir  string   // where it runs
	Env  []string // added to the caller's environment
	// GoTest are the arguments of `go test -json -timeout 75m -ldflags=-w`: the job's
	// counts are the stream's (testtally.Consume), and a go command that fails with
	// no failed test in its stream is one failure named for the job.
	GoTest []string
	// SaveJSON, when set, is a file that receives the go test -json stream as it came
	// (per test and package timings, for finding what is slow).
	SaveJSON string
}

// GoTestFlags come before a job's GoTest arguments. -ldflags=-w links the test binaries
// without DWARF, which is a third of a link's time; a failing test's stack still names
// its files and lines, only a debugger would miss it (docs/decisions.md#test-time).
var GoTestFlags = []string{"test", "-json", "-timeout", "75m", "-ldflags=-w"}

// Line is how a job is shown when it starts: the command, reproducible by hand.
func (j Job) Line() string {
	args := append(append([]string{"go"}, GoTestFlags...), j.GoTest...)
	env := ""
	for _, kv := range j.Env {
		env += shortPath(kv) + " "
	}
	quoted := make([]string, len(args))
	for i, a := range args {
		quoted[i] = shellQuote(a)
	}
	return fmt.Sprintf("+ (cd %s && %s%s)", j.Dir, env, strings.Join(quoted, " "))
}

// shellQuote single-quotes an argument the shell would split or expand (a -skip
// pattern's |), so the start line runs as printed.
func shellQuote(a string) string {
	if a != "" && !strings.ContainsAny(a, " \t|&;<>()$*?[]'\"\\`{}~#!") {
		return a
	}
	return "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
}

// shortPath writes a PATH that only puts directories before the caller's as
// PATH=dir:$PATH.
func shortPath(kv string) string {
	path := os.Getenv("PATH")
	if v, ok := strings.CutPrefix(kv, "PATH="); ok && path != "" {
		if head, ok := strings.CutSuffix(v, string(os.PathListSeparator)+path); ok {
			return "PATH=" + head + string(os.PathListSeparator) + "$PATH"
		}
	}
	return kv
}

// Run runs the jobs, at most n at a time (n < 1 counts as 1), starting them in the
// order given: put the longest first. Each job's start line is written when it starts
// and its report in one piece when it ends. It returns the sum of the jobs' counts.
func Run(jobs []Job, n int, w io.Writer) testtally.Tally {
	if n < 1 {
		n = 1
	}
	var (
		mu    sync.Mutex
		total testtally.Tally
		wg    sync.WaitGroup
		slots = make(chan struct{}, n)
	)
	for _, j := range jobs {
		slots <- struct{}{}
		mu.Lock()
		fmt.Fprintln(w, j.Line())
		mu.Unlock()
		wg.Add(1)
		go func() {
			defer func() { <-slots; wg.Done() }()
			var report bytes.Buffer
			t := j.run(&report)
			mu.Lock()
			defer mu.Unlock()
			w.Write(report.Bytes())
			total.Add(t)
		}()
	}
	wg.Wait()
	return total
}

// run runs one job, writing its report to w.
func (j Job) run(w io.Writer) testtally.Tally {
	start := time.Now()
	var t testtally.Tally
	cmd := exec.Command("go", append(append([]string(nil), GoTestFlags...), j.GoTest...)...)
	cmd.Dir = j.Dir
	cmd.Env = append(os.Environ(), j.Env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err == nil {
		err = cmd.Start()
	}
	if err != nil {
		t.Fail("go test in " + j.Dir + ": " + err.Error())
		fmt.Fprintln(w, testtally.ModuleLine(j.Name, t, time.Since(start)))
		return t
	}
	var stream io.Reader = out
	if j.SaveJSON != "" {
		if f, err := os.Create(j.SaveJSON); err != nil {
			fmt.Fprintf(w, "saving the go test stream: %v\n", err)
		} else {
			defer f.Close()
			stream = io.TeeReader(out, f)
		}
	}
	t = testtally.Consume(stream, w)
	waitErr := cmd.Wait()
	w.Write(stderr.Bytes())
	if waitErr != nil && t.Failed == 0 {
		fmt.Fprintf(w, "go test in %s: %v\n", j.Dir, waitErr)
		t.Fail("module " + j.Name + " (go test: " + waitErr.Error() + ")")
	}
	fmt.Fprintln(w, testtally.ModuleLine(j.Name, t, time.Since(start)))
	return t
}
