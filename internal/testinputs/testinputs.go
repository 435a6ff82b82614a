// Package testinputs tells `go test`'s result cache about inputs it cannot see.
//
// go test reuses a package's last result when its test binary, flags, the environment
// variables it read and the files it opened inside its module are unchanged. It does not
// see what a child process reads (goreleaser building the sources, OpenTofu running
// bin/terraform-provider-takoform, `go tool mage` building a family), nor files outside
// the package's module (bin/ for the provider and conformance modules). `go tool mage
// test` therefore puts ids in the environment: BinID, of the binaries it built
// (EnvBinID), one BinID per binary a test may run alone (BinEnv), and TreeID, of every
// file of the work tree and those binaries (EnvTreeID). A test whose programs read only
// bin/ calls DeclareBin, naming the binaries it runs when it runs only some; one whose
// programs read the sources calls Declare. go test then keys the package's result on
// what it read, so a change it covers reruns the package, and only such a change
// (docs/decisions.md#test-cache).
package testinputs

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"

	"github.com/takokit/takokit/catalog/reftest"
	"github.com/takokit/takokit/internal/fsx"
)

// EnvTreeID and EnvBinID are the environment variables that carry TreeID and BinID.
// EnvChromiumID carries ChromiumID: the browser the browser tests drive lies outside
// the workspace, where go test does not look (reftest.EnvID does the same for the
// published reference documents).
const (
	EnvTreeID     = "TAKOKIT_TREE_ID"
	EnvBinID      = "TAKOKIT_BIN_ID"
	EnvChromiumID = "TAKOKIT_CHROMIUM_ID"
)

// BinEnv names, for each binary a test may run without the others, the variable that
// carries that binary's id alone: a test of the conformance module runs bin/hostsim and
// nothing else of bin/, so a rebuilt provider must not rerun it. Tests in other modules
// read these names as literals; the guard test holds every such literal to this table.
var BinEnv = map[string]string{
	"bin/hostsim":                     "TAKOKIT_BIN_ID_HOSTSIM",
	"bin/tofu":                        "TAKOKIT_BIN_ID_TOFU",
	"bin/terraform-provider-takoform": "TAKOKIT_BIN_ID_PROVIDER",
}

// Part is a part of the tree some tests' programs read alone: git pathspecs, and the
// built binaries (paths relative to root) they run, or every binary the build writes
// (AllBins).
type Part struct {
	Paths, Bins []string
	AllBins     bool
}

// noGoTests is the pathspec leaving out the repository's Go test files: a program that
// builds or reads the sources but never compiles the repository's tests (go build, a
// goreleaser build, a module replacing ours) gives the same answer whatever they hold.
const noGoTests = ":(glob,exclude)**/*_test.go"

// noMutationRecord leaves out the mutation runner's record of which tests killed
// which mutant (docs/mutation.md#killers-first): only `go tool mage mutate` reads
// it, and every committed mutation run rewrites it.
const noMutationRecord = ":(exclude)internal/mutate/killers.tsv"

// Parts are the parts of the tree a test may key on instead of the whole tree (Env sets
// EnvTreeID + "_" + name for each; DeclarePart reads it): an edit outside a part, a
// change to the conformance runner say, keeps the results of the tests that read only
// the part.
var Parts = map[string]Part{
	// internal/guidetest: the guides' acceptance examples build modules replacing
	// catalog, hostsim and provider, copy catalog/data, and run bin/tofu
	"GUIDE_EXAMPLES": {
		Paths: []string{"docs/guides/testing-with-hostsim.md", "docs/guides/custom-family.md", "catalog", "hostsim", "provider", noGoTests},
		Bins:  []string{"bin/tofu"},
	},
	// internal/guides and internal/release: the guides run bin/ and `go tool mage`
	// targets that build, and the release snapshot builds every binary with
	// goreleaser; none compiles or reads a test of the repository, so an edit of
	// a test alone keeps their results (docs/decisions.md#test-cache); nor do they
	// read the mutation record
	"SOURCES": {Paths: []string{".", noGoTests, noMutationRecord}, AllBins: true},
	// internal/providerdocs: tfplugindocs renders the templates and examples with the
	// schema of the built provider; tofu validates the examples
	"PROVIDER_DOCS": {
		Paths: []string{"templates", "examples", "docs/index.md", "docs/resources", "internal/providerdocs"},
		Bins:  []string{"bin/tofu", "bin/terraform-provider-takoform", "bin/tfplugindocs"},
	},
}

// DeclarePart reads the id of the named part of Parts, keying the calling package's
// result on it (in place of Declare's whole tree). It panics on a part Parts does not
// name, which would key the result on nothing.
func DeclarePart(name string) string {
	if _, ok := Parts[name]; !ok {
		panic(fmt.Sprintf("testinputs.DeclarePart(%q): no such part; add it to Parts", name))
	}
	return os.Getenv(EnvTreeID + "_" + name)
}

