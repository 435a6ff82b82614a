package mutate

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// A row's tests are measured once, unmutated, one top-level test at a time: each
// test's coverage says which mutants it can kill, and its run time orders them. A
// mutant then runs only the tests that execute its position, fastest first, each
// alone, and stops at the first that fails. When some test fails alone (it leans on
// one run before it), the row falls back to one unit per test package: the row's
// whole selection, as one run.

// testPkg is one test package of a row.
type testPkg struct {
	path string // as given to go test ("." or an import path)
	dir  string // where its test binary runs
}

// unit is what a mutant's test binary runs at once: one top-level test, or the
// row's whole selection of one package.
type unit struct {
	id    int      // index into plan.units
	pkg   int      // index into plan.pkgs
	name  string   // the test; "" for the whole selection
	env   []string // a split's value (NAME=value), added to the row's environment
	dur   time.Duration
	cover coverMap
}

// pattern is the -test.run pattern of u.
func (u unit) pattern(s Scope) string {
	if u.name == "" {
		return s.Run
	}
	return "^" + regexp.QuoteMeta(u.name) + "$"
}

// plan is a row's measured baseline.
type plan struct {
	pkgs  []testPkg
	units []unit
	whole bool // one unit per package: some test failed alone

	schema  *schema       // nil: every mutant is built on its own
	killers *Killers      // the last runs' killers, tried first (nil: none)
	grace   time.Duration // a mutant's tests get three times their time plus this

	mu    sync.Mutex
	kills map[int]int             // by unit id: mutants of this row the unit killed so far
	near  map[funcKey]map[int]int // by Mutant.funcKey, then unit id: mutants of that function the unit killed
}

// baseline builds each test package once with coverage of the mutated package,
// lists its selected tests and runs each alone (Workers at a time). Every test
// must pass alone, else the row runs whole selections, which must pass.
func baseline(ctx context.Context, o Options, s Scope, modDir, pkg, work string) (*plan, error) {
	dir := filepath.Join(work, "baseline")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	pkgDir, err := packageDir(modDir, pkg)
	if err != nil {
		return nil, err
	}
	p := &plan{}
	var bins []string
	coverpkg := o.Shared.coverFor(s, pkg)
	for i, t := range s.Tests {
		bin := filepath.Join(dir, strconv.Itoa(i)+".test")
		var out []byte
		if o.Shared != nil {
			bin, out, err = o.Shared.testBinary(ctx, s, modDir, t, coverpkg)
		} else {
			out, err = buildCovered(ctx, modDir, t, coverpkg, bin)
		}
		if err != nil {
			return nil, fmt.Errorf("go test -c %s: %v\n%s", t, err, firstLines(out, 20))
		}
		if _, err := os.Stat(bin); err != nil {
			continue // no test files
		}
		d, err := packageDir(modDir, t)
		if err != nil {
			return nil, err
		}
		p.pkgs = append(p.pkgs, testPkg{path: t, dir: d})
		bins = append(bins, bin)
	}
	var us []unit
	var split []string // the tests a split runs once per value
	if s.Split != nil {
		split = strings.Split(s.Split.Test, "|")
	}
	for i, tp := range p.pkgs {
		names, err := listTests(ctx, bins[i], tp.dir, s)
		if err != nil {
			return nil, err
		}
		for _, n := range names {
			if !slices.Contains(split, n) {
				us = append(us, unit{pkg: i, name: n})
				continue
			}
			for _, v := range s.Split.Values {
				us = append(us, unit{pkg: i, name: n, env: []string{s.Split.Env + "=" + v}})
			}
		}
	}
	failed := p.measure(ctx, o, s, pkg, us, bins, pkgDir, dir)
	if len(failed) > 0 {
		o.Log("%s: %s fail(s) alone, so every mutant runs the row's whole selection", s.Name, strings.Join(failed, ", "))
		us = us[:0]
		for i := range p.pkgs {
			us = append(us, unit{pkg: i})
		}
		p.whole = true
		if failed := p.measure(ctx, o, s, pkg, us, bins, pkgDir, dir); len(failed) > 0 {
			return nil, fmt.Errorf("%s", strings.Join(failed, "; "))
		}
	}
	for i := range us {
		us[i].id = i
	}
	p.units = us
	p.kills = map[int]int{}
	p.near = map[funcKey]map[int]int{}
	return p, nil
}

