// Package testtally reads `go test -json` streams and prints the build's test report:
// the output of what failed, one line per module, and a closing line that is exactly
// `tests: N passed, N failed, N skipped`.
//
// The report deliberately does not look like `go test`'s own output (no `ok pkg`,
// no `? pkg [no test files]` lines): a reader of CI logs that recognises go test's
// closing lines would otherwise take the last package line for the run's result.
// A package that fails without a failing test (it did not build, its TestMain or
// init panicked) counts as one failed test, so a broken module can never close
// with "0 failed".
package testtally

import (
	"bufio"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"time"
)

// Tally counts test results.
type Tally struct {
	Passed, Failed, Skipped int
	FailedNames             []string // package.Test, package (for a package failure) or a named step
	Ran                     []Ran    // the packages whose tests ran, not reused from go test's cache
	Reused                  int      // packages whose result go test's cache gave back
}

// Ran is a package whose tests ran, and for how long.
type Ran struct {
	Package string
	Elapsed time.Duration
}

// Add adds o into t.
func (t *Tally) Add(o Tally) {
	t.Passed += o.Passed
	t.Failed += o.Failed
	t.Skipped += o.Skipped
	t.FailedNames = append(t.FailedNames, o.FailedNames...)
	t.Ran = append(t.Ran, o.Ran...)
	t.Reused += o.Reused
}

// Fail records one failed step that is not a Go test (a build, the conformance self-test).
func (t *Tally) Fail(name string) {
	t.Failed++
	t.FailedNames = append(t.FailedNames, name)
}

// Line is the closing line: exactly `tests: N passed, N failed, N skipped`.
func (t Tally) Line() string {
	return fmt.Sprintf("tests: %d passed, %d failed, %d skipped", t.Passed, t.Failed, t.Skipped)
}

// Counts is the per-module line's count part; worded so it never reads as a closing line.
func (t Tally) Counts() string {
	return fmt.Sprintf("%d pass / %d fail / %d skip", t.Passed, t.Failed, t.Skipped)
}

// PrintSummary writes the names of what failed, then the closing line, last.
func PrintSummary(w io.Writer, t Tally) {
	names := append([]string(nil), t.FailedNames...)
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintln(w, "failed:", n)
	}
	fmt.Fprintln(w, t.Line())
}

// event is one line of `go test -json` (test2json), build events included.
type event struct {
	Action      string
	Package     string
	ImportPath  string // build-output / build-fail events
	Test        string
	Output      string
	Elapsed     float64
	FailedBuild string
}