// Declare reads EnvTreeID so that go test keys the calling package's result on the whole
// work tree: for tests whose programs read the sources. It returns the value, "" outside
// `go tool mage` (plain `go test` with -count=1 is then the way to rerun such a package).
func Declare() string {
	return os.Getenv(EnvTreeID)
}

// DeclareBin reads EnvBinID so that go test keys the calling package's result on the
// built binaries: for tests whose programs are bin/'s and read nothing else of the tree.
// Given binaries (keys of BinEnv), it reads only their ids: the result is then kept
// when another binary is rebuilt. It panics on a binary BinEnv does not name, which
// would key the result on nothing.
func DeclareBin(binaries ...string) string {
	if len(binaries) == 0 {
		return os.Getenv(EnvBinID)
	}
	var ids []string
	for _, b := range binaries {
		name, ok := BinEnv[b]
		if !ok {
			panic(fmt.Sprintf("testinputs.DeclareBin(%q): no variable carries that binary's id alone; add it to BinEnv", b))
		}
		ids = append(ids, os.Getenv(name))
	}
	return strings.Join(ids, " ")
}

// Env is what `go tool mage` adds to every test job's environment: EnvTreeID and
// EnvBinID of the work tree at root and of its built binaries (paths relative to root),
// EnvChromiumID and reftest.EnvID of what lies outside it, then each BinEnv variable
// with its binary's id. A binary of BinEnv missing from built is an error: a test
// reading its variable would key its result on nothing.
func Env(root string, built ...string) ([]string, error) {
	tree, err := TreeID(root, built...)
	if err != nil {
		return nil, fmt.Errorf("the work tree's id for the test cache: %w", err)
	}
	env := []string{EnvTreeID + "=" + tree, EnvBinID + "=" + BinID(root, built...),
		EnvChromiumID + "=" + ChromiumID(), reftest.EnvID + "=" + ReferenceID(root)}
	for _, b := range slices.Sorted(maps.Keys(BinEnv)) {
		if !slices.Contains(built, b) {
			return nil, fmt.Errorf("the test cache keys tests on %s alone (testinputs.BinEnv), but the build does not list it among the binaries it writes", b)
		}
		env = append(env, BinEnv[b]+"="+BinID(root, b))
	}
	for _, name := range slices.Sorted(maps.Keys(Parts)) {
		bins := Parts[name].Bins
		if Parts[name].AllBins {
			bins = built
		}
		id, err := TreeIDOf(root, Parts[name].Paths, bins...)
		if err != nil {
			return nil, fmt.Errorf("the id of the tree's part %s for the test cache: %w", name, err)
		}
		env = append(env, EnvTreeID+"_"+name+"="+id)
	}
	return env, nil
}

// BinID hashes the path and the bytes of each file (relative to root; a missing one is
// hashed as missing). By their bytes, not their times: a binary built again to the same
// bytes, after an edit undone or a branch switched back, has the id it had, and go test
// finds the results it kept for it (docs/decisions.md#test-cache).
func BinID(root string, files ...string) string {
	files = slices.Clone(files)
	slices.Sort(files)
	files = slices.Compact(files)
	h := sha256.New()
	for _, f := range files {
		d, err := contentDigest(filepath.Join(root, f))
		if err != nil {
			fmt.Fprintf(h, "%q missing\n", f)
			continue
		}
		fmt.Fprintf(h, "%q %s\n", f, d)
	}
	return hex.EncodeToString(h.Sum(nil))[:32]
}

// digests remembers each file's SHA-256 by its path, size, modification time and inode,
// so a process that asks for a binary's id many times (the scenarios, one key each)
// reads it once.
var digests sync.Map

func contentDigest(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	st, err := os.Stat(abs)
	if err != nil {
		return "", err
	}
	var ino uint64
	if sys, ok := st.Sys().(*syscall.Stat_t); ok {
		ino = sys.Ino
	}
	key := fmt.Sprintf("%s %d %d %d", abs, st.Size(), st.ModTime().UnixNano(), ino)
	if d, ok := digests.Load(key); ok {
		return d.(string), nil
	}
	d, err := fsx.SHA256(abs)
	if err != nil {
		return "", err
	}
	digests.Store(key, d)
	return d, nil
}

// TreeID hashes the path, mode and bytes of every file git lists in root (tracked,
// and untracked unless ignored), and the extra files (paths relative to root, such as
// the built binaries under the ignored bin/), as BinID does; a missing file is hashed as
// missing. By their bytes, not their times: an edit undone, or a branch switched back,
// gives the tree the id it had, and go test finds the results it kept for it.
func TreeID(root string, extra ...string) (string, error) {
	return TreeIDOf(root, nil, extra...)
}