// listTests lists the top-level tests, fuzz targets and examples of a test binary
// that the row's -run selects (benchmarks do not run under go test).
func listTests(ctx context.Context, bin, dir string, s Scope) ([]string, error) {
	run := s.Run
	if run == "" {
		run = "."
	}
	// -test.run too: -test.list ignores it, but a TestMain that checks something
	// after a run without a filter (hostsim's: every fault fired) must not
	// check after a listing
	out, err := testCmd(ctx, bin, dir, s.Env, 0, "-test.run", run, "-test.list", run)
	if err != nil {
		return nil, fmt.Errorf("%s -test.list %q: %v\n%s", bin, run, err, firstLines(out, 10))
	}
	var names []string
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for sc.Scan() {
		n := strings.TrimSpace(sc.Text())
		if n != "" && !strings.HasPrefix(n, "Benchmark") && !strings.Contains(n, " ") {
			names = append(names, n)
		}
	}
	return names, nil
}

// measure runs every unit alone with coverage, filling in its time and coverage,
// and returns a line for each unit that failed. With a shared baseline, a unit
// another row ran with the same binary, pattern, skip and environment is not
// run again: its profile is read for this row's files.
func (p *plan) measure(ctx context.Context, o Options, s Scope, pkg string, us []unit, bins []string, pkgDir, dir string) []string {
	var mu sync.Mutex
	var failed []string
	jobs := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < max(1, o.Workers); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				u := &us[i]
				tp := p.pkgs[u.pkg]
				env := append(slices.Clip(s.Env), u.env...)
				run := func(prof string) (time.Duration, []byte, error) {
					args := append(runArgs(s, u.pattern(s)), "-test.coverprofile="+prof)
					give := o.Slots.take(ctx, false)
					defer give()
					start := time.Now()
					out, err := testCmd(ctx, bins[u.pkg], tp.dir, env, 0, args...)
					return time.Since(start), out, err
				}
				var out []byte
				var err error
				prof := filepath.Join(dir, fmt.Sprintf("cover-%d.out", i))
				if o.Shared != nil {
					key := strings.Join(append([]string{bins[u.pkg], tp.dir, u.pattern(s), s.Skip}, env...), "\x00")
					u.dur, prof, out, err = o.Shared.unit(key, run)
				} else {
					u.dur, out, err = run(prof)
				}
				if err == nil {
					u.cover, err = readProfile(prof, pkg, pkgDir, s.Files)
				}
				if err != nil {
					mu.Lock()
					failed = append(failed, fmt.Sprintf("%s %s %v (%v: %s)", tp.path, u.pattern(s), u.env, err, failingTest(out)))
					mu.Unlock()
				}
			}
		}()
	}
	for i := range us {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	slices.Sort(failed)
	return failed
}

// runArgs are the test binary flags of one unit.
func runArgs(s Scope, run string) []string {
	args := []string{"-test.paniconexit0"}
	if run != "" {
		args = append(args, "-test.run", run)
	}
	if s.Skip != "" {
		args = append(args, "-test.skip", s.Skip)
	}
	return args
}

// unitsFor returns the units that execute m's position, cheapest first; covered is
// false when m lies only in blocks none of them ran. A position outside every
// block whose anchors are too gets every unit. A unit's cost is its run time
// divided by one plus the mutants of the row it has killed plus nearWeight times
// those of m's own function: the neighbours of a mutant (the same condition, the
// same function) mostly fall to the same test, and a check's helper every test
// executes falls to the one test that asserts its rule, not to the row's
// busiest killer.
func (p *plan) unitsFor(m Mutant) (us []unit, covered bool) {
	inBlock := false
	for _, u := range p.units {
		ran, in := u.cover.at(m)
		if ran {
			us = append(us, u)
		}
		inBlock = inBlock || in
	}
	if len(us) == 0 && !inBlock {
		us = slices.Clone(p.units)
	}
	p.mu.Lock()
	near := p.near[m.funcKey()]
	cost := func(u unit) time.Duration {
		return u.dur / time.Duration(1+p.kills[u.id]+nearWeight*near[u.id])
	}
	slices.SortStableFunc(us, func(a, b unit) int { return int(cost(a) - cost(b)) })
	p.mu.Unlock()
	return us, len(us) > 0
}

// nearWeight: a kill of a mutant of the same function counts this many of the
// row's kills elsewhere.
const nearWeight = 10

// killed records that unit id killed m.
func (p *plan) killed(m Mutant, id int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.kills[id]++
	k := m.funcKey()
	if p.near[k] == nil {
		p.near[k] = map[int]int{}
	}
	p.near[k][id]++
}

// binaries gives the test binary of a test package for one mutant: built from
// the mutant's own overlay when its first unit is due, or already built (a schema).
type binaries func(pkg int) (bin, refusal string, built time.Duration)

