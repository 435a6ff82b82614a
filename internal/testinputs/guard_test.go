package testinputs

import (
	"maps"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// runsPrograms is what marks a test file as starting programs, directly or through the
// helpers that start OpenTofu, hostsim or testscript's commands.
var runsPrograms = regexp.MustCompile(`exec\.Command(Context)?\(|LocateHostsim\(|UseOpenTofu\(|testscript\.Run\(`)

// declares is what marks a package as keying its results on the tree's id.
var declares = regexp.MustCompile(`testinputs\.Declare(Bin|Part)?\(|os\.Getenv\("TAKOKIT_(TREE|BIN)_ID(_[A-Z0-9_]+)?"\)`)

// binIDLiteral is a test reading one binary's id by name (modules that cannot import
// this package do): the name must be one Env sets, or the read keys on nothing.
var binIDLiteral = regexp.MustCompile(`"(TAKOKIT_BIN_ID_[A-Z0-9_]+)"`)

// selfContained are the packages whose tests start programs that read nothing go test
// does not already see, each with the reason (docs/decisions.md#test-cache).
var selfContained = map[string]string{
	"catalog/piddir":             "runs true to get the id of a process gone; it reads no file",
	"hostsim/cmd/hostsim":        "builds and runs its own package, whose sources make the test binary",
	"hostsim/internal/decide":    "lists the imports of its own package",
	"hostsim/internal/bench":     "spins a shell loop to read its CPU clock; the loop reads no file",
	"hostsim/hostsimtest/record": "lists the imports of its own package",
	"hostsim/internal/sweeptest": "runs its own test binary again as a probe of the fail-fast rule; the probe reads no file",
	"provider":                   "lists the imports of its own package",
	"provider/takoformtest":      "checks UseOpenTofu's errors and the variables it sets; it runs nothing",
	"internal/mutate":            "builds and runs programs from modules it writes in a temporary directory",
	"internal/testtally":         "runs go test in a module it writes in a temporary directory",
	"internal/testinputs":        "runs git in repositories it makes in a temporary directory, and lists this tree with git keyed on its id",
	"internal/stamp":             "runs git and go list in a module it writes in a temporary directory",
	"conformance/cmd/conformance": "finds bin/hostsim through selftest.LocateHostsim, " +
		"which reads the binaries' id",
}

// skippedByTheGuard are the Go files outside the modules' packages: the tools module
// (OpenTofu and the release tools), test data, and anything under a dot directory.
func skippedByTheGuard(rel string) bool {
	for _, seg := range strings.Split(path.Dir(rel), "/") {
		if seg == "testdata" || strings.HasPrefix(seg, ".") && seg != "." {
			return true
		}
	}
	return strings.HasPrefix(rel, "tools/")
}

// A test that starts a program reading files go test cannot see (a child building the
// sources, OpenTofu running bin/, anything outside its module) must key its package's
// result on the tree's id, or `go tool mage test` would reuse a pass the change broke.
// A package new to running programs fails here until it declares or is listed above.
// A package that declares and runs tests in parallel must call catalog/testlog.Main
// from its TestMain, or an edit undone would not find its results again.
func TestEveryPackageThatRunsProgramsKeysItsResultsOnTheTree(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	// The tree's Go files as git lists them, keyed on the tree's id: a walk would open
	// every directory, and go test would key the result on directory times that git
	// and the builds move on every run.
	_ = Declare()
	files, err := ListFiles(root, "*.go")
	if err != nil {
		t.Fatal(err)
	}
	runs := map[string]bool{}
	declared := map[string]bool{}
	parallel, logged := map[string]bool{}, map[string]bool{} // t.Parallel in tests; testlog.Main
	for _, rel := range files {
		if skippedByTheGuard(rel) {
			continue
		}
		src, err := os.ReadFile(filepath.Join(root, rel))
		if os.IsNotExist(err) {
			continue // deleted in the work tree, not yet in git
		}
		if err != nil {
			t.Fatal(err)
		}
		dir := path.Dir(rel)
		if strings.HasSuffix(rel, "_test.go") {
			if runsPrograms.Match(src) {
				runs[dir] = true
			}
			if strings.Contains(string(src), "t.Parallel()") {
				parallel[dir] = true
			}
			if strings.Contains(string(src), "testlog.Main(") {
				logged[dir] = true
			}
		}
		if declares.Match(src) && !strings.HasPrefix(rel, "internal/testinputs/") {
			declared[dir] = true
			for _, m := range binIDLiteral.FindAllStringSubmatch(string(src), -1) {
				if !slices.Contains(slices.Collect(maps.Values(BinEnv)), m[1]) {
					t.Errorf("%s reads %s, which `go tool mage test` does not set (testinputs.BinEnv sets %v): its results would key on nothing", rel, m[1], slices.Sorted(maps.Values(BinEnv)))
				}
			}
		}
	}
	if len(runs) < 10 {
		t.Fatalf("found only %d packages whose tests run programs under %s: the walk is wrong", len(runs), root)
	}
	var dirs []string
	for d := range runs {
		dirs = append(dirs, d)
	}
	slices.Sort(dirs)
	for _, d := range dirs {
		_, exempt := selfContained[d]
		switch {
		case declared[d] && exempt:
			t.Errorf("%s both declares the tree's id and is listed as self-contained: drop one", d)
		case !declared[d] && !exempt:
			t.Errorf("%s: its tests start programs, but it neither calls testinputs.Declare or DeclareBin "+
				"(or reads TAKOKIT_TREE_ID or TAKOKIT_BIN_ID) nor is listed in selfContained with why it needs not: go test could "+
				"reuse a result that a change it cannot see broke", d)
		}
	}
	for _, d := range slices.Sorted(maps.Keys(declared)) {
		if parallel[d] && !logged[d] {
			t.Errorf("%s keys its results on the tree or the binaries and runs tests in parallel, but its TestMain does not "+
				"call testlog.Main: the order its tests read their inputs in changes from run to run, and an edit undone "+
				"would not find the results go test kept (catalog/testlog)", d)
		}
	}
	for d := range selfContained {
		if !runs[d] {
			t.Errorf("selfContained lists %s, whose tests start no program any more: remove it", d)
		}
	}
}