// Consume reads one `go test -json` stream and writes the output of every failed test
// and failed package to w. Lines that are not JSON (the go command's own errors) are
// copied through. It returns the counts of the stream.
func Consume(r io.Reader, w io.Writer) Tally {
	c := consumer{w: w, outputs: map[string]*strings.Builder{}, build: map[string]*strings.Builder{},
		failedIn: map[string]bool{}, cached: map[string]bool{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var ev event
		line := sc.Bytes()
		if len(line) == 0 || line[0] != '{' || json.Unmarshal(line, &ev) != nil {
			fmt.Fprintln(w, sc.Text())
			continue
		}
		c.event(ev)
	}
	if err := sc.Err(); err != nil {
		c.t.Fail("reading go test output: " + err.Error())
	}
	return c.t
}

type consumer struct {
	w        io.Writer
	t        Tally
	outputs  map[string]*strings.Builder // package+test -> output
	build    map[string]*strings.Builder // import path -> build output
	failedIn map[string]bool             // packages with a failed test
	cached   map[string]bool             // packages whose result line said (cached)
}

func (c *consumer) event(ev event) {
	switch ev.Action {
	case "build-output":
		appendTo(c.build, ev.ImportPath, ev.Output)
	case "output":
		appendTo(c.outputs, ev.Package+" "+ev.Test, ev.Output)
		if ev.Test == "" && strings.HasPrefix(ev.Output, "ok  \t") && strings.HasSuffix(strings.TrimRight(ev.Output, "\n"), "\t(cached)") {
			c.cached[ev.Package] = true
		}
	case "pass", "skip":
		switch {
		case ev.Test == "" && ev.Action == "pass":
			c.packageEnded(ev)
		case ev.Test == "": // a package without test files
		case ev.Action == "pass":
			c.t.Passed++
		default:
			c.t.Skipped++
		}
		delete(c.outputs, ev.Package+" "+ev.Test)
	case "fail":
		key := ev.Package + " " + ev.Test
		if ev.Test != "" {
			c.t.Fail(ev.Package + "." + ev.Test)
			c.failedIn[ev.Package] = true
			printOutput(c.w, c.outputs[key])
			delete(c.outputs, key)
			return
		}
		c.packageEnded(ev)
		c.packageFailed(ev)
		delete(c.outputs, key)
	}
}

// packageEnded counts a package whose tests ended as run or as reused; a package
// without test files (its "skip") is neither.
func (c *consumer) packageEnded(ev event) {
	if c.cached[ev.Package] {
		c.t.Reused++
		return
	}
	c.t.Ran = append(c.t.Ran, Ran{ev.Package, time.Duration(ev.Elapsed * float64(time.Second))})
}

// packageFailed handles a package-level fail. When one of its tests failed, that test
// was counted and printed already; otherwise the package itself failed (build, setup,
// TestMain, a panic outside a test, a timeout) and counts as one failure.
func (c *consumer) packageFailed(ev event) {
	if c.failedIn[ev.Package] {
		return
	}
	what := "did not pass"
	if ev.FailedBuild != "" {
		what = "did not build"
	}
	fmt.Fprintf(c.w, "package %s %s:\n", ev.Package, what)
	for _, ip := range buildKeys(c.build, ev.FailedBuild) {
		printOutput(c.w, c.build[ip])
	}
	printOutput(c.w, c.outputs[ev.Package+" "])
	c.t.Fail(ev.Package + " (" + what + ")")
}

// buildKeys is the build output to print for a failed build: the failing import path's,
// else every build output seen (a dependency may be what broke).
func buildKeys(build map[string]*strings.Builder, failed string) []string {
	if failed == "" {
		return nil
	}
	if _, ok := build[failed]; ok {
		return []string{failed}
	}
	keys := make([]string, 0, len(build))
	for k := range build {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func appendTo(m map[string]*strings.Builder, key, s string) {
	b := m[key]
	if b == nil {
		b = &strings.Builder{}
		m[key] = b
	}
	b.WriteString(s)
}

// printOutput copies captured output, leaving out go test's per-package result lines
// ("ok  pkg", "FAIL pkg", "? pkg [no test files]", bare PASS/FAIL) so nothing in the
// report reads as a package result.
func printOutput(w io.Writer, b *strings.Builder) {
	if b == nil {
		return
	}
	for _, line := range strings.SplitAfter(b.String(), "\n") {
		if line == "" || packageResultLine(strings.TrimRight(line, "\n")) {
			continue
		}
		io.WriteString(w, line)
		if !strings.HasSuffix(line, "\n") {
			io.WriteString(w, "\n")
		}
	}
}

func packageResultLine(s string) bool {
	switch {
	case s == "PASS", s == "FAIL":
		return true
	case strings.HasPrefix(s, "ok  \t"), strings.HasPrefix(s, "FAIL\t"), strings.HasPrefix(s, "?   \t"):
		return true
	}
	return false
}

// ModuleLine is the one line printed per module after its stream: worded so that it
// never reads as a go test package line nor as the closing line. It says which packages
// ran (the slowest three by name) and how many go test's cache gave back, so a run that
// takes longer than it should says what it ran (docs/decisions.md#test-cache).
func ModuleLine(module string, t Tally, d time.Duration) string {
	return fmt.Sprintf("module %s: %s (%s%s)", module, t.Counts(), d.Round(100*time.Millisecond), t.packages())
}

// shownRan is how many of the packages that ran a module line names.
const shownRan = 3

// packages is the module line's account of its packages: "; 2 ran: a 54.2s, b 5.5s;
// 1 reused", or "; all 3 packages reused". Empty when the stream held no package.
func (t Tally) packages() string {
	switch {
	case len(t.Ran) == 0 && t.Reused == 0:
		return ""
	case len(t.Ran) == 0:
		return fmt.Sprintf("; all %d packages reused", t.Reused)
	}
	ran := slices.Clone(t.Ran)
	slices.SortStableFunc(ran, func(a, b Ran) int { return cmp.Compare(b.Elapsed, a.Elapsed) })
	var names []string
	for _, r := range ran[:min(len(ran), shownRan)] {
		names = append(names, fmt.Sprintf("%s %s", shortPackage(r.Package), r.Elapsed.Round(100*time.Millisecond)))
	}
	if len(ran) > shownRan {
		names = append(names, fmt.Sprintf("%d more", len(ran)-shownRan))
	}
	return fmt.Sprintf("; %d ran: %s; %d reused", len(ran), strings.Join(names, ", "), t.Reused)
}

// shortPackage drops the module path's host and owner: takokit/conformance/selftest.
func shortPackage(p string) string {
	if parts := strings.SplitN(p, "/", 3); len(parts) == 3 && strings.Contains(parts[0], ".") {
		return parts[2]
	}
	return p
}
