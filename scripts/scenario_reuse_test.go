package scripts

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/rogpeppe/go-internal/txtar"

	"github.com/takokit/takokit/catalog/reftest"
	"github.com/takokit/takokit/internal/fsx"
	"github.com/takokit/takokit/internal/testinputs"
)

// A scenario's pass is reused, the way go test reuses a package's, when nothing it
// depends on changed since it passed: the harness (this test binary), its own file, the
// binaries of bin/ it runs, the lane it runs on and, for the scenarios that build a
// family provider or read the published reference documents, the sources that build
// reads and those documents. go test reruns this package when any binary changes; without this,
// a rebuilt bin/conformance reran the 80 scenarios that never run it
// (docs/decisions.md#test-cache). CI, TAKOKIT_TEST_FRESH=1 and TAKOKIT_UPDATE_GOLDEN=1
// run every scenario.

// reuseOff says why no pass is reused in this run ("" when they may be).
func reuseOff() string {
	switch {
	case os.Getenv("CI") != "":
		return "CI runs every scenario"
	case os.Getenv("TAKOKIT_TEST_FRESH") == "1":
		return "TAKOKIT_TEST_FRESH=1 runs every scenario"
	case os.Getenv("TAKOKIT_UPDATE_GOLDEN") == "1":
		return "TAKOKIT_UPDATE_GOLDEN=1 rewrites the scenarios"
	}
	return ""
}

// scenarioUses is what a scenario's script runs, read from its commands.
type scenarioUses struct {
	binaries []string // under bin/
	tree     bool     // the work tree (and every binary): it runs a program the tables do not know
	family   bool     // what a family build reads (familySources)
	docs     bool     // the published reference documents
}

// familySources is what `go tool mage provider:family` builds a provider from, as git
// pathspecs: the magefiles and the root module's packages they import, the modules the
// provider is built with and the guide whose main.go it compiles (mage_family.go).
var familySources = []string{"magefile.go", "mage_*.go", "go.mod", "go.sum", "go.work", "go.work.sum",
	"internal", "catalog", "provider", "hostsim", "docs/guides/custom-family.md"}

// programBinaries are the programs a script may run by name, and the binaries of bin/
// each one runs: OpenTofu runs the providers of every lane (named, not globbed: reading
// the bin/ directory would key this package's result on its modification time, which
// every build moves).
var programBinaries = map[string][]string{
	"tofu":                        slices.Concat([]string{"tofu"}, providerBinaries()),
	"hostsim":                     {"hostsim"},
	"conformance":                 {"conformance", "hostsim"}, // selftest starts bin/hostsim
	"terraform-provider-takoform": {"terraform-provider-takoform"},
	// tools that read only the files the scenario names in its work directory
	"head": {}, "sed": {},
}

// commandUses is, for each command of this harness (commands), what it runs: a
// binary's program name (programBinaries), "" for nothing, "args" for the programs its
// arguments name (exec-like: after a duration, a condition, or --), or "family" for
// what a family build reads (familySources). TestEveryCommandSaysWhatItRuns holds every
// command to this table: one missing from it could run a binary a reused pass does not
// key on.
var commandUses = map[string]string{
	"hostsim-start": "hostsim", "hostsim-restart": "hostsim", "hostsim-stop": "hostsim",
	"hostsim-fault": "hostsim", "hostsim-disarm": "hostsim", "hostsim-complete": "hostsim",
	"hostsim-count": "hostsim", "hostsim-events": "hostsim", "hostsim-distinct": "hostsim",
	"hostsim-kill": "hostsim", "hostsim-mark": "hostsim", "hostsim-wait": "hostsim",
	"hostsim-state": "hostsim", "crash-row": "hostsim",
	"openapi-proxy": "hostsim", "openapi-validate": "hostsim", // the document bin/hostsim serves
	"bare-404":       "", // a proxy in this test process
	"interrupt-when": "args", "within": "args",
	"tofu-env":        "tofu",   // dev_overrides at the providers of bin/
	"family-provider": "family", // `go tool mage provider:family` builds the sources
	"json-env":        "", "ready-wait": "", "http-get": "", "json-get": "",
}

// providerBinaries are the providers of every lane among requiredBinaries.
func providerBinaries() []string {
	var out []string
	for _, b := range requiredBinaries {
		if filepath.Base(b) == "terraform-provider-takoform" {
			out = append(out, b)
		}
	}
	return out
}

