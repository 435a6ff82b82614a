package mutate

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/tools/go/packages"
)

// Scope is one row of the scope table (internal/mutate/scope.json): the files of
// one package to mutate and the tests that may kill their mutants.
type Scope struct {
	Name   string   `json:"name"`   // for the report
	Module string   `json:"module"` // module directory, relative to the workspace root
	Dirs   []string `json:"dirs"`   // candidate package directories inside the module; the first that exists is used
	Files  []string `json:"files"`  // file names or patterns (checks_*.go) inside that directory; tests and generated files never match
	Tests  []string `json:"tests"`  // packages whose tests run against a mutant, relative to the module ("." = its root; "{pkg}" = the mutated package wherever it resolved)
	Run    string   `json:"run"`    // -run selection ("" = every test of those packages)
	Skip   string   `json:"skip"`   // -skip selection (slow tests that measure nothing of these files)
	Env    []string `json:"env"`    // extra environment for the tests
	Split  *Split   `json:"split"`  // one test run once per value of a variable
	Note   string   `json:"note"`   // why the row is as it is (a refactor it waits for, ...)
}

// Split runs one top-level test once per value of an environment variable, each
// run a unit of its own with its own coverage: the conformance self-test once per
// check, so a mutant of one check waits only for that check.
type Split struct {
	Test   string   `json:"test"`   // the top-level test (several: A|B, each split)
	Env    string   `json:"env"`    // the variable
	Values []string `json:"values"` // its values
	// ValuesFrom is a command (run at the workspace root) that prints the values,
	// the first field of each line, when Values is empty.
	ValuesFrom []string `json:"valuesFrom"`
	// Join, when the variable also takes a list of values ("," for the
	// self-test's check ids), lets a mutant's units past those run alone share
	// one process: the batch's values joined, its tests all run for each. A
	// process costs more to start than one check costs to run (docs/mutation.md).
	Join string `json:"join"`
}

// Status is a mutant's outcome.
type Status string

// The outcomes. A mutant that does not type-check is not viable: no test had to
// kill it. Only a test that fails with a `--- FAIL` line kills a mutant: a run
// that panics or exits without one crashed, and a run that does not end in its
// time (twice, the second time alone) timed out; neither counts as killed.
const (
	Killed     Status = "killed"
	Lived      Status = "lived"
	TimedOut   Status = "timeout"
	Crashed    Status = "crash"
	NotCovered Status = "not covered"
	NotViable  Status = "not viable"
	NotRun     Status = "not run"    // the run stopped (deadline or interrupt) before the mutant
	Equivalent Status = "equivalent" // marked equivalent (Equivalents): not run, counted as lived
)

// Result is one mutant's outcome.
type Result struct {
	Mutant
	Status Status
	Detail string // first lines of the failure, for lived mutants the test command
	Mark   string // how internal/mutate/equivalent.tsv marks it: the killers' key@function digest ("" outside a function)
	Cost          // where its time went
}

// Cost is where one mutant's time went: building its test binaries and running
// Ran of the Of tests that execute its position.
type Cost struct {
	Build, Test time.Duration
	Ran, Of     int
}

// DefaultGrace is added to three times a run's tests' unmutated time before it
// times out: a hanging mutant costs that twice (it runs again alone), and every
// test of the scope ends in seconds or fails at a deadline of its own.
const DefaultGrace = 10 * time.Second

// Options for a run.
type Options struct {
	Root    string // the workspace root
	Workers int
	Log     func(format string, args ...any)
	Trace   bool          // log every mutant's outcome and Cost
	Grace   time.Duration // added to three times a mutant's tests' unmutated time before it times out (0: DefaultGrace)
	Shared  *Shared       // the baseline the rows of one run share (nil: each row measures its own)
	// Equivalents are the mutants judged equivalent, which the run does not
	// run again (nil: every mutant runs)
	Equivalents *Equivalents
	Sample      Sampling // which viable mutants run ("" = every one)
	Slots       *Slots   // the run's pool when rows run side by side (nil: each row's Workers are the limit)
	Killers     *Killers // the last runs' killers, each mutant's tried first, and this run's recorded (nil: cost order only)
}

