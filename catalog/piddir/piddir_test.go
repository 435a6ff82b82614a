//go:build unix

package piddir

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A process that ran and ended.
func gonePid(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	return cmd.Process.Pid
}

// Make removes the folders of processes gone, and only those: not a running
// process's, not one whose name holds no id, not another prefix's, not a file.
func TestMakeRemovesOnlyTheFoldersOfProcessesGone(t *testing.T) {
	tmp := t.TempDir()
	mk := func(name string, dir bool) string {
		p := filepath.Join(tmp, name)
		if dir {
			if err := os.MkdirAll(filepath.Join(p, "inner"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(p, "ready.json"), []byte("{}"), 0o644); err != nil {
				t.Fatal(err)
			}
		} else if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	orphan := mk(fmt.Sprintf("run-%d-1", gonePid(t)), true)
	kept := []string{
		mk(fmt.Sprintf("run-%d-2", os.Getpid()), true),  // running
		mk("run-123abc", true),                          // no id
		mk(fmt.Sprintf("other-%d-3", gonePid(t)), true), // another prefix
		mk(fmt.Sprintf("run-%d-4", gonePid(t)), false),  // a file
	}
	made, err := Make(tmp, "run-")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(orphan); !os.IsNotExist(err) {
		t.Errorf("the folder of a process gone is still there (%v)", err)
	}
	for _, p := range kept {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s was removed: %v", filepath.Base(p), err)
		}
	}
	if want := fmt.Sprintf("run-%d-", os.Getpid()); !strings.HasPrefix(filepath.Base(made), want) {
		t.Errorf("made %s, want a name starting %s", filepath.Base(made), want)
	}
}