// TreeIDOf is TreeID over the part of the tree the git pathspecs name (a directory, a
// file, a glob such as mage_*.go; nil: the whole tree): for a program that reads only
// that part, so that an edit elsewhere keeps what it decided.
func TreeIDOf(root string, pathspecs []string, extra ...string) (string, error) {
	files, err := ListFiles(root, pathspecs...)
	if err != nil {
		return "", err
	}
	if pathspecs != nil && len(files) == 0 {
		return "", fmt.Errorf("git ls-files in %s lists no file under %v: a part of the tree that holds nothing keys on nothing", root, pathspecs)
	}
	sum := sha256.Sum256([]byte(hashFiles(root, files) + BinID(root, extra...)))
	return hex.EncodeToString(sum[:])[:32], nil
}

// ListFiles is what git lists in root under the pathspecs (none: the whole tree):
// tracked files, and untracked ones unless ignored, relative to root. A test that
// reads the tree through this list opens no directory, so go test does not key its
// result on directory times that git and the builds move on every run.
func ListFiles(root string, pathspecs ...string) ([]string, error) {
	args := []string{"-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard"}
	if len(pathspecs) > 0 {
		args = append(append(args, "--"), pathspecs...)
	}
	cmd := exec.Command("git", args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git ls-files in %s: %v: %s", root, err, stderr.String())
	}
	var files []string
	for _, p := range bytes.Split(out, []byte{0}) {
		if len(p) > 0 {
			files = append(files, string(p))
		}
	}
	return files, nil
}

// hashFiles hashes the path, mode and bytes of each file (relative to root); a
// symbolic link by its target, a missing file as missing.
func hashFiles(root string, files []string) string {
	return hashEach(root, files, func(p string, st fs.FileInfo) string {
		switch {
		case st.Mode()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			return fmt.Sprintf("%o link %s", st.Mode(), target)
		case st.Mode().IsRegular():
			d, err := contentDigest(p)
			if err != nil {
				d = "unreadable"
			}
			return fmt.Sprintf("%o %s", st.Mode(), d)
		}
		return fmt.Sprintf("%o", st.Mode())
	})
}

// hashStats hashes the path, size, mode and modification time of each file (relative
// to root): for files outside the tree too large to read on every run (the browser).
func hashStats(root string, files []string) string {
	return hashEach(root, files, func(_ string, st fs.FileInfo) string {
		return fmt.Sprintf("%d %o %d", st.Size(), st.Mode(), st.ModTime().UnixNano())
	})
}

// hashEach hashes each file's path (relative to root, each once, sorted) with what
// describe says of it, or "missing".
func hashEach(root string, files []string, describe func(path string, st fs.FileInfo) string) string {
	files = slices.Clone(files)
	slices.Sort(files)
	files = slices.Compact(files)
	h := sha256.New()
	for _, f := range files {
		p := filepath.Join(root, f)
		st, err := os.Lstat(p)
		if err != nil {
			fmt.Fprintf(h, "%q missing\n", f)
			continue
		}
		fmt.Fprintf(h, "%q %s\n", f, describe(p, st))
	}
	return hex.EncodeToString(h.Sum(nil))[:32]
}

// chromiumNames are the commands a Chromium answers to, in the order they are looked for.
var chromiumNames = []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"}

// Chromium is the browser the browser tests drive: TAKOKIT_CHROMIUM, else the first of
// chromiumNames on PATH. ok is false when there is none.
func Chromium() (path string, ok bool) {
	if p := os.Getenv("TAKOKIT_CHROMIUM"); p != "" {
		return p, true
	}
	for _, name := range chromiumNames {
		if p, err := exec.LookPath(name); err == nil {
			return p, true
		}
	}
	return "", false
}

// ChromiumID hashes the path, size, mode and modification time of the browser Chromium
// finds and of the file its path resolves to (a package upgrade rewrites them);
// "absent" without one.
func ChromiumID() string {
	p, ok := Chromium()
	if !ok {
		return "absent"
	}
	files := []string{p}
	if r, err := filepath.EvalSymlinks(p); err == nil {
		files = append(files, r)
	}
	return hashStats("/", files)
}

// ReferenceID hashes the path, size, mode and modification time of every file of the
// published reference documents that reftest finds from root; "absent" without them.
func ReferenceID(root string) string {
	dir, ok := reftest.Find(root)
	if !ok {
		return "absent"
	}
	var files []string
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files = append(files, p)
		}
		return nil
	})
	if len(files) == 0 {
		return "absent"
	}
	return hashStats("/", files)
}