// ResolveDir returns the first existing candidate directory of s.
func (s Scope) ResolveDir(root string) (string, error) {
	for _, d := range s.Dirs {
		p := filepath.Join(root, s.Module, d)
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s: none of %v exists under %s (update the scope table in mage_mutate.go)", s.Name, s.Dirs, filepath.Join(root, s.Module))
}

// row is a scope row made ready for its tests: its files resolved, its
// mutants found and type-checked, and (with a shared run) its schema written.
type row struct {
	s        Scope // Files, Tests and Split resolved
	dir      string
	modDir   string
	pkg      string
	mutants  []Mutant
	keys     []string // each mutant's name in the killers' record (killerKeys)
	types    *packages.Package
	refusals []error
	viable   []bool
	run      []bool // viable and chosen by the run's Sampling
	nv, ns   int    // not viable, not sampled
	checked  time.Duration
	sch      *schema // the row's schema, written by Shared.Prepare (nil: written by the row)
	schErr   error
}

// prepareRow resolves s and finds and type-checks its mutants.
func prepareRow(ctx context.Context, o Options, s Scope) (*row, error) {
	dir, files, err := s.ResolveFiles(o.Root)
	if err != nil {
		return nil, err
	}
	s.Files = files
	if s.Split != nil {
		vs, err := s.Split.values(o.Root)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.Name, err)
		}
		sp := *s.Split
		sp.Values = vs
		s.Split = &sp
	}
	r := &row{dir: dir, modDir: filepath.Join(o.Root, s.Module)}
	for _, f := range s.Files {
		ms, err := Find(filepath.Join(dir, f))
		if err != nil {
			return nil, fmt.Errorf("%s: %w (update the scope table in mage_mutate.go)", s.Name, err)
		}
		r.mutants = append(r.mutants, ms...)
	}
	r.keys = killerKeys(o.Root, r.mutants)
	if r.pkg, err = importPath(r.modDir, dir); err != nil {
		return nil, err
	}
	tests := make([]string, len(s.Tests))
	for i, t := range s.Tests {
		tests[i] = strings.ReplaceAll(t, "{pkg}", r.pkg)
	}
	s.Tests = tests
	r.s = s
	start := time.Now()
	if r.types, err = loadPackage(ctx, r.modDir, r.pkg); err != nil {
		return nil, fmt.Errorf("%s: %w", s.Name, err)
	}
	r.refusals = newChecker(r.types).viability(r.mutants, o.Workers)
	r.viable = make([]bool, len(r.mutants))
	for i, e := range r.refusals {
		r.viable[i] = e == nil
		if e != nil {
			r.nv++
		}
	}
	r.run = chooseMutants(o.Sample, r.mutants, r.viable)
	for i := range r.mutants {
		if r.viable[i] && !r.run[i] {
			r.ns++
		}
	}
	r.checked = time.Since(start)
	return r, nil
}