// usesOf reads a script's commands: exec, within and interrupt-when name their
// programs, this harness's commands say what they run (commandUses). A program the
// tables do not know may read anything, so it keys the scenario on the whole tree;
// family-provider keys it on what a family build reads and on the reference documents,
// as does a condition naming them.
func usesOf(script string) scenarioUses {
	var u scenarioUses
	bins := map[string]bool{}
	program := func(name string) {
		b, ok := programBinaries[name]
		if !ok {
			u.tree = true
			return
		}
		for _, x := range b {
			bins[x] = true
		}
	}
	for line := range strings.Lines(script) {
		f := strings.Fields(line)
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		for len(f) > 0 && (f[0] == "!" || f[0] == "?" || strings.HasPrefix(f[0], "[")) {
			if strings.Contains(f[0], "reference") {
				u.docs = true
			}
			f = f[1:]
		}
		if len(f) == 0 {
			continue
		}
		cmd, args := f[0], f[1:]
		uses, custom := commandUses[cmd]
		switch {
		case cmd == "exec" && len(args) > 0:
			program(args[0])
		case cmd == "within" && len(args) > 1:
			program(args[1])
			for i, a := range args {
				if a == "--" && i+1 < len(args) {
					program(args[i+1])
				}
			}
		case cmd == "interrupt-when" && len(args) > 2:
			program(args[2])
			bins["hostsim"] = true
		case uses == "family":
			u.family, u.docs = true, true
		case custom && uses != "" && uses != "args":
			program(uses)
		}
	}
	u.binaries = slices.Sorted(maps.Keys(bins))
	return u
}

// reuse keys and records scenario passes in the user's cache directory, outside the
// module: a file go test saw this package open inside it would rerun the package
// whenever a pass is recorded.
type reuse struct {
	dir     string // where the passes are kept
	root    string // the repository
	bin     string
	harness string // this test binary's digest
	off     string // why nothing is reused, if so
	mu      sync.Mutex
	keys    map[string]string // by scenarioID: the key split computed for each scenario it let run
	crashes *crashMatrix      // the crash matrix rows of passes are kept with them
}

func newReuse(t *testing.T, bin string) *reuse {
	t.Helper()
	r := &reuse{bin: bin, off: reuseOff(), crashes: &crashes}
	if r.off != "" {
		return r
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		r.off = "no user cache directory to keep passes in: " + err.Error()
		return r
	}
	exe, err := os.Executable()
	if err == nil {
		r.harness, err = fsx.SHA256(exe)
	}
	if err != nil {
		r.off = "cannot read this test binary to key passes on it: " + err.Error()
		return r
	}
	sum := sha256.Sum256([]byte(root))
	r.root, r.dir = root, filepath.Join(cache, "takokit", "scenario-passes", hex.EncodeToString(sum[:8]))
	return r
}

