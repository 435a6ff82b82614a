//go:build mage

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/takokit/takokit/internal/testrun"
	"github.com/takokit/takokit/internal/testtally"
)

// runAllTests runs every module's tests (scenarios included) and the conformance self-test,
// after the build steps given, side by side (testrun); a failed step counts as one failure
// and the run goes on, so the report always closes with the tally line.
func runAllTests(steps ...step) error {
	var total testtally.Tally
	if err := checkTestEnv(); err != nil {
		return refuse(total, err)
	}
	runSteps(&total, steps)
	jobs, err := moduleJobs(true)
	if err != nil {
		fmt.Println(err)
		total.Fail(err.Error())
	}
	total.Add(testrun.Run(saveJSON(longestFirst(jobs)), testJobs(), os.Stdout))
	return finish(total)
}

func runModuleTests(withScenarios bool) error {
	var total testtally.Tally
	if err := checkTestEnv(); err != nil {
		return refuse(total, err)
	}
	jobs, err := moduleJobs(withScenarios)
	if err != nil {
		fmt.Println(err)
		total.Fail(err.Error())
	}
	total.Add(testrun.Run(saveJSON(longestFirst(jobs)), testJobs(), os.Stdout))
	return finish(total)
}

func runScenarios(steps ...step) error {
	var total testtally.Tally
	if err := checkTestEnv(); err != nil {
		return refuse(total, err)
	}
	runSteps(&total, steps)
	env, err := testEnv()
	if err != nil {
		return err
	}
	root, err := filepath.Abs(".")
	if err != nil {
		return err
	}
	job := testrun.Job{Name: ". (scenarios)", Dir: ".", Env: env, // the binary `mage test` keeps
		GoTest: slices.Concat(cacheFlags(), testBinFlag(testBinDir(root), scenariosJob), []string{"-parallel", strconv.Itoa(scenarioParallel()), "-run", "TestScenarios", "./scripts"})}
	total.Add(testrun.Run(saveJSON([]testrun.Job{job}), 1, os.Stdout))
	return finish(total)
}

// step is a build step run before tests (mage build, mage tofu).
type step struct {
	name string
	run  func() error
}

func runSteps(total *testtally.Tally, steps []step) {
	for _, s := range steps {
		if err := s.run(); err != nil {
			fmt.Printf("%s: %v\n", s.name, err)
			total.Fail(s.name)
		}
	}
}

// finish prints the summary as the report's LAST line. On failure it exits 1 itself: a
// returned error would make mage print "Error: ..." after the closing line.
func finish(total testtally.Tally) error {
	testtally.PrintSummary(os.Stdout, total)
	if total.Failed > 0 {
		os.Stdout.Sync()
		os.Exit(1)
	}
	return nil
}

// binTests are, per module, the tests that need bin/: in the root module the scenario
// runner (scripts/), the dashboard's browser test (browser/), the tfplugindocs pages and
// examples (internal/providerdocs), the goreleaser snapshot (internal/release), the
// partial hosts of mage sim (internal/simhosts), the guides' copied acceptance examples
// (internal/guidetest) and the guides' commands (internal/guides);
// in the provider module its acceptance tests (provider/acctest: resource.Test through
// bin/tofu). `mage unit` skips them by name; `mage test` builds bin/ first and runs them.
// The conformance module's tests that run bin/hostsim are skipped by binEnv instead.
var binTests = map[string]string{
	".":        "TestScenarios|TestDashboardInBrowser|TestProviderDocs|TestReleaseSnapshot|TestGuideAcceptanceExamples|TestGuides|TestSimHostsStartAndStop|TestAFailedStartStopsTheHostsBeforeIt|TestABusyPortOfTheRangeIsNamedWithTheVariable",
	"provider": "^TestAcc[A-Z]",
}

// binEnv is what `mage unit` adds to the environment so that the tests needing bin/hostsim
// skip, naming the variable (conformance/selftest.NoHostsimEnv); without it a missing
// bin/hostsim fails them.
var binEnv = []string{"TAKOKIT_NO_HOSTSIM=1"}

// unitCacheFlags give `mage unit`'s runs results of their own in go test's cache. go test
// keeps, per test binary and command line, the inputs its last run read: a unit run of the
// conformance module (with binEnv, its self-test skipped) had the same command line as mage
// test's, so it replaced those inputs and the next `mage test` ran the module again (1m39s)
// although nothing had changed. The flag repeats the timeout testrun already gives every
// job (75m), spelt another way, so nothing else moves (docs/decisions.md#test-cache).
var unitCacheFlags = []string{"-timeout=75m0s"}

// waitingModules are the modules whose parallel tests mostly wait (on a host's
// answer, a backoff, a mutant's timeout) rather than compute: their jobs run
// testParallel tests of a package at once instead of go test's default, one per
// core. At the default the provider's tests took 11.8 s for 7 CPU-s, and 5.2 s
// at 8; the other modules' tests compute, and more at once only cost them CPU
// (the self-test: 2.5 CPU-s more, no sooner done; docs/decisions.md#test-time).
var waitingModules = []string{".", "provider"}

