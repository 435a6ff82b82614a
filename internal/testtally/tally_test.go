package testtally

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// closing is the closing line CI readers accept: counts, optionally after one word and a colon.
var closing = regexp.MustCompile(`^(\w+: )?\d+ passed, \d+ failed, \d+ skipped$`)

// goTestLine matches what go test prints per package; the report must print none of these.
var goTestLine = regexp.MustCompile(`(?m)^(ok  |FAIL|\?   )\s+\S+|\[no test files\]|^(PASS|FAIL)$`)

func TestConsumeCountsTestsAndPrintsOnlyFailures(t *testing.T) {
	stream := strings.Join([]string{
		`{"Action":"start","Package":"ex/a"}`,
		`{"Action":"run","Package":"ex/a","Test":"TestOK"}`,
		`{"Action":"output","Package":"ex/a","Test":"TestOK","Output":"=== RUN   TestOK\n"}`,
		`{"Action":"pass","Package":"ex/a","Test":"TestOK","Elapsed":0}`,
		`{"Action":"output","Package":"ex/a","Test":"TestBad","Output":"    a_test.go:9: boom\n"}`,
		`{"Action":"fail","Package":"ex/a","Test":"TestBad","Elapsed":0}`,
		`{"Action":"skip","Package":"ex/a","Test":"TestLater","Elapsed":0}`,
		`{"Action":"output","Package":"ex/a","Output":"FAIL\n"}`,
		`{"Action":"output","Package":"ex/a","Output":"FAIL\tex/a\t0.01s\n"}`,
		`{"Action":"fail","Package":"ex/a","Elapsed":0.01}`,
		`{"Action":"output","Package":"ex/empty","Output":"?   \tex/empty\t[no test files]\n"}`,
		`{"Action":"skip","Package":"ex/empty","Elapsed":0}`,
		`{"Action":"output","Package":"ex/b","Output":"ok  \tex/b\t0.01s\n"}`,
		`{"Action":"pass","Package":"ex/b","Elapsed":0.01}`,
	}, "\n")
	var out bytes.Buffer
	got := Consume(strings.NewReader(stream), &out)
	if got.Passed != 1 || got.Failed != 1 || got.Skipped != 1 {
		t.Fatalf("counts %+v, want 1 passed, 1 failed, 1 skipped", got)
	}
	if !strings.Contains(out.String(), "a_test.go:9: boom") {
		t.Errorf("the failed test's output is missing:\n%s", out.String())
	}
	if strings.Contains(out.String(), "=== RUN   TestOK") {
		t.Errorf("a passing test's output was printed:\n%s", out.String())
	}
	if m := goTestLine.FindString(out.String()); m != "" {
		t.Errorf("the report mimics go test with %q:\n%s", m, out.String())
	}
}

func TestBuildFailureCountsAsFailed(t *testing.T) {
	stream := strings.Join([]string{
		`{"ImportPath":"ex/broken","Action":"build-output","Output":"# ex/broken\n"}`,
		`{"ImportPath":"ex/broken","Action":"build-output","Output":"broken/x.go:3:1: syntax error: non-declaration statement outside function body\n"}`,
		`{"ImportPath":"ex/broken","Action":"build-fail"}`,
		`{"Action":"start","Package":"ex/broken"}`,
		`{"Action":"output","Package":"ex/broken","Output":"FAIL\tex/broken [build failed]\n"}`,
		`{"Action":"fail","Package":"ex/broken","Elapsed":0,"FailedBuild":"ex/broken"}`,
	}, "\n")
	var out bytes.Buffer
	got := Consume(strings.NewReader(stream), &out)
	if got.Failed != 1 || got.Passed != 0 {
		t.Fatalf("counts %+v: a package that does not build must count as one failure", got)
	}
	if !strings.Contains(out.String(), "syntax error") || !strings.Contains(out.String(), "ex/broken did not build") {
		t.Errorf("the build error is not printed:\n%s", out.String())
	}
	if m := goTestLine.FindString(out.String()); m != "" {
		t.Errorf("the report mimics go test with %q:\n%s", m, out.String())
	}
}

func TestSummaryLastLineIsTheClosingLine(t *testing.T) {
	var out bytes.Buffer
	tl := Tally{Passed: 868, Skipped: 1}
	tl.Fail("mage build")
	PrintSummary(&out, tl)
	lines := strings.Split(strings.TrimRight(out.String(), "\n"), "\n")
	last := lines[len(lines)-1]
	if last != "tests: 868 passed, 1 failed, 1 skipped" || !closing.MatchString(last) {
		t.Fatalf("last line %q", last)
	}
	if lines[0] != "failed: mage build" {
		t.Errorf("the failed step is not named first: %q", lines)
	}
	if ml := ModuleLine("hostsim", tl, time.Second); closing.MatchString(ml) || goTestLine.MatchString(ml) {
		t.Errorf("the module line %q reads as a closing or package line", ml)
	}
}

