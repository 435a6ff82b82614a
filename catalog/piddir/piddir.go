// Package piddir makes temporary folders named for the process that made them
// (<prefix><pid>-*), so that a later process can tell the folder of one killed
// outright (SIGKILL, which no process can catch, or go test's kill on a timeout)
// from that of one still running, and remove it. hostsim's bench and the
// conformance self-test keep their run's files in such folders (docs/decisions.md,
// "Leftovers").
package piddir

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Make removes from tmp the prefix's folders of processes no longer running,
// then makes this process's.
func Make(tmp, prefix string) (string, error) {
	RemoveOrphans(tmp, prefix)
	return os.MkdirTemp(tmp, fmt.Sprintf("%s%d-", prefix, os.Getpid()))
}

// RemoveOrphans removes each <prefix><pid>-* folder of tmp whose process is no
// longer running. A folder whose name holds no process id (made by something
// else, or before the id was in the name), a running process's, or any folder
// where the system cannot tell (Alive's fallback) is left alone.
func RemoveOrphans(tmp, prefix string) {
	entries, _ := os.ReadDir(tmp)
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), prefix)
		if !ok || !e.IsDir() {
			continue
		}
		digits, _, ok := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(digits)
		if !ok || err != nil || pid <= 0 || Alive(pid) {
			continue
		}
		_ = os.RemoveAll(filepath.Join(tmp, e.Name()))
	}
}
