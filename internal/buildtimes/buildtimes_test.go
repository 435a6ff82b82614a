package buildtimes

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// build writes the binary's bytes with a time of its own, as go build does.
func build(t *testing.T, path, bytes string, at time.Time) {
	t.Helper()
	if err := os.WriteFile(path, []byte(bytes), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, at, at); err != nil {
		t.Fatal(err)
	}
}

func mtime(t *testing.T, path string) time.Time {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return st.ModTime()
}

func settle(t *testing.T, path string) bool {
	t.Helper()
	restored, err := Settle(path)
	if err != nil {
		t.Fatal(err)
	}
	return restored
}

// An edit and its undoing: the binary built back to its first bytes gets its first
// time back; one with bytes never built before keeps its own.
func TestABinaryBuiltBackToEarlierBytesGetsTheirTimeBack(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "hostsim")
	start := time.Now().Add(-time.Hour).Truncate(time.Second)
	build(t, bin, "v1", start)
	if settle(t, bin) {
		t.Fatal("a first build reported a time given back")
	}
	build(t, bin, "v1", start.Add(time.Minute)) // built again, nothing changed
	if !settle(t, bin) || !mtime(t, bin).Equal(start) {
		t.Fatalf("the same bytes built again: time %v, want the first build's %v", mtime(t, bin), start)
	}
	build(t, bin, "v2", start.Add(2*time.Minute)) // the edit
	if settle(t, bin) || !mtime(t, bin).Equal(start.Add(2*time.Minute)) {
		t.Fatalf("new bytes: time %v, want their own %v", mtime(t, bin), start.Add(2*time.Minute))
	}
	build(t, bin, "v1", start.Add(3*time.Minute)) // the edit undone
	if !settle(t, bin) || !mtime(t, bin).Equal(start) {
		t.Fatalf("the edit undone: time %v, want the first build's %v", mtime(t, bin), start)
	}
	build(t, bin, "v2", start.Add(4*time.Minute)) // and done again
	if !settle(t, bin) || !mtime(t, bin).Equal(start.Add(2*time.Minute)) {
		t.Fatalf("the edit done again: time %v, want the edit's first build's %v", mtime(t, bin), start.Add(2*time.Minute))
	}
}

// The record holds the last Kept builds; an older one's bytes get a time of their own.
func TestTheRecordHoldsTheLastBuilds(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "provider")
	start := time.Now().Add(-time.Hour).Truncate(time.Second)
	for i := range Kept + 1 {
		build(t, bin, fmt.Sprintf("build %d", i), start.Add(time.Duration(i)*time.Minute))
		settle(t, bin)
	}
	if got := len(read(RecordPath(bin))); got != Kept {
		t.Fatalf("the record holds %d builds, want %d", got, Kept)
	}
	late := start.Add(time.Hour)
	build(t, bin, "build 0", late)
	if settle(t, bin) || !mtime(t, bin).Equal(late) {
		t.Errorf("build 0, out of the record: time %v, want its own %v", mtime(t, bin), late)
	}
	build(t, bin, "build 2", late.Add(time.Minute))
	if !settle(t, bin) || !mtime(t, bin).Equal(start.Add(2*time.Minute)) {
		t.Errorf("build 2, still in the record: time %v, want %v", mtime(t, bin), start.Add(2*time.Minute))
	}
	if _, err := os.Stat(RecordPath(bin) + ".tmp"); !os.IsNotExist(err) {
		t.Errorf("the record's temporary file is left: %v", err)
	}
}

// A record that does not read costs a rerun, never a wrong time: its lines are skipped.
func TestARecordThatDoesNotReadIsStartedAnew(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "hostsim")
	at := time.Now().Add(-time.Minute).Truncate(time.Second)
	build(t, bin, "v1", at)
	if err := os.WriteFile(RecordPath(bin), []byte("not a record\nab 12\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if settle(t, bin) || !mtime(t, bin).Equal(at) {
		t.Fatalf("a record that does not read changed the time to %v", mtime(t, bin))
	}
	if got := len(read(RecordPath(bin))); got != 1 {
		t.Fatalf("the record holds %d builds after one settled, want 1", got)
	}
}

// A build that leaves the binary as the record has it last writes nothing: bin/, which
// tests stat, keeps its time.
func TestAnUnchangedBuildLeavesTheRecordAlone(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "hostsim")
	at := time.Now().Add(-time.Hour).Truncate(time.Second)
	build(t, bin, "v1", at)
	settle(t, bin)
	old := at.Add(-time.Minute)
	for _, p := range []string{RecordPath(bin), dir} {
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}
	build(t, bin, "v1", at.Add(time.Minute)) // go build touched it
	if !settle(t, bin) {
		t.Fatal("the same bytes with a new time were not given their time back")
	}
	settle(t, bin) // built again, nothing touched this time
	for _, p := range []string{RecordPath(bin), dir} {
		if got := mtime(t, p); !got.Equal(old) {
			t.Errorf("%s was written (time %v, want %v)", p, got, old)
		}
	}
}

// The repository's root after `go tool mage` made and removed its main file: the same
// entries, so the root gets its time back; an entry added for good keeps the new time.
func TestADirectoryWithItsEntriesBackGetsItsTimeBack(t *testing.T) {
	root, bin := t.TempDir(), t.TempDir()
	record := filepath.Join(bin, ".dirtime-root")
	build(t, filepath.Join(root, "go.mod"), "module x", time.Now())
	at := time.Now().Add(-time.Hour).Truncate(time.Second)
	if err := os.Chtimes(root, at, at); err != nil {
		t.Fatal(err)
	}
	if restored, err := SettleDir(root, record); err != nil || restored {
		t.Fatalf("a first settle: restored %v, %v", restored, err)
	}
	// mage's main file, made and removed
	generated := filepath.Join(root, "mage_output_file.go")
	build(t, generated, "package main", time.Now())
	if err := os.Remove(generated); err != nil {
		t.Fatal(err)
	}
	if mtime(t, root).Equal(at) {
		t.Fatal("the directory's time did not move: the test proves nothing")
	}
	if restored, err := SettleDir(root, record); err != nil || !restored || !mtime(t, root).Equal(at) {
		t.Fatalf("the same entries: restored %v (%v), time %v, want %v", restored, err, mtime(t, root), at)
	}
	build(t, filepath.Join(root, "new.go"), "package x", time.Now())
	moved := mtime(t, root)
	if restored, err := SettleDir(root, record); err != nil || restored || !mtime(t, root).Equal(moved) {
		t.Fatalf("an entry added: restored %v (%v), time %v, want its own %v", restored, err, mtime(t, root), moved)
	}
}