// RunScope mutates the files of one scope row and returns every mutant's result.
func RunScope(ctx context.Context, o Options, s Scope) ([]Result, error) {
	r := o.Shared.prepared(s.Name)
	if r == nil {
		var err error
		if r, err = prepareRow(ctx, o, s); err != nil {
			return nil, err
		}
	}
	s, dir, modDir, pkg, mutants, keys, viable, refusals, nv := r.s, r.dir, r.modDir, r.pkg, r.mutants, r.keys, r.viable, r.refusals, r.nv
	work, err := os.MkdirTemp("", "takokit-mutate-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(work)
	start := time.Now()
	p, err := baseline(ctx, o, s, modDir, pkg, work)
	if err != nil {
		return nil, fmt.Errorf("%s: the unmutated tests must pass first: %w", s.Name, err)
	}
	p.grace = o.Grace
	p.killers = o.Killers
	if p.grace <= 0 {
		p.grace = DefaultGrace
	}
	var all time.Duration // the units' own run time, without waiting for a slot
	for _, u := range p.units {
		all += u.dur
	}
	each := fmt.Sprintf("%d tests, each alone, %s in all", len(p.units), all.Round(time.Second))
	if p.whole {
		each = "whole selection"
	}
	sampled := ""
	if r.ns > 0 {
		sampled = fmt.Sprintf(", %d viable ones not sampled", r.ns)
	}
	o.Log("%s: %d mutants (%d do not type-check%s, %s) in %s (%s), tests %v -run %q (%s); baseline %s", s.Name, len(mutants), nv, sampled, r.checked.Round(time.Millisecond), rel(o.Root, dir), strings.Join(s.Files, ", "), s.Tests, s.Run, each, time.Since(start).Round(time.Second))
	start = time.Now()
	if err := p.useSchema(ctx, o, r, filepath.Join(work, "schema")); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		o.Log("  schema: none, every mutant is built on its own: %v", err)
	} else {
		o.Log("  schema: %d of %d mutants to run in one build per test package%s (%s)", len(p.schema.ids), len(mutants)-nv-r.ns, p.schema.sharedNote, time.Since(start).Round(time.Second))
	}

	results := make([]Result, len(mutants))
	chosen := r.run
	run := func(w, i int, alone bool) {
		m := mutants[i]
		r := Result{Mutant: m}
		if m.Decl != "" {
			r.Mark = equivalentKey(keys[i], m)
		}
		switch {
		case !viable[i]:
			r.Status, r.Detail = NotViable, refusals[i].Error()
		case !chosen[i]:
			r.Status = NotSampled
		case o.Equivalents.marked(keys[i], m):
			r.Status, r.Detail = Equivalent, "marked in "+EquivalentsFile
		default:
			give := o.Slots.take(ctx, alone)
			r.Status, r.Detail = p.runMutant(ctx, s, modDir, filepath.Join(work, strconv.Itoa(w)), i, m, keys[i], &r.Cost)
			give()
			if r.Status != Killed && ctx.Err() == nil { // a run cut by the deadline or an interrupt learned nothing
				o.Killers.set(keys[i], nil) // nothing killed it: the next run keeps the cost order
			}
		}
		results[i] = r
		switch r.Status {
		case Lived, Crashed:
			o.Log("  %s: %s:%d:%d %s %q -> %q: %s", r.Status, rel(o.Root, m.File), m.Line, m.Col, m.Kind, Short(m.Old), m.New, r.Detail)
		case TimedOut:
			o.Log("  timed out (re-run alone at the end of the row): %s:%d:%d %s %q -> %q: %s", rel(o.Root, m.File), m.Line, m.Col, m.Kind, Short(m.Old), m.New, r.Detail)
		}
		if o.Trace {
			by := ""
			if r.Status == Killed {
				by = " by " + Short(r.Detail) // the failing test: which test kills what orders the next mutants' tests
			}
			o.Log("  %s:%d:%d %s: %s%s; build %s, %d of %d tests %s", rel(o.Root, m.File), m.Line, m.Col, m.Kind, r.Status, by,
				r.Build.Round(time.Millisecond), r.Ran, r.Of, r.Test.Round(time.Millisecond))
		}
	}
	jobs := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < max(1, o.Workers); w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := range jobs {
				run(w, i, false)
			}
		}(w)
	}
	for i := range mutants {
		if ctx.Err() != nil {
			break
		}
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	if ctx.Err() != nil { // the run's deadline or an interrupt: what did not finish is reported as not run
		for i := range results {
			if results[i].Status == "" || results[i].Status == TimedOut || results[i].Status == Crashed && strings.Contains(results[i].Detail, "interrupted") {
				results[i] = Result{Mutant: mutants[i], Status: NotRun}
			}
		}
		return results, nil
	}
	// a mutant that timed out beside others runs again alone: a loaded machine
	// is no verdict; if it times out alone too, it is reported as a timeout
	for i := range results {
		if results[i].Status == TimedOut && ctx.Err() == nil {
			o.Log("  re-running alone: %s:%d:%d %s", rel(o.Root, mutants[i].File), mutants[i].Line, mutants[i].Col, mutants[i].Kind)
			run(0, i, true)
		}
	}
	if ctx.Err() != nil {
		for i := range results {
			if results[i].Status == TimedOut {
				results[i] = Result{Mutant: mutants[i], Status: NotRun}
			}
		}
	}
	return results, nil
}