// overlayBuilds builds each test package against overlay into work, once.
func (p *plan) overlayBuilds(ctx context.Context, modDir, overlay, work string) binaries {
	bins := map[int]string{}
	return func(pkg int) (string, string, time.Duration) {
		if b, ok := bins[pkg]; ok {
			return b, "", 0
		}
		bin := filepath.Join(work, strconv.Itoa(pkg)+".test")
		start := time.Now()
		if out, err := buildTest(ctx, modDir, overlay, bin, p.pkgs[pkg].path); err != nil {
			if ctx.Err() != nil {
				return "", "interrupted: " + ctx.Err().Error(), time.Since(start)
			}
			return "", firstLines(out, 3), time.Since(start)
		}
		bins[pkg] = bin
		return bin, "", time.Since(start)
	}
}

// buildTest links a test binary against overlay; -w: no DWARF, which is most of
// a large test binary's link time.
func buildTest(ctx context.Context, modDir, overlay, bin, pkg string) ([]byte, error) {
	return goCmd(ctx, modDir, nil, 0, "test", "-c", "-vet=off", "-ldflags=-w", "-overlay="+overlay, "-o", bin, pkg)
}

// runUnits runs each unit alone against the mutant, in unitsFor's order, until
// one fails with a `--- FAIL` line (killed). A package's test binary is asked
// for when its first unit is due, so a mutant its fastest tests kill links
// nothing else; a mutant that type-checks but whose test binary does not build
// crashed. A run that panics or exits without a `--- FAIL` line is a crash, and
// a run that does not end in its time is a timeout; either way the next unit
// still runs, and a later clean failure kills the mutant. Each run of a test
// binary gets three times its tests' unmutated time plus the grace, and all of
// them together three times the set's plus the grace, builds not counted; after
// a timeout the runs left get that budget afresh, for their units alone. env is
// added to the row's (a schema's switch).
func (p *plan) runUnits(ctx context.Context, s Scope, m Mutant, key string, us []unit, bin binaries, env []string, c *Cost) (Status, string) {
	c.Of = len(us)
	left := budget(p.grace, us)
	env = append(slices.Clip(s.Env), env...)
	crash, timedOut := "", ""
	bs := plannedBatches(us, p.killerUnits(p.killers.get(key), us), s)
	for k, r := range bs {
		tp := p.pkgs[r.pkg]
		b, refusal, built := bin(r.pkg)
		c.Build += built
		if b == "" {
			return Crashed, "the test binary does not build: " + refusal
		}
		if left <= 0 {
			return TimedOut, fmt.Sprintf("no time left for %s %s", tp.path, short(r.pattern))
		}
		limit := r.limit(p.grace, left)
		start := time.Now()
		// the first failure decides, in a batch and inside one test: a sweep's
		// cases stop once one failed (hostsim's sweep, docs/mutation.md#killers-first)
		args := append(runArgs(s, r.pattern), "-test.failfast")
		out, err := testCmd(ctx, b, tp.dir, append(slices.Clip(env), r.env...), limit, args...)
		left -= time.Since(start)
		c.Test += time.Since(start)
		c.Ran += len(r.units)
		if errors.Is(err, context.DeadlineExceeded) {
			// a test that hangs on the mutant decides nothing about the others:
			// they still run, each batch with its own time, and one that fails
			// kills the mutant; only when none does is it a timeout
			if timedOut == "" {
				timedOut = fmt.Sprintf("no answer within %s (%s %s)", limit.Round(time.Millisecond), tp.path, short(r.pattern))
			}
			left = p.grace
			for _, rest := range bs[k+1:] {
				left += budget(0, rest.units)
			}
			continue
		}
		if err == nil {
			continue
		}
		st, detail := judge(out)
		if st == Killed {
			k := r.killer(detail)
			p.killed(m, k.id)
			p.killers.set(key, p.asKillers(r.units, k.name))
			return Killed, detail
		}
		if crash == "" {
			crash = fmt.Sprintf("%s %s %s: %s", strings.Join(r.env, " "), tp.path, short(r.pattern), detail)
		}
	}
	switch {
	case timedOut != "":
		return TimedOut, timedOut
	case crash != "":
		return Crashed, crash
	}
	return Lived, p.reproduce(s, us)
}

// alone is how many of a mutant's units at least run one by one, cheapest
// first, before the rest of each package run in one process: most mutants fall
// to one of their first tests, and a mutant that lives would otherwise start a
// process per test that executes its line (a hundred, for a provider plan
// helper). Every test passes alone and with the others (baseline, schema), so
// a batch fails only for the mutant.
const alone = 3

