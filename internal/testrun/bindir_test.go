package testrun

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// checkouts makes folders standing for checkouts, one per name, under a folder of its own.
func checkouts(t *testing.T, names ...string) map[string]string {
	t.Helper()
	w := t.TempDir()
	out := map[string]string{}
	for _, n := range names {
		out[n] = filepath.Join(w, n)
		if err := os.Mkdir(out[n], 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// runs gives a run of the named checkout at a time (seconds on a fixed clock): its folder,
// BinDir keeping keep.
func runs(t *testing.T, base string, checkouts map[string]string, keep int) func(name string, when int64) string {
	return func(name string, when int64) string {
		t.Helper()
		d, err := BinDir(base, checkouts[name], time.Unix(1_800_000_000+when, 0), keep)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
}

func TestBinDirKeepsTheMostRecentlyUsedCheckouts(t *testing.T) {
	base := t.TempDir()
	dirOf := runs(t, base, checkouts(t, "a", "b", "c"), 2)
	a := dirOf("a", 1)
	if err := os.WriteFile(filepath.Join(a, "x.test"), []byte("binary"), 0o755); err != nil {
		t.Fatal(err)
	}
	if again := dirOf("a", 2); again != a {
		t.Fatalf("the same checkout got another folder: %s, then %s", a, again)
	}
	if _, err := os.Stat(filepath.Join(a, "x.test")); err != nil {
		t.Fatalf("a second run of the same checkout lost its binaries: %v", err)
	}
	b := dirOf("b", 3)
	if a == b {
		t.Fatalf("two checkouts share the folder %s", a)
	}
	stale := filepath.Join(base, "unstamped")
	if err := os.Mkdir(stale, 0o755); err != nil {
		t.Fatal(err)
	}
	c := dirOf("c", 4) // keeps b (used last before it), removes a and the unstamped folder
	if got, want := folders(t, base), sorted(b, c); !slices.Equal(got, want) {
		t.Errorf("after the third checkout: %q, want %q", got, want)
	}
	dirOf("b", 5)
	dirOf("a", 6) // now c is the least recently used
	if got, want := folders(t, base), sorted(a, b); !slices.Equal(got, want) {
		t.Errorf("after b then a ran again: %q, want %q", got, want)
	}
}

// A checkout that is gone (a CI clone removed after its run, a worktree pruned) frees its
// folder at the next run of any checkout, however recently it was used; the folders of
// checkouts still there are kept up to the count, and one recorded before the checkouts'
// paths were (no record) is kept or removed by when it was used, as before.
func TestBinDirRemovesTheFoldersOfCheckoutsThatAreGone(t *testing.T) {
	base := t.TempDir()
	w := checkouts(t, "main", "worktree", "clone")
	dirOf := runs(t, base, w, 3)
	main, worktree, clone := dirOf("main", 1), dirOf("worktree", 2), dirOf("clone", 3)
	if got, want := folders(t, base), sorted(main, worktree, clone); !slices.Equal(got, want) {
		t.Fatalf("three checkouts, three kept: %q, want %q", got, want)
	}
	if b, err := os.ReadFile(filepath.Join(clone, rootFile)); err != nil || string(b) != w["clone"]+"\n" {
		t.Errorf("the clone's folder records %q (%v), want its path", b, err)
	}
	if err := os.RemoveAll(w["clone"]); err != nil {
		t.Fatal(err)
	}
	if dirOf("main", 4) != main {
		t.Fatal("main got another folder")
	}
	if got, want := folders(t, base), sorted(main, worktree); !slices.Equal(got, want) {
		t.Errorf("after the clone was removed: %q, want %q (the clone's folder gone, the worktree's kept)", got, want)
	}
	if err := os.Remove(filepath.Join(worktree, rootFile)); err != nil { // a folder from before the record
		t.Fatal(err)
	}
	if err := os.RemoveAll(w["worktree"]); err != nil {
		t.Fatal(err)
	}
	dirOf("main", 5)
	if got, want := folders(t, base), sorted(main, worktree); !slices.Equal(got, want) {
		t.Errorf("a folder without the record is not known to be gone: %q, want %q", got, want)
	}
}

func folders(t *testing.T, base string) []string {
	t.Helper()
	es, err := os.ReadDir(base)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		out = append(out, filepath.Join(base, e.Name()))
	}
	slices.Sort(out)
	return out
}

func sorted(s ...string) []string { slices.Sort(s); return s }

func TestBinDirRefusesAFolderInsideTheCheckout(t *testing.T) {
	root := t.TempDir()
	if d, err := BinDir(filepath.Join(root, "bin", "testbin"), root, time.Now(), 2); err == nil {
		t.Fatalf("BinDir inside the checkout gave %s, want a refusal", d)
	}
	if _, err := os.Stat(filepath.Join(root, "bin")); !os.IsNotExist(err) {
		t.Errorf("the refusal left a folder behind: %v", err)
	}
}
