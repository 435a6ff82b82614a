package selftest

import "github.com/takokit/takokit/catalog/piddir"

// A started host's folder holds its ready file. It is named for the process
// that started the host (conformance-hostsim-<pid>-*, catalog/piddir): Stop removes it, and
// when that process was killed outright (SIGKILL, which no process can catch,
// or a test binary's panic on timeout) the next Start in any process removes
// the folders of processes no longer running. Where the system cannot tell
// (piddir.Alive's fallback), nothing is removed.
const runDirPrefix = "conformance-hostsim-"

// makeRunDir removes the folders of processes gone, then makes this host's.
func makeRunDir(tmp string) (string, error) {
	return piddir.Make(tmp, runDirPrefix)
}