// aloneShare: past the first units, a unit still runs alone while the units run
// alone so far took at most this share of the whole set's unmutated time. A
// batch runs its tests in source order and, with t.Parallel, side by side, so
// it costs about the whole set's time wherever its killer is; the provider's
// batches took 7-25 s for mutants that one test of half a second kills. For a
// mutant that lives, the tests run alone are only taken out of the batch.
const aloneShare = 3

// batch is one run of a test binary: units of one package and one environment.
type batch struct {
	level   int // -1 for a unit run before grouping began, else the batch's growth step (chunk)
	pkg     int
	env     []string
	pattern string
	units   []unit
	// a joined batch's split values and test patterns, each once (add)
	values, tests []string
}

// joins says whether u is a split's unit that may share a run with others of
// its split (the split's variable takes a list).
func joins(u unit, s Scope) bool {
	return len(u.env) > 0 && s.Split != nil && s.Split.Join != ""
}

// add puts a split's unit in a joined batch: its value joins the variable's list
// and its test the pattern, each once. The batch runs every test for every value,
// more than its units when their tests differ by value; each of those passes
// unmutated (baseline), so a failure is still the mutant's.
func (b *batch) add(u unit, s Scope) {
	b.units = append(b.units, u)
	_, v, _ := strings.Cut(u.env[0], "=")
	if !slices.Contains(b.values, v) {
		b.values = append(b.values, v)
		b.env = []string{s.Split.Env + "=" + strings.Join(b.values, s.Split.Join)}
	}
	if p := u.pattern(s); !slices.Contains(b.tests, p) {
		b.tests = append(b.tests, p)
		b.pattern = strings.Join(b.tests, "|")
	}
}

// firstBatch is how many units the first batch of a package holds; each next
// batch of that package holds four times the one before. A batch of parallel
// tests costs about its slowest tests' time, so the likeliest killers after the
// ones run alone go first in a small batch: a provider mutant of the plan
// helper every test executes, killed by its tenth test, took a 136-test batch
// (25-35 s on the loaded machine) when the rest of a package ran as one.
const firstBatch = 8

// chunk is the batch (0, 1, ...) of a package that its k-th grouped unit goes in.
func chunk(k int) int {
	i, end, size := 0, firstBatch, firstBatch
	for k >= end {
		size *= 4
		end += size
		i++
	}
	return i
}

// batches gives the first units alone (at least alone of them, and more while
// their time stays within 1/aloneShare of the set's), then the rest grouped by
// package and environment in batches growing fourfold from firstBatch, the
// first batch of each package before the second of any (a
// split's units stay alone, each with its own value, unless the split joins
// values: then they are grouped past the first alone units, apart from the
// package's other units).
func batches(us []unit, s Scope) []batch { return batchesOf(us, s, false) }

// batchesOf is batches, or with all every unit grouped from the first (a
// mutant's recorded killers: one run, as they killed it last time).
func batchesOf(us []unit, s Scope, all bool) []batch {
	var total, spent time.Duration
	for _, u := range us {
		total += u.dur
	}
	var out []batch
	group := map[string]int{}
	grouped := map[string]int{} // by package (and split): units put in a batch so far
	grouping := all
	for i, u := range us {
		// a joinable split's units share runs as soon as the first ones ran alone:
		// their runs cost mostly a process start each
		grouping = grouping || i >= alone && (spent+u.dur > total/aloneShare || joins(u, s))
		if !grouping || len(u.env) > 0 && !joins(u, s) || u.name == "" {
			level := -1
			if grouping {
				level = 0
			}
			out = append(out, batch{level: level, pkg: u.pkg, env: u.env, pattern: u.pattern(s), units: []unit{u}})
			spent += u.dur
			continue
		}
		g := strconv.Itoa(u.pkg)
		if joins(u, s) {
			g += "/" + s.Split.Env
		}
		level := chunk(grouped[g])
		k := g + "/" + strconv.Itoa(level)
		grouped[g]++
		j, ok := group[k]
		if !ok {
			j = len(out)
			group[k] = j
			out = append(out, batch{level: level, pkg: u.pkg})
		}
		b := &out[j]
		if joins(u, s) {
			b.add(u, s)
			continue
		}
		b.units = append(b.units, u)
		if b.pattern != "" {
			b.pattern += "|"
		}
		b.pattern += u.pattern(s)
	}
	// every package's first batch before any package's second: a package whose
	// units come late in the cost order (a unit test that killed nothing yet,
	// behind a suite whose units killed hundreds) is not left to the last batch
	slices.SortStableFunc(out, func(a, b batch) int { return a.level - b.level })
	return out
}

