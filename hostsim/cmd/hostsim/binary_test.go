package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/takokit/takokit/catalog/piddir"
)

// built is the hostsim binary the process tests run, built once per test binary.
var built struct {
	once sync.Once
	dir  string
	err  error
	out  []byte
}

// binDirPrefix names the folder the binary is built into for the process that
// built it (hostsim-cmd-test-<pid>-*, catalog/piddir): TestMain removes it, and
// a test binary killed outright leaves one the next test binary removes.
const binDirPrefix = "hostsim-cmd-test-"

// hostsimBinary builds this command once and returns its path; TestMain removes it.
func hostsimBinary(t *testing.T) string {
	t.Helper()
	built.once.Do(func() {
		if built.dir, built.err = piddir.Make(os.TempDir(), binDirPrefix); built.err == nil {
			built.out, built.err = exec.Command("go", "build", "-o", filepath.Join(built.dir, "hostsim"), ".").CombinedOutput()
		}
	})
	if built.err != nil {
		t.Fatalf("go build: %v\n%s", built.err, built.out)
	}
	return filepath.Join(built.dir, "hostsim")
}

func TestMain(m *testing.M) {
	code := m.Run()
	if built.dir != "" {
		_ = os.RemoveAll(built.dir)
	}
	os.Exit(code)
}
