package reftest

import (
	"os"
	"path/filepath"
	"testing"
)

func TestDirFindsTheReferenceRoot(t *testing.T) {
	ws := t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "go.work"), []byte("go 1.26\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	deep := filepath.Join(ws, "hostsim", "internal")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TAKOKIT_REFERENCE_DIR", "")
	if got, err := Dir(deep); err != nil || got != filepath.Join(ws, "..", "shared", "reference") {
		t.Errorf("Dir below a go.work = %q, %v; want ../shared/reference beside the workspace root", got, err)
	}
	if got, err := Dir(filepath.Dir(ws)); err == nil {
		t.Errorf("Dir with no go.work above = %q; want an error", got)
	}
	t.Setenv("TAKOKIT_REFERENCE_DIR", "/refs/takoform-v1beta1")
	if got, err := Dir(deep); err != nil || got != "/refs" {
		t.Errorf("Dir with a lane folder in TAKOKIT_REFERENCE_DIR = %q, %v; want its parent /refs", got, err)
	}
	t.Setenv("TAKOKIT_REFERENCE_DIR", "/refs")
	if got, err := Dir(filepath.Dir(ws)); err != nil || got != "/refs" {
		t.Errorf("Dir with TAKOKIT_REFERENCE_DIR = %q, %v; want it as given, go.work or not", got, err)
	}
}

func TestFindSaysWhetherTheRootIsThere(t *testing.T) {
	refs := filepath.Join(t.TempDir(), "refs")
	t.Setenv("TAKOKIT_REFERENCE_DIR", refs)
	if dir, ok := Find("."); ok || dir != refs {
		t.Errorf("Find with the folder absent = %q, %v; want %s, false", dir, ok, refs)
	}
	if err := os.Mkdir(refs, 0o755); err != nil {
		t.Fatal(err)
	}
	if dir, ok := Find("."); !ok || dir != refs {
		t.Errorf("Find with the folder there = %q, %v; want %s, true", dir, ok, refs)
	}
	t.Chdir(filepath.Dir(refs))
	t.Setenv("TAKOKIT_REFERENCE_DIR", "refs")
	if dir, ok := Find("."); !ok || dir != refs {
		t.Errorf("Find of a relative TAKOKIT_REFERENCE_DIR = %q, %v; want the absolute %s", dir, ok, refs)
	}
}