// parallelFlags are the go test flags for how many parallel tests of module m's
// packages run at once: testParallel for waitingModules, go's default otherwise. Every
// target running a module's tests (test, unit, quick) takes them from here.
func parallelFlags(m string) []string {
	if slices.Contains(waitingModules, m) {
		return []string{"-parallel", strconv.Itoa(testParallel())}
	}
	return nil
}

// scenariosJob names the job that runs the root module's scripts/ package: the scenarios,
// OpenTofu processes that mostly wait, run more at a time than the cores
// (scenarioParallel).
const scenariosJob = ". (scripts)"

// moduleJobs is one `go test ./...` job per module, the root module's scripts/ package in
// a job of its own; without scenarios each module's binTests are skipped by -skip. Every
// job keeps its test binaries in a folder of its own in the user's cache (testBinFlag),
// and a module whose packages share a name (hostsim and cmd/hostsim) gets one job per
// group testrun.BinaryGroups makes, the later ones named for their packages.
func moduleJobs(withScenarios bool) ([]testrun.Job, error) {
	env, err := testEnv()
	if err != nil {
		return nil, err
	}
	if !withScenarios {
		env = append(env, binEnv...)
	}
	root, err := filepath.Abs(".")
	if err != nil {
		return nil, err
	}
	pkgs, err := workspacePackages()
	if err != nil {
		return nil, err
	}
	bins := testBinDir(root)
	var jobs []testrun.Job
	add := func(name, dir string, args, pkgs []string) {
		jobs = append(jobs, testrun.Job{Name: name, Dir: dir, Env: env, GoTest: slices.Concat(args, testBinFlag(bins, name), pkgs)})
	}
	for _, m := range modules {
		args := cacheFlags()
		if !withScenarios {
			args = append(args, unitCacheFlags...)
			if s := binTests[m]; s != "" { // they need bin/ (and the browser test Chromium)
				args = append(args, "-skip", s)
			}
		}
		name := m
		if m == "." {
			add(scenariosJob, m, slices.Concat(args, []string{"-parallel", strconv.Itoa(scenarioParallel())}), []string{"./scripts"})
			name = ". (other packages)"
		}
		args = slices.Concat(args, parallelFlags(m))
		groups, err := moduleGroups(root, m, pkgs)
		if err != nil {
			return nil, err
		}
		for i, g := range groups {
			jobName := name
			if i > 0 {
				jobName = fmt.Sprintf("%s (%s)", m, strings.Join(g, " "))
			}
			if len(groups) == 1 && m != "." {
				g = []string{"./..."} // all of the module: the job line as one would type it
			}
			add(jobName, m, args, g)
		}
	}
	return jobs, nil
}

// moduleGroups are module m's packages as ./dir paths relative to it (the root module's
// without ./scripts), in testrun.BinaryGroups' groups.
func moduleGroups(root, m string, pkgs []testrun.Package) ([][]string, error) {
	modDir := filepath.Join(root, m)
	rel := map[string]string{}
	var paths []string
	for _, p := range pkgs {
		if p.Module != modDir {
			continue
		}
		r, err := filepath.Rel(modDir, p.Dir)
		if err != nil {
			return nil, err
		}
		r = "./" + filepath.ToSlash(r)
		if r == "./." {
			r = "."
		}
		if m == "." && r == "./scripts" {
			continue
		}
		rel[p.ImportPath] = r
		paths = append(paths, p.ImportPath)
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("go list found no package in module %s", m)
	}
	var groups [][]string
	for _, g := range testrun.BinaryGroups(paths) {
		dirs := make([]string, len(g))
		for i, p := range g {
			dirs[i] = rel[p]
		}
		groups = append(groups, dirs)
	}
	return groups, nil
}

// testBinFlag is `-o DIR/` for the job named name: a folder of bins (testBinDir), kept
// between runs, where the job's test binaries stay. go test links a test binary again
// every time its tests run, though nothing it is built from changed, unless -o names
// where it is kept: then a binary still up to date is run as it is. A run of every test
// (TAKOKIT_TEST_FRESH=1, CI) and the tests that run again because bin/ changed (the
// scenarios, the self-test) link nothing that did not change
// (docs/decisions.md#test-binaries).
// go makes the folder when missing. Without a folder of bins (bins empty: testBinDir
// could not make one) the job links its binaries every run, as go test does by itself.
func testBinFlag(bins, name string) []string {
	if bins == "" {
		return nil
	}
	return []string{"-o", filepath.Join(bins, jobFileName(name)) + string(filepath.Separator)}
}

