package fsx

import (
	"os"
	"path/filepath"
	"testing"
)

func TestCopyTreeCopiesFilesAndDirectories(t *testing.T) {
	src, dst := t.TempDir(), filepath.Join(t.TempDir(), "out")
	if err := os.MkdirAll(filepath.Join(src, "a", "b"), 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{"top.json": "{}", "a/b/deep.txt": "deep", "a/mid.txt": "mid"}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(src, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := CopyTree(src, dst); err != nil {
		t.Fatal(err)
	}
	for name, body := range files {
		got, err := os.ReadFile(filepath.Join(dst, name))
		if err != nil {
			t.Fatalf("%s not copied: %v", name, err)
		}
		if string(got) != body {
			t.Errorf("%s = %q, want %q", name, got, body)
		}
	}
}

func TestCopyTreeCopiesASingleFile(t *testing.T) {
	src := filepath.Join(t.TempDir(), "lane.json")
	if err := os.WriteFile(src, []byte(`{"lane":"v1beta1"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(t.TempDir(), "family", "lane.json")
	if err := CopyTree(src, dst); err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(dst); err != nil || string(got) != `{"lane":"v1beta1"}` {
		t.Fatalf("single file: %q, %v", got, err)
	}
}

func TestCopyTreeOfAnAbsentSourceWritesNothing(t *testing.T) {
	dst := filepath.Join(t.TempDir(), "out")
	if err := CopyTree(filepath.Join(t.TempDir(), "missing"), dst); err != nil {
		t.Fatalf("absent source: %v", err)
	}
	if _, err := os.Stat(dst); !os.IsNotExist(err) {
		t.Fatalf("absent source made %s (%v)", dst, err)
	}
}

func TestSHA256IsTheFilesDigest(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(p, []byte("abc"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := SHA256(p)
	if want := "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"; err != nil || got != want {
		t.Errorf("SHA256 of \"abc\" = %q, %v; want %s", got, err, want)
	}
	if _, err := SHA256(filepath.Join(t.TempDir(), "absent")); err == nil {
		t.Error("SHA256 of a missing file gave a digest")
	}
}
