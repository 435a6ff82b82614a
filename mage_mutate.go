//go:build mage

package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/takokit/takokit/internal/mutate"
	"github.com/takokit/takokit/internal/testrun"
)

// mutationScopeFile is the scope table: one row per package, the files whose
// mutants are made and the tests that may kill them (docs/mutation.md).
const mutationScopeFile = "internal/mutate/scope.json"

// mutationKillersFile records the tests that killed each mutant in the last
// runs: a killed mutant's tests start with them (docs/mutation.md#killers-first).
const mutationKillersFile = "internal/mutate/killers.tsv"

// productModules are the modules whose production lines the scope's share is
// counted against (the root module is the project's tooling).
var productModules = []string{"catalog", "hostsim", "provider", "conformance"}

// runMutation runs every scope row (MUTATE_ONLY=substring narrows to matching rows;
// MUTATE_WORKERS sets how many mutants run at once, default cores + 1; MUTATE_TIMEOUT
// bounds the whole run, default 40m; MUTATE_TRACE=1 prints each mutant's build and
// test time; MUTATE_SURVEY=1 only counts each row's files, lines and mutants;
// MUTATE_SCOPE=file reads another scope table; MUTATE_ALL=1 runs every viable
// mutant instead of one per line, docs/mutation.md#sampling; MUTATE_EQUIVALENT=run
// also runs the mutants marked equivalent, docs/mutation.md#equivalent-marks)
// and prints per row, per operator and in total; survivors go to
// bin/mutation-survivors.txt. Ctrl-C (mage cancels ctx and waits 5 s) stops the
// rows and removes the run's temporary folders; what ended is reported.
func runMutation(parent context.Context) error {
	root, err := os.Getwd()
	if err != nil {
		return err
	}
	file := filepath.Join(root, mutationScopeFile)
	if f := os.Getenv("MUTATE_SCOPE"); f != "" { // another table, for trying a row out
		file = f
	}
	scope, err := mutate.LoadScope(file)
	if err != nil {
		return err
	}
	// the baselines' and the mutants' test processes (and the builds) run with the
	// test jobs' collector target and temporary folder, unless the caller set GOGC or
	// TMPDIR (testrun.GCEnv, testrun.TmpEnv)
	for _, kv := range slices.Concat(testrun.GCEnv(os.Getenv), testrun.TmpEnv(os.Getenv)) {
		k, v, _ := strings.Cut(kv, "=")
		os.Setenv(k, v)
	}
	workers := runtime.NumCPU() + 1 // a test run waits on its hosts part of the time (docs/mutation.md: 2 workers were no faster)
	if n, err := strconv.Atoi(os.Getenv("MUTATE_WORKERS")); err == nil && n > 0 {
		workers = n
	}
	only := os.Getenv("MUTATE_ONLY")
	var rows []mutate.Scope
	for _, s := range scope {
		if only == "" || strings.Contains(s.Name, only) {
			rows = append(rows, s)
		}
	}
	if err := printShare(root, rows); err != nil {
		return err
	}
	if os.Getenv("MUTATE_SURVEY") != "" {
		return nil
	}
	limit := 40 * time.Minute // the whole run; one worker over every row needs more (MUTATE_TIMEOUT=90m)
	if d, err := time.ParseDuration(os.Getenv("MUTATE_TIMEOUT")); err == nil && d > 0 {
		limit = d
	}
	ctx, cancel := context.WithTimeout(parent, limit)
	defer cancel()
	shared, err := mutate.NewShared() // each module's tests measured once for all its rows
	if err != nil {
		return err
	}
	defer shared.Close()
	tmp, err := shared.TempDir() // what a killed test binary leaves goes with the run
	if err != nil {
		return err
	}
	os.Setenv("TMPDIR", tmp)
	sample := mutate.OnePerLine
	if os.Getenv("MUTATE_ALL") != "" {
		sample = mutate.EveryMutant
	}
	killers, err := mutate.LoadKillers(filepath.Join(root, mutationKillersFile))
	if err != nil {
		return err
	}
	var equivalents *mutate.Equivalents // MUTATE_EQUIVALENT=run: the marked mutants run too
	if os.Getenv("MUTATE_EQUIVALENT") != "run" {
		if equivalents, err = mutate.LoadEquivalents(filepath.Join(root, mutate.EquivalentsFile)); err != nil {
			return err
		}
	}
	o := mutate.Options{Root: root, Workers: workers, Log: func(f string, a ...any) { fmt.Printf(f+"\n", a...) },
		Trace: os.Getenv("MUTATE_TRACE") != "", Shared: shared, Sample: sample, Killers: killers, Equivalents: equivalents}
	start := time.Now()
	if err := shared.Prepare(ctx, o, rows); err != nil { // every row's schema, then one build per module's test package
		return err
	}
	// the rows run side by side, their test processes drawn from one pool of
	// workers: no worker idles while a row's last slow mutants end
	// (docs/mutation.md#rows-side-by-side)
	o.Slots = mutate.NewSlots(workers)
	var mu sync.Mutex
	var wg sync.WaitGroup
	results := map[string][]mutate.Result{}
	var failed []string
	for _, s := range rows {
		wg.Go(func() {
			rowStart := time.Now()
			rs, err := mutate.RunScope(ctx, o, s)
			mu.Lock()
			defer mu.Unlock()
			if err != nil { // the other rows still run; the target fails at the end
				fmt.Printf("%s: ERROR: %v\n", s.Name, err)
				failed = append(failed, s.Name)
				return
			}
			results[s.Name] = rs
			var c mutate.Counts
			for _, r := range rs {
				c.Add(r)
			}
			fmt.Printf("%s: %s (row ended %s after it started, %s so far)\n", s.Name, c.Line(), time.Since(rowStart).Round(time.Second), time.Since(start).Round(time.Second))
		})
	}
	wg.Wait()
	var names []string
	for _, s := range rows { // the report keeps the table's order
		if _, ok := results[s.Name]; ok {
			names = append(names, s.Name)
		}
	}
	if err := writeSurvivors(root, names, results); err != nil {
		return err
	}
	if err := killers.Save(); err != nil {
		return fmt.Errorf("mutation: record the killers in %s: %w", mutationKillersFile, err)
	}
	fmt.Printf("== mutation report (%s, %d workers)\n", time.Since(start).Round(time.Second), workers)
	if err := printShare(root, rows); err != nil {
		return err
	}
	mutate.Report(os.Stdout, names, results)
	if only == "" && len(failed) == 0 && parent.Err() == nil && ctx.Err() == nil {
		// a mark no mutant of a whole run carries marks nothing: say which, so the file holds only judgments that apply
		if stale := equivalents.Unmatched(results); len(stale) > 0 {
			fmt.Printf("equivalent marks matching no mutant of this run (%d; the function changed since it was judged, or left the scope): delete these lines of %s, and judge anew any mutant of that function that lived:\n", len(stale), mutate.EquivalentsFile)
			for _, k := range stale {
				fmt.Printf("  %s\n", k)
			}
		}
	}
	if parent.Err() != nil {
		return fmt.Errorf("mutation: interrupted; the report above holds what ended before the interrupt, and the run's temporary folders are removed")
	}
	if len(failed) > 0 {
		return fmt.Errorf("mutation: %d row(s) could not run: %s", len(failed), strings.Join(failed, "; "))
	}
	return nil
}

