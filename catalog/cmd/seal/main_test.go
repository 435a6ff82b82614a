package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCheckOnCommittedCatalogSucceeds(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"-check", "../../data/v1beta1", "../../data/v1alpha3"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, errb.String())
	}
	if out.Len() != 0 || strings.Count(errb.String(), "is sealed") != 2 {
		t.Errorf("stdout %q stderr %q", out.String(), errb.String())
	}
}

func TestCheckReportsUnsealedFileAndWritesNothing(t *testing.T) {
	dir := t.TempDir()
	def := filepath.Join(dir, "forms", "x", "a", "0.1.0", "definition.json")
	if err := os.MkdirAll(filepath.Dir(def), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(def, []byte(`{"apiVersion": "x.example.dev/v1", "kind": "A", "definitionVersion": "0.1.0"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := run([]string{"-check", dir}, &out, &errb); code != 1 {
		t.Fatalf("exit %d for a catalog without its package index, want 1; stderr:\n%s", code, errb.String())
	}
	if !strings.Contains(out.String(), "package-index.json") {
		t.Errorf("stdout does not name the missing index: %q", out.String())
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(def), "package-index.json")); !os.IsNotExist(err) {
		t.Error("-check wrote the package index")
	}
	out.Reset()
	if code := run([]string{dir}, &out, &errb); code != 0 {
		t.Fatalf("seal exit %d; stderr:\n%s", code, errb.String())
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(def), "package-index.json")); err != nil {
		t.Errorf("seal did not write the package index: %v", err)
	}
}

func TestBadUsageExitsTwo(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"-no-such-flag"}, &out, &errb); code != 2 || !strings.Contains(errb.String(), "usage: seal") {
		t.Errorf("exit %d, stderr %q", code, errb.String())
	}
}

// Without a root, seal checks every lane root of the data directory.
func TestDefaultRootsAreTheLaneRoots(t *testing.T) {
	t.Chdir("../..")
	got := defaultRoots()
	if strings.Join(got, ",") != "data/v1alpha3,data/v1beta1" {
		t.Errorf("default roots %v, want data/v1alpha3 and data/v1beta1", got)
	}
}
