package catalog

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const goodDir = "testdata/good/example"

// TestTestdataIsCurrent regenerates the test catalogs and compares them with the
// committed trees (TAKOKIT_UPDATE_TESTDATA=1 rewrites them).
func TestTestdataIsCurrent(t *testing.T) {
	update := os.Getenv("TAKOKIT_UPDATE_TESTDATA") == "1"
	trees := map[string]map[string][]byte{goodDir: baseCatalog().seal(t)}
	for _, bc := range badCases {
		c := baseCatalog()
		bc.mutate(c)
		trees[filepath.Join("testdata/bad", bc.rule)] = c.seal(t)
	}
	entries, _ := os.ReadDir("testdata/bad")
	for _, e := range entries {
		if _, ok := trees[filepath.Join("testdata/bad", e.Name())]; !ok {
			t.Errorf("testdata/bad/%s belongs to no bad case; remove it", e.Name())
		}
	}
	for dir, want := range trees {
		if update {
			writeTree(t, dir, want)
			continue
		}
		if d := treeDiff(want, readTree(t, dir)); d != "" {
			t.Errorf("%s is stale (%s); regenerate with TAKOKIT_UPDATE_TESTDATA=1 go test -run TestTestdataIsCurrent", dir, d)
		}
	}
}

func TestGoodTestCatalogLoads(t *testing.T) {
	if _, err := Load(os.DirFS(goodDir)); err != nil {
		t.Fatalf("the base test catalog must load:\n%v", err)
	}
}

// TestAuthoringRules loads every catalog under testdata/bad/ and asserts that the
// loader refuses it with a line naming the file, the pointer and the rule.
func TestAuthoringRules(t *testing.T) {
	for _, bc := range badCases {
		t.Run(bc.rule, func(t *testing.T) {
			c, err := Load(os.DirFS(filepath.Join("testdata/bad", bc.rule)))
			if err == nil {
				t.Fatalf("catalog breaking %q loaded (%d forms); want a refusal", bc.rule, len(c.Forms()))
			}
			var le *LoadError
			if !errors.As(err, &le) {
				t.Fatalf("error is %T, want *LoadError: %v", err, err)
			}
			for _, p := range le.Problems {
				if p.File == bc.file && p.Pointer == bc.pointer && strings.Contains(p.Message, bc.fragment) {
					if line := p.String(); !strings.HasPrefix(line, "catalog: "+bc.file+": ") {
						t.Errorf("line %q does not start with the file", line)
					}
					return
				}
			}
			t.Errorf("no problem at file %q pointer %q containing %q; got:\n%v", bc.file, bc.pointer, bc.fragment, err)
		})
	}
}

func TestLoadErrorLinesAreSorted(t *testing.T) {
	ps := &problems{}
	ps.add("b.json", "/x", "second file")
	ps.add("a.json", "/z", "later pointer")
	ps.add("a.json", "", "whole document")
	ps.add("a.json", "/z", "later pointer")
	err := ps.err().(*LoadError)
	want := []string{
		`catalog: a.json: "": whole document`,
		`catalog: a.json: /z: later pointer`,
		`catalog: b.json: /x: second file`,
	}
	if got := strings.Split(err.Error(), "\n"); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("lines = %q, want %q", got, want)
	}
}