// TestRealGoTestStream runs the real go test -json on a throwaway module holding a
// passing, a failing, a skipping, a test-less and a non-building package, and checks
// the report end to end.
func TestRealGoTestStream(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command; -short skips it")
	}
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":                "module ex\n\ngo 1.22\n",
		"a/a_test.go":           "package a\nimport \"testing\"\nfunc TestOK(t *testing.T) {}\nfunc TestBad(t *testing.T) { t.Fatal(\"boom\") }\nfunc TestLater(t *testing.T) { t.Skip(\"later\") }\n",
		"empty/empty.go":        "package empty\n",
		"broken/broken.go":      "package broken\nfunc F() int { return \"x\" }\n",
		"broken/broken_test.go": "package broken\nimport \"testing\"\nfunc TestF(t *testing.T) { F() }\n",
	}
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("go", "test", "-json", "-count=1", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	raw, _ := cmd.Output() // exits 1: the failures are the point
	var out bytes.Buffer
	got := Consume(bytes.NewReader(raw), &out)
	PrintSummary(&out, got)
	if got.Passed != 1 || got.Failed != 2 || got.Skipped != 1 {
		t.Fatalf("counts %+v, want 1 passed, 2 failed (TestBad, broken), 1 skipped\n%s", got, out.String())
	}
	if m := goTestLine.FindString(out.String()); m != "" {
		t.Errorf("the report mimics go test with %q:\n%s", m, out.String())
	}
	if !strings.Contains(out.String(), "broken.go:2") {
		t.Errorf("the compile error is not printed:\n%s", out.String())
	}
	lines := strings.Split(strings.TrimRight(out.String(), "\n"), "\n")
	if last := lines[len(lines)-1]; last != "tests: 1 passed, 2 failed, 1 skipped" {
		t.Errorf("last line %q", last)
	}
}

// The module line names the packages that ran, slowest first, and counts the reused.
func TestModuleLineSaysWhatRanAndWhatWasReused(t *testing.T) {
	tl := Tally{Passed: 5, Reused: 2, Ran: []Ran{
		{"github.com/takokit/takokit/conformance", 500 * time.Millisecond},
		{"github.com/takokit/takokit/conformance/selftest", 54200 * time.Millisecond},
		{"ex/a", 5 * time.Second},
		{"ex/b", time.Second},
	}}
	want := "module conformance: 5 pass / 0 fail / 0 skip (1m0s; 4 ran: takokit/conformance/selftest 54.2s, ex/a 5s, ex/b 1s, 1 more; 2 reused)"
	if got := ModuleLine("conformance", tl, time.Minute); got != want {
		t.Errorf("module line\n got %q\nwant %q", got, want)
	}
	if got := ModuleLine("catalog", Tally{Passed: 3, Reused: 3}, time.Second); got != "module catalog: 3 pass / 0 fail / 0 skip (1s; all 3 packages reused)" {
		t.Errorf("all reused: %q", got)
	}
}

// A real go test stream run twice: the first run's packages ran, the second's were
// reused from go test's cache, and a package without tests is neither.
func TestRealStreamTellsRunFromReused(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command; -short skips it")
	}
	dir := t.TempDir()
	for name, body := range map[string]string{
		"go.mod": "module ex\n\ngo 1.22\n",
		// a mark of this run in each test, so no earlier run's result is in the cache
		"a/a_test.go":    fmt.Sprintf("package a\nimport \"testing\"\nfunc TestOK(t *testing.T) {}\nconst run = %d\n", time.Now().UnixNano()),
		"b/b_test.go":    fmt.Sprintf("package b\nimport \"testing\"\nfunc TestOK(t *testing.T) {}\nconst run = %d\n", time.Now().UnixNano()),
		"empty/empty.go": "package empty\n",
	} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	stream := func() Tally {
		cmd := exec.Command("go", "test", "-json", "./...")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
		raw, err := cmd.Output()
		if err != nil {
			t.Fatalf("go test: %v\n%s", err, raw)
		}
		return Consume(bytes.NewReader(raw), io.Discard)
	}
	first := stream()
	if len(first.Ran) != 2 || first.Reused != 0 || first.Passed != 2 {
		t.Fatalf("first run: %+v, want a and b ran, none reused", first)
	}
	second := stream()
	if len(second.Ran) != 0 || second.Reused != 2 || second.Passed != 2 {
		t.Fatalf("second run: %+v, want a and b reused (their tests still counted as passed), none ran", second)
	}
}