func rel(root, p string) string {
	if r, err := filepath.Rel(root, p); err == nil {
		return r
	}
	return p
}

func importPath(modDir, dir string) (string, error) {
	cmd := exec.Command("go", "list", ".")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go list in %s: %w", dir, err)
	}
	return strings.TrimSpace(string(out)), nil
}

// runMutant runs the tests that execute m's position against a viable mutant:
// not covered when none does, else through runUnits, with the schema's binaries
// when the schema holds m, else building them for m first.
func (p *plan) runMutant(ctx context.Context, s Scope, modDir, work string, i int, m Mutant, key string, c *Cost) (Status, string) {
	us, covered := p.unitsFor(m)
	if !covered {
		return NotCovered, ""
	}
	if id, ok := p.schema.holds(i); ok {
		return p.runUnits(ctx, s, m, key, us, p.schema.binary, []string{mutantEnv + "=" + strconv.Itoa(id), mutantPkgEnv + "=" + p.schema.pkg}, c)
	}
	overlay, err := writeOverlay(work, m)
	if err != nil {
		return Crashed, err.Error()
	}
	return p.runUnits(ctx, s, m, key, us, p.overlayBuilds(ctx, modDir, overlay, work), nil, c)
}

// writeOverlay writes the mutated file and an overlay replacing the original by it
// under work, and returns the overlay's path.
func writeOverlay(work string, m Mutant) (string, error) {
	if err := os.MkdirAll(work, 0o755); err != nil {
		return "", err
	}
	src, err := os.ReadFile(m.File)
	if err != nil {
		return "", err
	}
	mutated := filepath.Join(work, filepath.Base(m.File))
	if err := os.WriteFile(mutated, m.Apply(src), 0o644); err != nil {
		return "", err
	}
	overlay := filepath.Join(work, "overlay.json")
	b, _ := json.Marshal(map[string]any{"Replace": map[string]string{m.File: mutated}})
	return overlay, os.WriteFile(overlay, b, 0o644)
}

// buildCovered builds the test binary of package pkg at bin, counting coverage of the
// packages coverpkg names: what tells which tests execute a mutated position. Linked
// without DWARF (-ldflags=-w, as the mutants are): nothing debugs it, and DWARF is about
// a third of a link.
func buildCovered(ctx context.Context, modDir, pkg, coverpkg, bin string) ([]byte, error) {
	return goCmd(ctx, modDir, nil, 0, "test", "-c", "-vet=off", "-ldflags=-w", "-cover", "-coverpkg="+coverpkg, "-o", bin, pkg)
}

// goCmd runs the go command in dir (testCmd with the go binary).
func goCmd(ctx context.Context, dir string, env []string, timeout time.Duration, args ...string) ([]byte, error) {
	return testCmd(ctx, "go", dir, env, timeout, args...)
}

func firstLines(b []byte, n int) string {
	lines := strings.SplitN(strings.TrimSpace(string(b)), "\n", n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, " | ")
}

// failingTest names the first failing test of a go test output.
func failingTest(out []byte) string {
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); strings.HasPrefix(l, "--- FAIL: ") {
			return strings.TrimPrefix(l, "--- FAIL: ")
		}
	}
	return firstLines(out, 2)
}

func packageDir(modDir, pkg string) (string, error) {
	cmd := exec.Command("go", "list", "-f", "{{.Dir}}", pkg)
	cmd.Dir = modDir
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go list %s: %w", pkg, err)
	}
	return strings.TrimSpace(string(out)), nil
}
