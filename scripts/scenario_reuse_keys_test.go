package scripts

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// A reused pass is only as good as what it keys on: each kind of command must bring in
// the binaries it runs, and what the tables do not know must key on the whole tree.
func TestUsesOfReadsWhatAScriptRuns(t *testing.T) {
	tofu := []string{"terraform-provider-takoform", "tofu", "v1alpha3/terraform-provider-takoform"}
	for _, c := range []struct {
		name, script string
		want         scenarioUses
	}{
		{"a host and its commands", "hostsim-start SIM full\nhostsim-count SIM mutations == 0\njson-get f /a\n",
			scenarioUses{binaries: []string{"hostsim"}}},
		{"OpenTofu through tofu-env", "tofu-env SIM\n",
			scenarioUses{binaries: tofu}},
		{"exec, negated and conditioned", "! exec conformance run\n[!reference] exec tofu plan\n",
			scenarioUses{binaries: slices.Concat([]string{"conformance", "hostsim"}, tofu), docs: true}},
		{"within and each program after --", "within 2s hostsim version -- tofu version\n",
			scenarioUses{binaries: slices.Concat(tofu[:2], []string{"hostsim"}, tofu[2:])}},
		{"interrupt-when's program and its host", "interrupt-when SIM holding tofu apply\n",
			scenarioUses{binaries: slices.Concat(tofu[:2], []string{"hostsim"}, tofu[2:])}},
		{"an unknown program reads anything", "exec awk 1 file\n",
			scenarioUses{tree: true}},
		{"a tool of the work directory reads only it", "exec sed -n 1p file\nexec head -c 3 file\n",
			scenarioUses{}},
		{"a family build reads its sources and the reference", "family-provider v1beta1\n",
			scenarioUses{family: true, docs: true}},
		{"comments and files name nothing", "# exec tofu apply\n\n",
			scenarioUses{}},
	} {
		got := usesOf(c.script)
		slices.Sort(c.want.binaries) // usesOf lists them sorted
		if d := cmp.Diff(c.want, got, cmp.AllowUnexported(scenarioUses{})); d != "" {
			t.Errorf("%s: usesOf(%q) (-want +got):\n%s", c.name, c.script, d)
		}
	}
}

// Every command of the harness says what it runs: a new command that started a binary
// without a line in commandUses would let a scenario reuse a pass its binary broke.
func TestEveryCommandSaysWhatItRuns(t *testing.T) {
	for _, c := range commands {
		uses, ok := commandUses[c.name]
		if !ok {
			t.Errorf("command %s is not in commandUses: say what it runs (a program of programBinaries, \"\", \"args\" or \"family\")", c.name)
			continue
		}
		if _, bin := programBinaries[uses]; uses != "" && uses != "args" && uses != "family" && !bin {
			t.Errorf("commandUses[%s] = %q, which is no program of programBinaries", c.name, uses)
		}
	}
	for name := range commandUses {
		if !slices.ContainsFunc(commands, func(c command) bool { return c.name == name }) {
			t.Errorf("commandUses lists %s, which is no command any more", name)
		}
	}
}

// The key moves with the scenario's file, the lane and each binary the scenario runs,
// and not with a binary it does not run.
func TestReuseKeyFollowsOnlyWhatTheScenarioRuns(t *testing.T) {
	root := t.TempDir()
	bin := filepath.Join(root, "bin")
	for _, b := range []string{"hostsim", "conformance"} {
		write(t, filepath.Join(bin, b), "v1")
	}
	file := filepath.Join(root, "s.txtar")
	write(t, file, "hostsim-start SIM full\nhostsim-count SIM mutations == 0\n-- f --\nx\n")
	r := &reuse{root: root, bin: bin, harness: "h", dir: filepath.Join(root, "passes")}
	key := func() string { return mustKey(t, r, file) }
	base := key()
	write(t, filepath.Join(bin, "conformance"), "v2")
	if got := key(); got != base {
		t.Error("a rebuilt bin/conformance moved the key of a scenario that runs only hostsim")
	}
	if k, _ := r.key(file, "v1alpha3"); k == base {
		t.Error("the same scenario on another lane has the same key")
	}
	touch(t, filepath.Join(bin, "hostsim"))
	if got := key(); got != base {
		t.Error("bin/hostsim built again to the same bytes (a new time only) moved the key: its pass would not be reused")
	}
	write(t, filepath.Join(bin, "hostsim"), "v2")
	moved := key()
	if moved == base {
		t.Error("a rebuilt bin/hostsim left the key of a scenario that runs it")
	}
	write(t, file, "hostsim-start SIM full\nhostsim-count SIM mutations == 0\n-- f --\ny\n")
	if got := key(); got == moved {
		t.Error("an edited file of the scenario left its key")
	}
	r.harness = "h2"
	if got := key(); got == moved {
		t.Error("another harness left the key")
	}
	os.Remove(filepath.Join(bin, "hostsim"))
	if _, err := r.key(file, ""); err == nil {
		t.Error("a scenario whose binary is missing got a key: its pass could be reused without it")
	}
}