// key is the scenario's inputs as one digest, or an error when one cannot be read.
func (r *reuse) key(file, lane string) (string, error) {
	raw, err := os.ReadFile(file)
	if err != nil {
		return "", err
	}
	u := usesOf(string(txtar.Parse(raw).Comment))
	h := sha256.New()
	fmt.Fprintf(h, "harness %s\nlane %q\nfile %x\n", r.harness, lane, sha256.Sum256(raw))
	var bins []string
	for _, b := range u.binaries {
		p := filepath.Join(r.bin, b)
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("bin/%s, which %s runs, is missing", b, file)
		}
		rel, _ := filepath.Rel(r.root, p)
		bins = append(bins, rel)
	}
	fmt.Fprintf(h, "bin %s\n", testinputs.BinID(r.root, bins...))
	if u.tree {
		var all []string
		for _, b := range requiredBinaries {
			all = append(all, filepath.Join("bin", b))
		}
		id, err := testinputs.TreeID(r.root, all...)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "tree %s\n", id)
	}
	if u.family {
		id, err := testinputs.TreeIDOf(r.root, familySources)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "family sources %s\n", id)
	}
	if u.docs {
		dir, ok := reftest.Find(".")
		fmt.Fprintf(h, "reference %q %v %s\n", dir, ok, statDigest(dir))
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// scenarioID names a scenario on a lane: its file's base name, after the lane when it
// is not the default.
func scenarioID(file, lane string) string {
	name := strings.TrimSuffix(filepath.Base(file), ".txtar")
	if lane != "" {
		name = lane + "-" + name
	}
	return name
}

// keptPasses is how many passes of a scenario on a lane are kept, each for the inputs
// it passed on: an edit undone, or a branch switched back, finds the pass of the inputs
// it returns to (one kept pass was overwritten by the edit's, and the scenarios ran
// again on restore).
const keptPasses = 8

// passFile is where the pass of a scenario on a lane for inputs of key k is kept: a
// file named by the key in the scenario's folder, holding the crash matrix rows it
// recorded (crash_matrix_test.go), one a line.
func (r *reuse) passFile(file, lane, k string) string {
	return filepath.Join(r.dir, scenarioID(file, lane), k)
}

// split divides files into those to run and those whose pass on these inputs is kept
// (why, for each: the key). It keeps a pass only for a key it could compute, and keeps
// the key of each scenario it lets run for record.
func (r *reuse) split(files []string, lane string) (run []string, reused map[string]string) {
	reused = map[string]string{}
	for _, f := range files {
		if r.off != "" {
			run = append(run, f)
			continue
		}
		k, err := r.key(f, lane)
		if err != nil {
			run = append(run, f)
			continue
		}
		kept, err := os.ReadFile(r.passFile(f, lane, k))
		if err == nil && r.crashes.addKept(scenarioID(f, lane), nonEmptyLines(string(kept))) == nil {
			reused[f] = k
			continue
		}
		r.mu.Lock()
		if r.keys == nil {
			r.keys = map[string]string{}
		}
		r.keys[scenarioID(f, lane)] = k
		r.mu.Unlock()
		run = append(run, f)
	}
	return run, reused
}

func nonEmptyLines(s string) []string {
	var out []string
	for l := range strings.Lines(s) {
		if l = strings.TrimSuffix(l, "\n"); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// record keeps the pass of the scenario a testscript.Env belongs to, once it has
// passed, and forgets the pass of these inputs when it fails.
func (r *reuse) record(e *testscript.Env, file, lane string) {
	tt, ok := e.T().(interface {
		Cleanup(func())
		Failed() bool
		Skipped() bool
	})
	if r.off != "" || !ok {
		return
	}
	r.mu.Lock()
	k, keyed := r.keys[scenarioID(file, lane)]
	r.mu.Unlock()
	if !keyed {
		return // split could not key it: nothing to record
	}
	os.Remove(r.passFile(file, lane, k))
	tt.Cleanup(func() {
		if tt.Failed() || tt.Skipped() {
			return // a skipped scenario proved nothing to reuse
		}
		r.keep(file, lane, k)
	})
}

// keep writes the pass of a scenario that passed on inputs of key k (the crash matrix
// rows it recorded), and forgets its oldest passes beyond keptPasses. A scenario's
// folder that is a file (a kept pass of the single-pass layout) is replaced.
func (r *reuse) keep(file, lane, k string) {
	pass := r.passFile(file, lane, k)
	dir := filepath.Dir(pass)
	if st, err := os.Stat(dir); err == nil && !st.IsDir() {
		os.Remove(dir)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return
	}
	if err := os.WriteFile(pass, []byte(r.crashes.lines(scenarioID(file, lane))), 0o644); err != nil {
		return
	}
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) <= keptPasses {
		return
	}
	type aged struct {
		name string
		at   time.Time
	}
	var passes []aged
	for _, e := range entries {
		if info, err := e.Info(); err == nil {
			passes = append(passes, aged{e.Name(), info.ModTime()})
		}
	}
	slices.SortFunc(passes, func(a, b aged) int { return b.at.Compare(a.at) }) // newest first
	for _, p := range passes[min(keptPasses, len(passes)):] {
		os.Remove(filepath.Join(dir, p.name))
	}
}

// reportReused runs one passing subtest per reused scenario, under the scenario's own
// name, saying so: the count of scenarios is the same whether they ran or were reused.
func reportReused(t *testing.T, reused map[string]string) {
	for _, f := range slices.Sorted(maps.Keys(reused)) {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".txtar"), func(t *testing.T) {
			t.Logf("reused: it passed on the same inputs before (key %s…: its file, the harness, the binaries it runs; TAKOKIT_TEST_FRESH=1 runs it)", reused[f][:12])
		})
	}
}

// statDigest hashes the path, size and modification time of every file under dir
// ("" for none).
func statDigest(dir string) string {
	h := sha256.New()
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		if st, err := d.Info(); err == nil {
			fmt.Fprintf(h, "%q %d %d\n", p, st.Size(), st.ModTime().UnixNano())
		}
		return nil
	})
	return hex.EncodeToString(h.Sum(nil))
}
