package testrun

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// TestTmpEnvPutsTestFilesInMemoryUnlessTold: with no TMPDIR and a memory file system
// at the folder's parent, the jobs get TMPDIR there (the folder made); a caller's
// TMPDIR wins; a parent on disk gives nothing.
func TestTmpEnvPutsTestFilesInMemoryUnlessTold(t *testing.T) {
	none := func(string) string { return "" }
	if got := tmpEnv(func(k string) string {
		if k == "TMPDIR" {
			return "/tmp"
		}
		return ""
	}, "/dev/shm/x"); got != nil {
		t.Errorf("with TMPDIR=/tmp set: %q, want nothing added", got)
	}
	disk := filepath.Join(t.TempDir(), "tests")
	if !inMemory(filepath.Dir(disk)) {
		if got := tmpEnv(none, disk); got != nil {
			t.Errorf("under %s, not in memory: %q, want nothing added", filepath.Dir(disk), got)
		}
	}
	if runtime.GOOS != "linux" {
		return
	}
	// what the kernel's mount table says of /dev/shm, inMemory must say too
	mounts, err := os.ReadFile("/proc/self/mounts")
	if err != nil {
		t.Fatal(err)
	}
	tmpfs := false
	for _, line := range strings.Split(string(mounts), "\n") {
		if f := strings.Fields(line); len(f) >= 3 && f[1] == "/dev/shm" {
			tmpfs = f[2] == "tmpfs"
		}
	}
	roomy := false
	if tmpfs {
		var st syscall.Statfs_t
		if err := syscall.Statfs("/dev/shm", &st); err != nil {
			t.Fatal(err)
		}
		roomy = st.Bavail*uint64(st.Bsize) >= minMemoryFree
	}
	if inMemory("/dev/shm") != (tmpfs && roomy) {
		t.Fatalf("inMemory(/dev/shm) = %v, but the mount table says tmpfs=%v and it has room=%v", !(tmpfs && roomy), tmpfs, roomy)
	}
	if !tmpfs || !roomy {
		return // no roomy memory file system here: the jobs keep the system's temporary folder
	}
	dir := filepath.Join("/dev/shm", "takokit-tmpenv-"+filepath.Base(t.TempDir()))
	t.Cleanup(func() { os.RemoveAll(dir) })
	got := tmpEnv(none, dir)
	if !slices.Equal(got, []string{"TMPDIR=" + dir}) {
		t.Fatalf("tmpEnv under /dev/shm = %q, want TMPDIR=%s", got, dir)
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() || st.Mode().Perm() != 0o700 {
		t.Errorf("the folder %s: %v, %v; want a directory only its owner reads", dir, st, err)
	}
}