// twoScenarios writes, in a new root, a bin/hostsim and two scenarios that run it, named
// nameA and nameB.
func twoScenarios(t *testing.T, nameA, nameB string) (root, bin, a, b string) {
	t.Helper()
	root = t.TempDir()
	bin = filepath.Join(root, "bin")
	write(t, filepath.Join(bin, "hostsim"), "v1")
	a, b = filepath.Join(root, nameA+".txtar"), filepath.Join(root, nameB+".txtar")
	write(t, a, "hostsim-start SIM full\n")
	write(t, b, "hostsim-start SIM async\n")
	return root, bin, a, b
}

// A pass is reused only for the key it was recorded with, never when reuse is off.
func TestSplitReusesOnlyARecordedKey(t *testing.T) {
	root, bin, a, b := twoScenarios(t, "a", "b")
	r := &reuse{root: root, bin: bin, harness: "h", dir: filepath.Join(root, "passes")}
	k := mustKey(t, r, a)
	write(t, r.passFile(a, "", k), "")
	write(t, r.passFile(b, "", "an-older-key"), "")
	run, reused := r.split([]string{a, b}, "")
	if !slices.Equal(run, []string{b}) || len(reused) != 1 || reused[a] != k {
		t.Errorf("split ran %v and reused %v; want b run (its pass is of other inputs) and a reused", run, reused)
	}
	if run, _ := r.split([]string{a}, "v1alpha3"); !slices.Equal(run, []string{a}) {
		t.Error("a pass recorded on the default lane was reused on v1alpha3")
	}
	r.off = "CI runs every scenario"
	if run, reused := r.split([]string{a, b}, ""); len(run) != 2 || len(reused) != 0 {
		t.Errorf("with reuse off, split ran %v and reused %v", run, reused)
	}
}

