package selftest

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// A started host's folder holds its ready file. It is named for the process
// that started the host (conformance-hostsim-<pid>-*): Stop removes it, and
// when that process was killed outright (SIGKILL, which no process can catch,
// or a test binary's panic on timeout) the next Start in any process removes
// the folders of processes no longer running. Where the system cannot tell
// (processAlive's fallback), nothing is removed.
const runDirPrefix = "conformance-hostsim-"

// makeRunDir removes the folders of processes gone, then makes this host's.
func makeRunDir(tmp string) (string, error) {
	removeOrphans(tmp)
	return os.MkdirTemp(tmp, fmt.Sprintf("%s%d-", runDirPrefix, os.Getpid()))
}

// removeOrphans removes each conformance-hostsim-<pid>-* folder of tmp whose
// process is no longer running; a folder whose name holds no process id (one
// made before the id was in the name, or by something else) is left alone.
func removeOrphans(tmp string) {
	entries, _ := os.ReadDir(tmp)
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), runDirPrefix)
		if !ok || !e.IsDir() {
			continue
		}
		digits, _, ok := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(digits)
		if !ok || err != nil || pid <= 0 || processAlive(pid) {
			continue
		}
		_ = os.RemoveAll(filepath.Join(tmp, e.Name()))
	}
}
