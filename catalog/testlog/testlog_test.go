package testlog

import (
	"os"
	"path/filepath"
	"testing"
)

func rewrite(t *testing.T, wd, log string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "testlog.txt")
	if err := os.WriteFile(path, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Rewrite(path, wd); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(got)
}

// Two runs of parallel tests read the same inputs in another order, and change into
// temporary directories of other names: their lists come out the same.
func TestTwoOrdersOfTheSameReadsGiveOneList(t *testing.T) {
	a := "# test log\ngetenv TMPDIR\nopen testdata/a.txt\ngetenv PWD\nopen testdata/b.txt\nchdir /tmp/TestX111/001\nstat go.work\ngetenv TMPDIR\n"
	b := "# test log\nopen testdata/b.txt\ngetenv PWD\ngetenv TMPDIR\nopen testdata/a.txt\nchdir /tmp/TestX222/001\nstat go.work\n"
	ra, rb := rewrite(t, "/m/pkg", a), rewrite(t, "/m/pkg", b)
	want := "# test log\ngetenv PWD\ngetenv TMPDIR\nopen /m/pkg/testdata/a.txt\nopen /m/pkg/testdata/b.txt\nstat /tmp/TestX111/001\nstat /tmp/TestX111/001/go.work\n"
	if ra != want {
		t.Errorf("first run's list\n%s\nwant\n%s", ra, want)
	}
	// the second run's temporary directory has another name: outside the module, which
	// the go command does not look at, so only the names differ
	wantB := "# test log\ngetenv PWD\ngetenv TMPDIR\nopen /m/pkg/testdata/a.txt\nopen /m/pkg/testdata/b.txt\nstat /tmp/TestX222/001\nstat /tmp/TestX222/001/go.work\n"
	if rb != wantB {
		t.Errorf("second run's list\n%s\nwant\n%s", rb, wantB)
	}
}

// A file read after a change of directory is named from that directory; one read
// before it, from where the tests started.
func TestRelativePathsFollowTheDirectory(t *testing.T) {
	got := rewrite(t, "/m/pkg", "# test log\nopen x.txt\nchdir /m/pkg/sub\nopen y.txt\n")
	want := "# test log\nopen /m/pkg/sub/y.txt\nopen /m/pkg/x.txt\nstat /m/pkg/sub\n"
	if got != want {
		t.Errorf("list\n%s\nwant\n%s", got, want)
	}
}

// A file that is not a test log is left alone and named in the error.
func TestAnotherFileIsNotRewritten(t *testing.T) {
	path := filepath.Join(t.TempDir(), "other.txt")
	if err := os.WriteFile(path, []byte("not a log\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Rewrite(path, "/"); err == nil {
		t.Fatal("a file without the header was rewritten")
	}
	if got, _ := os.ReadFile(path); string(got) != "not a log\n" {
		t.Errorf("the file changed to %q", got)
	}
}
