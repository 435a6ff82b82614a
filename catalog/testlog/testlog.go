// Package testlog makes go test's cached results findable again after an edit is
// undone, for test packages whose tests run in parallel (docs/decisions.md#test-cache).
//
// go test keys a cached result on the list of environment variables and files the
// test binary read, which the binary writes in the order it read them
// (-test.testlogfile). The go command hashes that list in its order, with a `chdir`
// hashed by its directory's name. It keeps one list per test binary: the last run's.
// Parallel tests read in a different order on each run, and a test that changes into
// a temporary directory names a different one each run, so the list of the run after
// an edit gives the run after the edit is undone a key that no earlier result has,
// and the whole package runs again though nothing it reads changed.
//
// Main rewrites the list once the tests have ended: every path made absolute, each
// entry once, sorted; a change of directory becomes a stat of it, which the go command
// hashes the same way and, outside the module, ignores as it ignores every other path
// there. The set of inputs, and so what a cached result depends on, stays the same.
package testlog

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// header is the first line the testing package writes, which the go command checks.
const header = "# test log"

// Main runs the tests, then rewrites their input list: call it from TestMain as
// os.Exit(testlog.Main(m)).
func Main(m *testing.M) int {
	wd, _ := os.Getwd()
	code := m.Run()
	f := flag.Lookup("test.testlogfile")
	if f == nil || f.Value.String() == "" {
		return code
	}
	if err := Rewrite(f.Value.String(), wd); err != nil {
		fmt.Fprintf(os.Stderr, "testlog: %v (the results are right; go test may not reuse them)\n", err)
	}
	return code
}

// Rewrite rewrites the input list at path, whose relative paths are relative to wd
// until a chdir entry says otherwise, as a sorted set of absolute entries.
func Rewrite(path, wd string) error {
	raw, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	text, ok := strings.CutPrefix(string(raw), header+"\n")
	if !ok {
		return fmt.Errorf("%s does not start with %q", path, header)
	}
	set := map[string]bool{}
	for _, line := range strings.Split(text, "\n") {
		op, name, ok := strings.Cut(line, " ")
		if !ok {
			continue
		}
		switch op {
		case "chdir":
			wd = name
			set["stat "+name] = true
		case "stat", "open":
			if !filepath.IsAbs(name) {
				name = filepath.Join(wd, name)
			}
			set[op+" "+name] = true
		default:
			set[line] = true
		}
	}
	lines := make([]string, 0, len(set))
	for l := range set {
		lines = append(lines, l)
	}
	slices.Sort(lines)
	out := header + "\n" + strings.Join(lines, "\n")
	if len(lines) > 0 {
		out += "\n"
	}
	return os.WriteFile(path, []byte(out), 0o644)
}