// testBinDir is where the test jobs of the checkout at root keep their binaries: in the
// user's cache, outside the checkout (go touches an up-to-date binary on every run, and a
// test opening its own binary inside its module, as the scenarios' does, would never
// have its result reused), a folder per checkout, those of checkouts that are gone
// removed and the keptCheckouts most recently used of the others kept (testrun.BinDir).
// When none can be made it says why and gives "": the tests run all the same, linking
// every binary.
func testBinDir(root string) string {
	cache, err := os.UserCacheDir()
	if err != nil {
		err = fmt.Errorf("no folder for the test binaries: %w", err)
	} else {
		var dir string
		if dir, err = testrun.BinDir(filepath.Join(cache, "takokit", "testbin"), root, time.Now(), keptCheckouts); err == nil {
			return dir
		}
	}
	// no room for them (no cache folder, or one that cannot be written): the tests still run
	fmt.Printf("%v; every test binary is linked again on each run (set XDG_CACHE_HOME to a writable folder to keep them)\n", err)
	return ""
}

// keptCheckouts is how many checkouts keep their test binaries, about 0.8 GB each: a
// checkout, a worktree beside it and a clone (CI's, or one to try a change in) test
// without removing each other's binaries (docs/decisions.md#test-binaries).
const keptCheckouts = 3

// jobCost orders the jobs, longest first, so the longest never starts last: their wall
// time on two cores (docs/decisions.md#test-time). A job not listed goes last.
var jobCost = []string{scenariosJob, "hostsim", ". (other packages)", "conformance", "provider", "catalog"}

func longestFirst(jobs []testrun.Job) []testrun.Job {
	rank := func(name string) int {
		for i, n := range jobCost {
			if n == name {
				return i
			}
		}
		return len(jobCost)
	}
	out := append([]testrun.Job(nil), jobs...)
	for i := 1; i < len(out); i++ {
		for k := i; k > 0 && rank(out[k].Name) < rank(out[k-1].Name); k-- {
			out[k], out[k-1] = out[k-1], out[k]
		}
	}
	return out
}

// envCount is a count the test targets read from the environment, with its default.
type envCount struct {
	name string
	def  int
}

var (
	jobsCount     = envCount{"TAKOKIT_TEST_JOBS", 2}         // test jobs at once
	scenarioCount = envCount{"TAKOKIT_SCENARIO_PARALLEL", 4} // scenarios at once
	parallelCount = envCount{"TAKOKIT_TEST_PARALLEL", 8}     // parallel tests at once in a package
)

// get reads the count, which checkTestEnv has checked first.
func (c envCount) get() int {
	n, _ := testrun.Count(os.Getenv, c.name, c.def)
	return n
}

// testJobs is how many test jobs run at once: TAKOKIT_TEST_JOBS, else 2.
func testJobs() int { return jobsCount.get() }

// scenarioParallel is how many scenarios run at once: TAKOKIT_SCENARIO_PARALLEL, else 4.
func scenarioParallel() int { return scenarioCount.get() }

// testParallel is how many parallel tests of one package run at once in the jobs
// of waitingModules (but the scenarios'): TAKOKIT_TEST_PARALLEL, else 8.
func testParallel() int { return parallelCount.get() }

// checkTestEnv refuses a TAKOKIT_TEST_JOBS, TAKOKIT_SCENARIO_PARALLEL or
// TAKOKIT_TEST_PARALLEL that is not a count, and a TAKOKIT_TEST_FRESH that is neither 1
// nor off, before anything is built or run (the envCounts then read them without an
// error).
func checkTestEnv() error {
	if _, err := testrun.Switch(os.Getenv, "TAKOKIT_TEST_FRESH"); err != nil {
		return err
	}
	for _, c := range []envCount{jobsCount, scenarioCount, parallelCount} {
		if _, err := testrun.Count(os.Getenv, c.name, c.def); err != nil {
			return err
		}
	}
	return nil
}

// refuse ends a test target that could not start: its reason, counted as one
// failure, then the tally line as always.
func refuse(total testtally.Tally, err error) error {
	fmt.Println(err)
	total.Fail(err.Error())
	return finish(total)
}

// saveJSON keeps each go test job's -json stream in TAKOKIT_TEST_JSON_DIR when set, one
// file per job, for finding what is slow (jq over the Elapsed of pass events).
func saveJSON(jobs []testrun.Job) []testrun.Job {
	dir := os.Getenv("TAKOKIT_TEST_JSON_DIR")
	if dir == "" {
		return jobs
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		fmt.Println("TAKOKIT_TEST_JSON_DIR:", err)
		return jobs
	}
	for i := range jobs {
		if len(jobs[i].GoTest) > 0 {
			jobs[i].SaveJSON = filepath.Join(dir, jobFileName(jobs[i].Name)+".json")
		}
	}
	return jobs
}

// jobFileName is a job's name as a file's: ". (scripts)" is root-scripts, "hostsim
// (./cmd/hostsim)" hostsim-root-cmd-hostsim (its saved stream, its folder of test binaries).
func jobFileName(name string) string { return jobFileNames.Replace(name) }

var jobFileNames = strings.NewReplacer(".", "root", " ", "-", "(", "", ")", "", "/", "-")
