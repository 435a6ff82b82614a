//go:build mage

package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/takokit/takokit/internal/mutate"
)

// mutationScope is the core of the three rules, one row per package: the files whose
// mutants are made and the tests that run against each (docs/mutation.md). Dirs lists
// candidate locations, first existing wins, so a package that moves keeps working
// until the row is updated.
var mutationScope = []mutate.Scope{
	// provider (provider/takoform since it became public; internal/takoform before)
	{Name: "provider outputs", Module: "provider",
		Dirs:  []string{"takoform", "internal/takoform"},
		Files: []string{"outputs.go"},
		Tests: []string{"{pkg}"}, Run: "Output|Endpoint"},
	{Name: "provider plan-time support", Module: "provider",
		Dirs:  []string{"takoform", "internal/takoform"},
		Files: []string{"support.go"},
		Tests: []string{"{pkg}"}, Run: "Capability|Support|Plan|Refus|Digest|Range|Enum|Limit|Bundle"},
	{Name: "provider plan (ModifyPlan)", Module: "provider",
		Dirs:  []string{"takoform", "internal/takoform"},
		Files: []string{"modifyplan.go"},
		Tests: []string{"{pkg}"}, Run: "Plan|Capability|Support|Transition|Refus|Replace|Rename|Drift|Revision|Version|Reformatted|Space|Cross|Validators|JSONMap|Queue|Import|DesiredSpec|SpecProblem"},
	{Name: "provider transition", Module: "provider",
		Dirs:  []string{"takoform", "internal/takoform"},
		Files: []string{"transition.go", "transition_apply.go", "codes.go"},
		Tests: []string{"{pkg}"}, Run: "Transition|Retry"},
	{Name: "provider native spec checks (catalog/model)", Module: "catalog",
		Dirs:  []string{"model"},
		Files: []string{"schema_check.go"},
		Tests: []string{"{pkg}", "."}, Run: "Native|Compile|Validate|Numbers|LocalRefs|FormWithout|Bounds|Problems|ConstAndEnum|NonFinite"},
	{Name: "hostsim decisions (decide)", Module: "hostsim",
		Dirs:  []string{"internal/decide", "internal/core"},
		Files: []string{"intent.go", "fences.go", "claims.go", "capability.go", "nextstate.go", "prepare.go", "operations.go", "order.go"},
		Tests: []string{"{pkg}", "./internal/lifecycle"}, Run: ""},
	{Name: "hostsim idempotency", Module: "hostsim",
		Dirs:  []string{"internal/idempotency"},
		Files: []string{"idempotency.go"},
		Tests: []string{"{pkg}"}, Run: ""},
	{Name: "hostsim transition ledger", Module: "hostsim",
		Dirs:  []string{"internal/transition"},
		Files: []string{"ledger.go", "flow.go", "resolve.go", "crash.go"},
		Tests: []string{"{pkg}"}, Run: ""},
	{Name: "hostsim profile enforcement", Module: "hostsim",
		Dirs:  []string{"internal/profile"},
		Files: []string{"enforce.go", "resolve.go"},
		Tests: []string{"{pkg}"}, Run: ""},
	{Name: "hostsim support routes (surface)", Module: "hostsim",
		Dirs:  []string{"internal/surface"},
		Files: []string{"surface.go"},
		Tests: []string{"{pkg}", "."}, Run: "Support|Discovery|ExactFormRef|KVOnly|TightLimits|FormsAndDefinitions|CatalogSurface"},
	{Name: "hostsim outputs (render)", Module: "hostsim",
		Dirs:  []string{"internal/render"},
		Files: []string{"outputs.go"},
		Tests: []string{"{pkg}", "."}, Run: "Output|Representation|NoEndpoints"},
	{Name: "conformance outputs checks", Module: "conformance",
		Dirs:  []string{"."},
		Files: []string{"checks_outputs.go"},
		Tests: []string{".", "./selftest"}, Run: "TestOutput|TestSelftest|TestChecksOnPartialHosts",
		Env: []string{"TAKOKIT_SELFTEST_AREAS=outputs"}},
	{Name: "conformance support enforcement", Module: "conformance",
		Dirs:  []string{"."},
		Files: []string{"support_enforce.go"},
		Tests: []string{"./selftest"}, Run: "TestSelftest|TestChecksOnPartialHosts|TestNarrowedOperations|TestSupportEnforcement",
		Env: []string{"TAKOKIT_SELFTEST_AREAS=support profiles"}},
	{Name: "conformance transition protocol", Module: "conformance",
		Dirs:  []string{"."},
		Files: []string{"transition.go"},
		Tests: []string{".", "./selftest"}, Run: "TestVerifyReceipt|TestNextDecimal|TestSelftest|TestChecksOnPartialHosts",
		Env: []string{"TAKOKIT_SELFTEST_AREAS=transitions"}},
}

// runMutation runs every scope row (MUTATE_ONLY=substring narrows to matching rows;
// MUTATE_WORKERS sets how many mutants run at once, default cores + 1; MUTATE_TIMEOUT
// bounds the whole run, default 40m; MUTATE_TRACE=1 prints each mutant's build and
// test time)
// and prints per row and in total; survivors go to bin/mutation-survivors.txt.
func runMutation() error {
	root, err := os.Getwd()
	if err != nil {
		return err
	}
	workers := runtime.NumCPU() + 1 // a test run waits on its hosts part of the time (docs/mutation.md: 2 workers were no faster)
	if n, err := strconv.Atoi(os.Getenv("MUTATE_WORKERS")); err == nil && n > 0 {
		workers = n
	}
	only := os.Getenv("MUTATE_ONLY")
	limit := 40 * time.Minute // the whole run; one worker over every row needs more (MUTATE_TIMEOUT=90m)
	if d, err := time.ParseDuration(os.Getenv("MUTATE_TIMEOUT")); err == nil && d > 0 {
		limit = d
	}
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	o := mutate.Options{Root: root, Workers: workers, Log: func(f string, a ...any) { fmt.Printf(f+"\n", a...) },
		Trace: os.Getenv("MUTATE_TRACE") != ""}
	start := time.Now()
	var names []string
	results := map[string][]mutate.Result{}
	for _, s := range mutationScope {
		if only != "" && !strings.Contains(s.Name, only) {
			continue
		}
		rowStart := time.Now()
		rs, err := mutate.RunScope(ctx, o, s)
		if err != nil {
			return err
		}
		names = append(names, s.Name)
		results[s.Name] = rs
		var c mutate.Counts
		for _, r := range rs {
			c.Add(r)
		}
		fmt.Printf("%s: %s (row %s, %s so far)\n", s.Name, c.Line(), time.Since(rowStart).Round(time.Second), time.Since(start).Round(time.Second))
	}
	if err := writeSurvivors(root, names, results); err != nil {
		return err
	}
	fmt.Printf("== mutation report (%s, %d workers)\n", time.Since(start).Round(time.Second), workers)
	mutate.Report(os.Stdout, names, results)
	return nil
}

func writeSurvivors(root string, names []string, results map[string][]mutate.Result) error {
	var b strings.Builder
	for _, n := range names {
		for _, r := range results[n] {
			if r.Status == mutate.Lived || r.Status == mutate.NotCovered {
				rel, _ := filepath.Rel(root, r.File)
				fmt.Fprintf(&b, "%s\t%s:%d:%d\t%s\t%q -> %q\n", r.Status, rel, r.Line, r.Col, r.Kind, r.Old, r.New)
			}
		}
	}
	if err := os.MkdirAll(filepath.Join(root, "bin"), 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(root, "bin", "mutation-survivors.txt"), []byte(b.String()), 0o644)
}
