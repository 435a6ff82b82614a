package testrun

import (
	"os"
	"path/filepath"
)

// TestTmpDir is where the test jobs keep their temporary files when the machine has a
// memory file system at /dev/shm and the caller set no TMPDIR: every t.TempDir, go
// test's build folders, the scenarios' work folders and the hosts' database files.
// On the machine's disk, SQLite's syncs and the writes of linked test binaries cost
// the kernel CPU the run is short of: hostsim's store-fault sweep took 9.3 CPU-s with
// its database files under /tmp and 6.0 under /dev/shm (docs/decisions.md#test-time).
// No test asserts anything a sync to disk decides; a process that exits still leaves
// its files for the next one to read, as the crash tests need. The path is fixed, not
// drawn per run: go test keys results on the TMPDIR a test read. It is short because
// the scenarios' provider sockets live under it, and a Unix socket's path has at most
// 107 bytes (scripts' socketRoom refuses a scenario whose would not fit).
const TestTmpDir = "/dev/shm/tk"

// minMemoryFree is the room /dev/shm must have for the test jobs to use it: a run's
// files peaked at 434 MB, and a container's /dev/shm is often 64 MB, which the run
// would fill and fail in.
const minMemoryFree = 2 << 30

// TmpEnv is what a test job adds for its temporary files: TMPDIR=TestTmpDir when
// getenv("TMPDIR") is empty and /dev/shm is a memory file system with minMemoryFree
// free that takes the folder, or nothing (the caller's TMPDIR wins, e.g. TMPDIR=/tmp
// to measure on disk).
func TmpEnv(getenv func(string) string) []string {
	return tmpEnv(getenv, TestTmpDir)
}

func tmpEnv(getenv func(string) string, dir string) []string {
	if getenv("TMPDIR") != "" || !inMemory(filepath.Dir(dir)) {
		return nil
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil
	}
	return []string{"TMPDIR=" + dir}
}