func TestReuseIsOffWhereEveryScenarioMustRun(t *testing.T) {
	for _, v := range []string{"CI=true", "TAKOKIT_TEST_FRESH=1", "TAKOKIT_UPDATE_GOLDEN=1"} {
		t.Run(v, func(t *testing.T) {
			t.Setenv("CI", "")
			t.Setenv("TAKOKIT_TEST_FRESH", "")
			t.Setenv("TAKOKIT_UPDATE_GOLDEN", "")
			k, val, _ := strings.Cut(v, "=")
			t.Setenv(k, val)
			if reuseOff() == "" {
				t.Errorf("with %s a scenario's pass may be reused", v)
			}
		})
	}
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func touch(t *testing.T, path string) {
	t.Helper()
	later := time.Now().Add(time.Minute)
	if err := os.Chtimes(path, later, later); err != nil {
		t.Fatal(err)
	}
}

// edit changes a file's bytes, as an editor's save does.
func edit(t *testing.T, path string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	write(t, path, string(data)+"edited\n")
}

// A family build's scenario keys on the sources that build reads, and a scenario running
// a program the tables do not know on the whole tree. Both key on the files' bytes: a
// file touched (a new time, the same bytes, as a checkout or an undone edit leaves it)
// keeps both keys, so the scenarios' passes are reused.
func TestReuseKeyOfFamilyAndUnknownPrograms(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{"magefile.go", "provider/p.go", "conformance/c.go", "docs/guides/custom-family.md"} {
		write(t, filepath.Join(root, f), "v1\n")
	}
	if out, err := exec.Command("git", "-C", root, "init", "-q").CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	family, unknown := filepath.Join(root, "family.txtar"), filepath.Join(root, "unknown.txtar")
	write(t, family, "family-provider v1beta1\n")
	write(t, unknown, "exec awk 1 file\n")
	r := &reuse{root: root, bin: filepath.Join(root, "bin"), harness: "h", dir: filepath.Join(root, "passes")}
	keys := func() (string, string) { return mustKey(t, r, family), mustKey(t, r, unknown) }
	f0, u0 := keys()
	for _, f := range []string{"magefile.go", "provider/p.go", "conformance/c.go", "docs/guides/custom-family.md"} {
		touch(t, filepath.Join(root, f))
	}
	if f, u := keys(); f != f0 || u != u0 {
		t.Errorf("files touched without a change of their bytes moved a key (family build's moved: %v, unknown program's moved: %v)", f != f0, u != u0)
	}
	edit(t, filepath.Join(root, "conformance/c.go"))
	f1, u1 := keys()
	if f1 != f0 {
		t.Error("an edit of the conformance runner moved the key of a family build's scenario")
	}
	if u1 == u0 {
		t.Error("an edit anywhere left the key of a scenario running an unknown program")
	}
	edit(t, filepath.Join(root, "provider/p.go"))
	if f2, _ := keys(); f2 == f1 {
		t.Error("an edit of the provider left the key of a family build's scenario")
	}
	edit(t, filepath.Join(root, "magefile.go"))
	f3, _ := keys()
	edit(t, filepath.Join(root, "docs/guides/custom-family.md"))
	if f4, _ := keys(); f4 == f3 {
		t.Error("an edit of the family guide left the key of a family build's scenario")
	}
}

// mustKey is r's reuse key of the scenario file on the default lane; an error fails the test.
func mustKey(t *testing.T, r *reuse, file string) string {
	t.Helper()
	k, err := r.key(file, "")
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// A kept pass carries the crash matrix rows its scenario recorded, so a run that
// reuses it still lists them (marked reused); a pass whose rows do not read is not
// reused, and adds none.
func TestKeptPassCarriesItsCrashRows(t *testing.T) {
	root, bin, a, b := twoScenarios(t, "kill_a", "kill_b")
	ran := &crashMatrix{}
	row := crashRow{Point: "A", Fired: 1, Dispatch: []string{"succeeded:1"}, Converged: "yes (0.2.0 gen 2)", Mutations: 3, scenario: "kill_a"}
	ran.add(row)
	ran.add(crashRow{Point: "B", Fired: 1, scenario: "kill_b"})
	ran.add(crashRow{Point: "C", Fired: 1, scenario: "kill_a", reused: true}) // read from an older pass: not kept again
	if got, want := strings.Count(ran.lines("kill_a"), "\n"), 1; got != want {
		t.Fatalf("kill_a's lines hold %d rows, want %d (its own, recorded in this run):%s", got, want, ran.lines("kill_a"))
	}
	(&reuse{dir: filepath.Join(root, "passes"), crashes: ran}).keep(a, "", mustKey(t, &reuse{root: root, bin: bin, harness: "h"}, a))
	r := &reuse{root: root, bin: bin, harness: "h", dir: filepath.Join(root, "passes"), crashes: &crashMatrix{}}
	write(t, r.passFile(b, "", mustKey(t, r, b)), "{\"point\":\n")
	run, reused := r.split([]string{a, b}, "")
	if !slices.Equal(run, []string{b}) || len(reused) != 1 {
		t.Fatalf("split ran %v and reused %v; want kill_a reused and kill_b (its kept row is cut short) run", run, reused)
	}
	want := row
	want.reused = true
	if diff := cmp.Diff([]crashRow{want}, r.crashes.rows, cmp.AllowUnexported(crashRow{})); diff != "" {
		t.Fatalf("rows after split (-want +got):\n%s", diff)
	}
	table := r.crashes.table()
	for _, s := range []string{"succeeded:1", "yes (0.2.0 gen 2)", "kill_a (reused: its pass on the same inputs)"} {
		if !strings.Contains(table, s) {
			t.Errorf("the table lacks %q:\n%s", s, table)
		}
	}
	if got := strings.Count(ran.table(), "(reused: its pass"); got != 1 {
		t.Errorf("%d rows marked reused, want 1 (point C's):\n%s", got, ran.table())
	}
}

// A scenario keeps a pass for each of its last keptPasses inputs: after an edit and its
// undoing, the pass of the inputs it returns to is still there.
func TestPassesOfEarlierInputsAreKept(t *testing.T) {
	root := t.TempDir()
	bin := filepath.Join(root, "bin")
	a := filepath.Join(root, "a.txtar")
	write(t, a, "hostsim-start SIM full\n")
	r := &reuse{root: root, bin: bin, harness: "h", dir: filepath.Join(root, "passes"), crashes: &crashMatrix{}}
	keyOf := func(build string) string {
		write(t, filepath.Join(bin, "hostsim"), build)
		return mustKey(t, r, a)
	}
	// the scenario folder of the single-pass layout, a file, gives way
	write(t, filepath.Join(r.dir, "a"), "an old single pass")
	start := time.Now().Add(-time.Hour)
	var keys []string
	for i := range keptPasses + 2 {
		k := keyOf(fmt.Sprintf("build %d", i))
		r.keep(a, "", k)
		at := start.Add(time.Duration(i) * time.Minute)
		if err := os.Chtimes(r.passFile(a, "", k), at, at); err != nil {
			t.Fatal(err)
		}
		keys = append(keys, k)
	}
	if entries, err := os.ReadDir(filepath.Join(r.dir, "a")); err != nil || len(entries) != keptPasses {
		t.Fatalf("%d passes kept (%v), want %d", len(entries), err, keptPasses)
	}
	for i, k := range keys {
		_, err := os.Stat(r.passFile(a, "", k))
		if kept := err == nil; kept != (i >= 2) {
			t.Errorf("the pass of build %d kept: %v; want only the newest %d", i, kept, keptPasses)
		}
	}
	// back to build 5's bytes: its pass is reused; to build 0's: it was pruned, so it runs
	keyOf("build 5")
	if run, reused := r.split([]string{a}, ""); len(run) != 0 || reused[a] != keys[5] {
		t.Errorf("back on build 5, split ran %v and reused %v; want its pass reused", run, reused)
	}
	keyOf("build 0")
	if run, _ := r.split([]string{a}, ""); !slices.Equal(run, []string{a}) {
		t.Errorf("back on build 0, whose pass was pruned, split ran %v", run)
	}
}