// plannedBatches is the order of a mutant's runs: its recorded killers first,
// grouped as they killed it (Killers), then the rest of us in batches' order.
func plannedBatches(us, first []unit, s Scope) []batch {
	if len(first) == 0 {
		return batches(us, s)
	}
	var rest []unit
	for _, u := range us {
		if !slices.ContainsFunc(first, func(f unit) bool { return f.id == u.id }) {
			rest = append(rest, u)
		}
	}
	return append(batchesOf(first, s, true), batches(rest, s)...)
}

// limit is how long one run of the batch may take: three times its tests'
// unmutated time plus grace, within what is left of the set's. A mutant that
// hangs the first test run alone times out on that test's time, not the set's
// (a provider mutant that never ended a goroutine waited 2m37s, twice).
func (b batch) limit(grace, left time.Duration) time.Duration {
	return min(budget(grace, b.units), left)
}

// budget is the time units get against a mutant: three times their unmutated
// time, plus grace.
func budget(grace time.Duration, units []unit) time.Duration {
	d := grace
	for _, u := range units {
		d += 3 * u.dur
	}
	return d
}

// killer is the unit whose test a kill's detail names (the batch's first when
// none matches).
func (b batch) killer(detail string) unit {
	name, _, _ := strings.Cut(detail, " ")
	name, _, _ = strings.Cut(name, "/")
	for _, u := range b.units {
		if u.name == name {
			return u
		}
	}
	return b.units[0]
}

// short keeps a long -run pattern readable in a log line.
func short(pattern string) string {
	if n := strings.Count(pattern, "|") + 1; n > 3 {
		first, _, _ := strings.Cut(pattern, "|")
		return fmt.Sprintf("%s|... (%d tests)", first, n)
	}
	return pattern
}

// reproduce is the go test command that runs what a lived mutant survived.
func (p *plan) reproduce(s Scope, us []unit) string {
	var runs, pkgs, envs []string
	for _, u := range us {
		for _, e := range u.env {
			if !slices.Contains(envs, e) {
				envs = append(envs, e)
			}
		}
		if r := u.pattern(s); r != "" && !slices.Contains(runs, r) {
			runs = append(runs, r)
		}
		if tp := p.pkgs[u.pkg].path; !slices.Contains(pkgs, tp) {
			pkgs = append(pkgs, tp)
		}
	}
	cmd := "go test -count=1"
	if len(envs) > 0 {
		cmd = "for each of " + strings.Join(envs, " ") + ": " + cmd
	}
	if len(runs) > 0 {
		cmd += " -run '" + short(strings.Join(runs, "|")) + "'"
	}
	if s.Skip != "" {
		cmd += " -skip '" + s.Skip + "'"
	}
	return cmd + " " + strings.Join(pkgs, " ")
}

// testCmd runs a test binary (or the go command) in dir; a context deadline is reported as
// context.DeadlineExceeded.
func testCmd(ctx context.Context, bin, dir string, env []string, timeout time.Duration, args ...string) ([]byte, error) {
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.WaitDelay = 5 * time.Second
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		return out, context.DeadlineExceeded
	}
	return out, err
}

// judge reads a failed test run: killed when a test failed (a `--- FAIL` line,
// which the testing package also prints for a test whose own goroutine
// panicked: the code under test crashed on the test's input, and the detail
// says "panicked"); crashed when the binary died with no failing test (a panic
// outside every test, a fatal error such as a deadlock, an exit from TestMain).
func judge(out []byte) (Status, string) {
	fail, crash := "", ""
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 0, 64*1024), 4*1024*1024)
	for sc.Scan() {
		l := sc.Text()
		switch {
		case crash == "" && (strings.HasPrefix(l, "panic: ") || strings.HasPrefix(l, "fatal error: ")):
			crash = l
		case fail == "" && strings.HasPrefix(strings.TrimSpace(l), "--- FAIL: "):
			fail = strings.TrimPrefix(strings.TrimSpace(l), "--- FAIL: ")
		}
	}
	switch {
	case fail != "" && crash != "":
		return Killed, fail + " " + panicked + crash
	case fail != "":
		return Killed, fail
	case crash != "":
		return Crashed, crash
	}
	return Crashed, "exited without a --- FAIL line: " + firstLines(out, 2)
}

// panicked marks the detail of a kill whose failing test panicked.
const panicked = "panicked: "
