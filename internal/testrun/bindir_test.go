package testrun

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

func TestBinDirKeepsTheMostRecentlyUsedCheckouts(t *testing.T) {
	base := t.TempDir()
	at := func(s int64) time.Time { return time.Unix(1_800_000_000+s, 0) }
	dirOf := func(root string, when int64) string {
		t.Helper()
		d, err := BinDir(base, root, at(when), 2)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	a := dirOf("/w/a", 1)
	if err := os.WriteFile(filepath.Join(a, "x.test"), []byte("binary"), 0o755); err != nil {
		t.Fatal(err)
	}
	if again := dirOf("/w/a", 2); again != a {
		t.Fatalf("the same checkout got another folder: %s, then %s", a, again)
	}
	if _, err := os.Stat(filepath.Join(a, "x.test")); err != nil {
		t.Fatalf("a second run of the same checkout lost its binaries: %v", err)
	}
	b := dirOf("/w/b", 3)
	if a == b {
		t.Fatalf("two checkouts share the folder %s", a)
	}
	stale := filepath.Join(base, "unstamped")
	if err := os.Mkdir(stale, 0o755); err != nil {
		t.Fatal(err)
	}
	c := dirOf("/w/c", 4) // keeps b (used last before it), removes a and the unstamped folder
	if got, want := folders(t, base), sorted(b, c); !slices.Equal(got, want) {
		t.Errorf("after the third checkout: %q, want %q", got, want)
	}
	dirOf("/w/b", 5)
	dirOf("/w/a", 6) // now c is the least recently used
	if got, want := folders(t, base), sorted(a, b); !slices.Equal(got, want) {
		t.Errorf("after b then a ran again: %q, want %q", got, want)
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
