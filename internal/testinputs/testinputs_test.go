package testinputs

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// newRepo makes a git work tree with one tracked file, one untracked file, an ignored
// bin/ holding a built binary, and returns its root.
func newRepo(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatalf("git is needed to list the work tree: %v", err)
	}
	root := t.TempDir()
	write(t, root, ".gitignore", "/bin\n")
	write(t, root, "a.go", "package a\n")
	write(t, root, "bin/tool", "v1")
	for _, args := range [][]string{{"init", "-q"}, {"add", "a.go", ".gitignore"}} {
		if out, err := exec.Command("git", append([]string{"-C", root}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	write(t, root, "new.md", "untracked\n")
	return root
}

func write(t *testing.T, root, name, text string) {
	t.Helper()
	p := filepath.Join(root, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func treeID(t *testing.T, root string) string {
	t.Helper()
	id, err := TreeID(root, "bin/tool", "bin/absent")
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// A cached test result is only as good as the key: every kind of change the tests could
// see through a child process must change the tree's id, and nothing else may (a run that
// leaves the tree alone must be able to reuse results).
func TestTreeIDChangesWithEveryChangeOfTheTreeAndOnlyThen(t *testing.T) {
	root := newRepo(t)
	base := treeID(t, root)
	if again := treeID(t, root); again != base {
		t.Fatalf("the id of an unchanged tree moved: %s then %s", base, again)
	}
	later := time.Now().Add(time.Minute)
	changes := []struct {
		name string
		do   func()
	}{
		{"a tracked file rewritten", func() { write(t, root, "a.go", "package b\n") }},
		{"an untracked file edited", func() { write(t, root, "new.md", "edited\n") }},
		{"a file added", func() { write(t, root, "docs/added.md", "x\n") }},
		{"a file removed", func() { os.Remove(filepath.Join(root, "new.md")) }},
		{"a built binary rebuilt", func() { write(t, root, "bin/tool", "v2") }},
		{"a missing binary built", func() { write(t, root, "bin/absent", "v1") }},
		{"a file made executable", func() { os.Chmod(filepath.Join(root, "a.go"), 0o755) }},
	}
	seen := map[string]string{base: "the first tree"}
	for _, c := range changes {
		c.do()
		id := treeID(t, root)
		if prev, ok := seen[id]; ok {
			t.Errorf("%s: the tree's id %s is the one of %s", c.name, id, prev)
		}
		seen[id] = c.name
	}
	last := treeID(t, root)
	write(t, root, "bin/other-output", "an ignored file no test runs")
	if got := treeID(t, root); got != last {
		t.Errorf("an ignored file that is not a listed binary changed the id: %s then %s", last, got)
	}
	os.Chtimes(filepath.Join(root, "a.go"), later, later)
	os.Chtimes(filepath.Join(root, "bin/tool"), later, later)
	if got := treeID(t, root); got != last {
		t.Errorf("files touched, their bytes unchanged, changed the id: %s then %s", last, got)
	}
	old, _ := os.ReadFile(filepath.Join(root, "a.go"))
	write(t, root, "a.go", "package edited\n")
	if got := treeID(t, root); got == last {
		t.Errorf("an edit kept the id %s", got)
	}
	write(t, root, "a.go", string(old))
	if got := treeID(t, root); got != last {
		t.Errorf("an edit undone did not give the tree back its id: %s, then %s", last, got)
	}
	// git still lists a tracked file deleted from the work tree: it is hashed as missing
	os.Remove(filepath.Join(root, "a.go"))
	if got := treeID(t, root); got == last {
		t.Errorf("a tracked file deleted kept the id %s", got)
	}
}

func TestTreeIDOutsideAWorkTreeSaysSo(t *testing.T) {
	_, err := TreeID(t.TempDir())
	if err == nil {
		t.Fatal("a directory git does not know gave an id: the tests could reuse results it cannot key")
	}
}

func TestDeclareReadsTheVariables(t *testing.T) {
	t.Setenv(EnvTreeID, "abc")
	t.Setenv(EnvBinID, "def")
	if got := Declare(); got != "abc" {
		t.Errorf("Declare() = %q, want %s's value", got, EnvTreeID)
	}
	if got := DeclareBin(); got != "def" {
		t.Errorf("DeclareBin() = %q, want %s's value", got, EnvBinID)
	}
	t.Setenv("TAKOKIT_BIN_ID_HOSTSIM", "h")
	t.Setenv("TAKOKIT_BIN_ID_TOFU", "o")
	if got := DeclareBin("bin/hostsim", "bin/tofu"); got != "h o" {
		t.Errorf("DeclareBin(bin/hostsim, bin/tofu) = %q, want the two binaries' own ids", got)
	}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "BinEnv") {
			t.Errorf("DeclareBin of a binary no variable carries: recovered %v, want a panic naming BinEnv", r)
		}
	}()
	DeclareBin("bin/conformance")
}

// The binaries' id moves with a rebuilt binary and only with the listed files: an edit
// elsewhere in the tree (a guide, say) leaves the results of tests that run only bin/.
func TestBinIDFollowsOnlyTheListedFiles(t *testing.T) {
	root := newRepo(t)
	base := BinID(root, "bin/tool", "bin/absent")
	write(t, root, "a.go", "package edited\n")
	write(t, root, "docs/guide.md", "new\n")
	if got := BinID(root, "bin/tool", "bin/absent"); got != base {
		t.Errorf("an edit outside the listed files moved the binaries' id: %s then %s", base, got)
	}
	write(t, root, "bin/tool", "rebuilt")
	rebuilt := BinID(root, "bin/tool", "bin/absent")
	if rebuilt == base {
		t.Errorf("a rebuilt binary left the binaries' id at %s", base)
	}
	write(t, root, "bin/absent", "built")
	built := BinID(root, "bin/tool", "bin/absent")
	if built == rebuilt {
		t.Errorf("a binary built where none was left the binaries' id at %s", built)
	}
	// built again to the same bytes (a later time, a new file): the same id
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(filepath.Join(root, "bin/tool"), later, later); err != nil {
		t.Fatal(err)
	}
	if got := BinID(root, "bin/tool", "bin/absent"); got != built {
		t.Errorf("a binary touched but not changed moved the binaries' id from %s to %s", built, got)
	}
	os.Remove(filepath.Join(root, "bin/tool"))
	write(t, root, "bin/tool", "rebuilt")
	if got := BinID(root, "bin/tool", "bin/absent"); got != built {
		t.Errorf("a binary written anew with its bytes moved the binaries' id from %s to %s", built, got)
	}
	// an edit undone: the binary's earlier bytes bring back the earlier id
	write(t, root, "bin/absent", "built, then edited")
	if got := BinID(root, "bin/tool", "bin/absent"); got == built {
		t.Error("a binary rebuilt to other bytes left the binaries' id")
	}
	write(t, root, "bin/absent", "built")
	if got := BinID(root, "bin/tool", "bin/absent"); got != built {
		t.Errorf("the binary's earlier bytes gave id %s, not the %s they had", got, built)
	}
}

// The environment mage gives the tests carries both ids, and one id per binary of BinEnv,
// each the one the tests would compute: a job without them would key nothing on bin/ or
// the tree.
func TestEnvCarriesBothIDs(t *testing.T) {
	root := newRepo(t)
	defer func(p map[string]Part) { Parts = p }(Parts)
	Parts = map[string]Part{"SOURCES": {Paths: []string{"a.go"}, Bins: []string{"bin/tool"}}}
	built := []string{"bin/tool", "bin/hostsim", "bin/tofu", "bin/terraform-provider-takoform"}
	env, err := Env(root, built...)
	if err != nil {
		t.Fatal(err)
	}
	tree, err := TreeID(root, built...)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{EnvTreeID + "=" + tree, EnvBinID + "=" + BinID(root, built...),
		EnvChromiumID + "=" + ChromiumID(), "TAKOKIT_REFERENCE_ID=" + ReferenceID(root),
		"TAKOKIT_BIN_ID_HOSTSIM=" + BinID(root, "bin/hostsim"),
		"TAKOKIT_BIN_ID_PROVIDER=" + BinID(root, "bin/terraform-provider-takoform"),
		"TAKOKIT_BIN_ID_TOFU=" + BinID(root, "bin/tofu")}
	part, err := TreeIDOf(root, []string{"a.go"}, "bin/tool")
	if err != nil {
		t.Fatal(err)
	}
	want = append(want, EnvTreeID+"_SOURCES="+part)
	if !slices.Equal(env, want) {
		t.Fatalf("Env = %q, want %q", env, want)
	}
	if _, err := Env(t.TempDir(), built...); err == nil {
		t.Error("Env outside a git work tree gave ids")
	}
	if _, err := Env(root, "bin/tool", "bin/tofu", "bin/terraform-provider-takoform"); err == nil || !strings.Contains(err.Error(), "bin/hostsim") {
		t.Errorf("Env without bin/hostsim among the built files: %v, want an error naming bin/hostsim (a test reading its id would key on nothing)", err)
	}
}

// A binary's own id moves when that binary is rebuilt and only then: a test that runs
// bin/hostsim alone keeps its result when bin/tofu or the provider is rebuilt.
func TestEachBinarysIDMovesWithItAlone(t *testing.T) {
	root := newRepo(t)
	defer func(p map[string]Part) { Parts = p }(Parts)
	Parts = nil
	built := []string{"bin/tool", "bin/hostsim", "bin/tofu", "bin/terraform-provider-takoform"}
	write(t, root, "bin/hostsim", "h1")
	write(t, root, "bin/tofu", "t1")
	vars := func() map[string]string {
		env, err := Env(root, built...)
		if err != nil {
			t.Fatal(err)
		}
		m := map[string]string{}
		for _, kv := range env {
			k, v, _ := strings.Cut(kv, "=")
			m[k] = v
		}
		return m
	}
	base := vars()
	write(t, root, "bin/tool", "rebuilt")
	write(t, root, "a.go", "package edited\n")
	after := vars()
	if after[EnvBinID] == base[EnvBinID] {
		t.Errorf("a rebuilt bin/tool left %s at %s", EnvBinID, base[EnvBinID])
	}
	for _, name := range BinEnv {
		if after[name] != base[name] {
			t.Errorf("a rebuilt bin/tool and an edited source moved %s: %s then %s", name, base[name], after[name])
		}
	}
	write(t, root, "bin/hostsim", "h2")
	last := vars()
	if last["TAKOKIT_BIN_ID_HOSTSIM"] == after["TAKOKIT_BIN_ID_HOSTSIM"] {
		t.Error("a rebuilt bin/hostsim left TAKOKIT_BIN_ID_HOSTSIM as it was")
	}
	if last["TAKOKIT_BIN_ID_TOFU"] != after["TAKOKIT_BIN_ID_TOFU"] {
		t.Error("a rebuilt bin/hostsim moved TAKOKIT_BIN_ID_TOFU")
	}
}

// A part of the tree moves with the files under it and only with them.
func TestTreeIDOfFollowsOnlyItsPart(t *testing.T) {
	root := newRepo(t)
	write(t, root, "docs/guide.md", "g\n")
	part := func() string {
		id, err := TreeIDOf(root, []string{"a.go", "docs"}, "bin/tool")
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	base := part()
	write(t, root, "new.md", "edited outside the part\n")
	if got := part(); got != base {
		t.Error("an edit outside the part moved its id")
	}
	write(t, root, "docs/guide.md", "edited\n")
	edited := part()
	if edited == base {
		t.Error("an edit of a file under the part left its id")
	}
	write(t, root, "bin/tool", "rebuilt")
	if part() == edited {
		t.Error("a rebuilt extra file left the part's id")
	}
	if _, err := TreeIDOf(root, []string{"nothing-here"}); err == nil {
		t.Error("a part that holds no file got an id")
	}
}

// Each part names files of this repository, each pathspec at least one: a part whose
// pathspec matched nothing after a rename would leave that input unkeyed.
func TestEveryPartNamesFilesOfTheRepository(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	for name, p := range Parts {
		for _, spec := range p.Paths {
			if _, err := TreeIDOf(root, []string{spec}); err != nil {
				t.Errorf("part %s: %v", name, err)
			}
		}
		for _, b := range p.Bins {
			if !strings.HasPrefix(b, "bin/") {
				t.Errorf("part %s runs %s, which is not a built binary under bin/", name, b)
			}
		}
	}
}

func TestDeclarePartReadsItsVariable(t *testing.T) {
	t.Setenv(EnvTreeID+"_GUIDE_EXAMPLES", "g")
	if got := DeclarePart("GUIDE_EXAMPLES"); got != "g" {
		t.Errorf("DeclarePart(GUIDE_EXAMPLES) = %q, want its variable's value", got)
	}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "Parts") {
			t.Errorf("DeclarePart of an unknown part: recovered %v, want a panic naming Parts", r)
		}
	}()
	DeclarePart("NO_SUCH_PART")
}

// What lies outside the work tree has ids that move with it: the browser the browser
// tests would drive, and the published reference documents; each is "absent" when
// there is none, and becomes something else when one appears.
func TestOutsideIDsFollowTheBrowserAndTheDocuments(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("PATH", dir) // no Chromium on it
	t.Setenv("TAKOKIT_CHROMIUM", "")
	if got := ChromiumID(); got != "absent" {
		t.Errorf("ChromiumID with no browser = %q, want absent", got)
	}
	browser := filepath.Join(dir, "chromium")
	if err := os.WriteFile(browser, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if p, ok := Chromium(); !ok || p != browser {
		t.Fatalf("Chromium() = %q, %v; want %s, found on PATH", p, ok, browser)
	}
	installed := ChromiumID()
	if installed == "absent" {
		t.Fatal("ChromiumID with a browser on PATH is still absent")
	}
	if err := os.WriteFile(browser, []byte("#!/bin/sh\n# upgraded\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if ChromiumID() == installed {
		t.Error("ChromiumID did not move when the browser changed")
	}
	t.Setenv("TAKOKIT_CHROMIUM", filepath.Join(dir, "elsewhere"))
	if p, _ := Chromium(); p != filepath.Join(dir, "elsewhere") {
		t.Errorf("Chromium() = %q; TAKOKIT_CHROMIUM comes first", p)
	}

	// as `go tool mage` asks, from the workspace root as ".": the documents are found
	// beside it, at ../shared/reference
	ws := filepath.Join(t.TempDir(), "main")
	write(t, ws, "go.work", "go 1.26\n")
	refs := filepath.Join(ws, "..", "shared", "reference")
	t.Setenv("TAKOKIT_REFERENCE_DIR", "")
	t.Chdir(ws)
	if got := ReferenceID("."); got != "absent" {
		t.Errorf("ReferenceID with no documents = %q, want absent", got)
	}
	write(t, refs, "takoform-v1beta1/host-api-v1beta1.md", "v1")
	first := ReferenceID(".")
	if first == "absent" {
		t.Fatal("ReferenceID with a document is still absent")
	}
	if again := ReferenceID("."); again != first {
		t.Errorf("ReferenceID moved with nothing changed: %s then %s", first, again)
	}
	write(t, refs, "takoform-v1beta1/host-api-v1beta1.md", "v2, longer")
	if ReferenceID(".") == first {
		t.Error("ReferenceID did not move when a document changed")
	}
	// TAKOKIT_REFERENCE_DIR, relative too, names them instead
	other := filepath.Join(ws, "refs")
	write(t, other, "takoform-v1alpha3/host-api.md", "v1")
	t.Setenv("TAKOKIT_REFERENCE_DIR", "refs")
	named := ReferenceID(".")
	write(t, other, "takoform-v1alpha3/host-api.md", "v2, longer")
	if named == "absent" || ReferenceID(".") == named {
		t.Errorf("ReferenceID of TAKOKIT_REFERENCE_DIR=refs did not follow its documents (first %s)", named)
	}
}

// SOURCES, the part the guides and the release snapshot key on, leaves the Go test files
// out and takes every built binary: an edited test keeps its id, an edited source or any
// rebuilt binary moves it.
func TestSourcesLeaveTheGoTestsOutAndTakeEveryBinary(t *testing.T) {
	root := newRepo(t)
	write(t, root, "pkg/a_test.go", "package a\n")
	write(t, root, "pkg/testdata/in.txt", "read by the tests only\n")
	write(t, root, "bin/hostsim", "h1")
	write(t, root, "internal/mutate/killers.tsv", "k\t.\tTestA\t\n")
	defer func(p map[string]Part) { Parts = p }(Parts)
	Parts = map[string]Part{"SOURCES": Parts["SOURCES"]}
	built := []string{"bin/tool", "bin/hostsim", "bin/tofu", "bin/terraform-provider-takoform"}
	id := func() string {
		env, err := Env(root, built...)
		if err != nil {
			t.Fatal(err)
		}
		for _, kv := range env {
			if k, v, _ := strings.Cut(kv, "="); k == EnvTreeID+"_SOURCES" {
				return v
			}
		}
		t.Fatal("Env carries no id of SOURCES")
		return ""
	}
	base := id()
	write(t, root, "pkg/a_test.go", "package a\n\nfunc TestEdited() {}\n")
	if id() != base {
		t.Error("an edited Go test moved the id of SOURCES")
	}
	write(t, root, "internal/mutate/killers.tsv", "k\t.\tTestB\t\n")
	if id() != base {
		t.Error("a new mutation record moved the id of SOURCES")
	}
	write(t, root, "pkg/testdata/in.txt", "edited\n")
	moved := id()
	if moved == base {
		t.Error("an edited file beside the tests (testdata) left the id of SOURCES: only Go test files are left out")
	}
	write(t, root, "a.go", "package edited\n")
	edited := id()
	if edited == moved {
		t.Error("an edited source left the id of SOURCES")
	}
	write(t, root, "bin/hostsim", "h2")
	if id() == edited {
		t.Error("a rebuilt bin/hostsim, which no Bins list names, left the id of SOURCES")
	}
}