// printShare prints each row's files, lines of code and mutants, and the rows'
// share of the product modules' production lines of code.
func printShare(root string, rows []mutate.Scope) error {
	total, err := mutate.ProductionLines(root, productModules)
	if err != nil {
		return err
	}
	lines, mutants := 0, 0
	for _, s := range rows {
		dir, files, err := s.ResolveFiles(root)
		if err != nil {
			return err
		}
		n, m := 0, 0
		for _, f := range files {
			c, err := mutate.CodeLines(filepath.Join(dir, f))
			if err != nil {
				return err
			}
			ms, err := mutate.Find(filepath.Join(dir, f))
			if err != nil {
				return err
			}
			n += c
			m += len(ms)
		}
		rel, _ := filepath.Rel(root, dir)
		fmt.Printf("scope: %-56s %2d files, %5d lines, %5d mutants in %s\n", s.Name, len(files), n, m, rel)
		lines += n
		mutants += m
	}
	fmt.Printf("scope: %d lines of code of %d in production files of %s (not tests, not generated): %.1f%%; %d mutants\n",
		lines, total, strings.Join(productModules, ", "), 100*float64(lines)/float64(total), mutants)
	return nil
}

func writeSurvivors(root string, names []string, results map[string][]mutate.Result) error {
	var b strings.Builder
	for _, n := range names {
		for _, r := range results[n] {
			switch r.Status {
			case mutate.Lived, mutate.NotCovered, mutate.TimedOut, mutate.Crashed:
				rel, _ := filepath.Rel(root, r.File)
				mark := "" // a lived mutant judged equivalent is marked by this column (docs/mutation.md#equivalent-marks)
				if r.Status == mutate.Lived {
					mark = r.Mark
				}
				fmt.Fprintf(&b, "%s\t%s:%d:%d\t%s\t%q -> %q\t%s\t%s\n", r.Status, rel, r.Line, r.Col, r.Kind, mutate.Short(r.Old), r.New, r.Detail, mark)
			}
		}
	}
	if err := os.MkdirAll(filepath.Join(root, "bin"), 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(root, "bin", "mutation-survivors.txt"), []byte(b.String()), 0o644)
}
