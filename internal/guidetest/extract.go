// Package guidetest proves the guides' copyable Go files pass where a reader would put
// them: in a new module of their own, outside the workspace (GOWORK=off), with the takokit
// modules replaced by this checkout. Its test (TestGuideAcceptanceExamples) needs
// bin/tofu, so `go tool mage unit` leaves it out and `go tool mage test` runs it.
package guidetest

import (
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"
)

// fileBlockRe is a copyable file in a guide: a line naming the file in backquotes and
// ending in a colon ("`queue_test.go`:"), then, after at most a blank line, its fenced
// block. Other code blocks of a guide are illustrations.
var fileBlockRe = regexp.MustCompile("(?m)^`([A-Za-z0-9_.]+)`:[ \t]*\n(?:[ \t]*\n)?```[a-z.]*\n((?s:.*?))```")

// Files returns the copyable files of the guide at path, by name. It fails when the
// guide has none or names one file twice.
func Files(path string) (map[string]string, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, m := range fileBlockRe.FindAllStringSubmatch(string(raw), -1) {
		if _, dup := out[m[1]]; dup {
			return nil, fmt.Errorf("%s names the file %s twice", path, m[1])
		}
		out[m[1]] = m[2]
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s has no copyable file (a line \"`NAME`:\" before a fenced block)", path)
	}
	return out, nil
}

// testFuncRe finds the tests a Go file declares.
var testFuncRe = regexp.MustCompile(`(?m)^func (Test[A-Z]\w*)\(t \*testing\.T\)`)

// TestNames are the test functions of the _test.go files among files, sorted.
func TestNames(files map[string]string) []string {
	var out []string
	for name, text := range files {
		if !strings.HasSuffix(name, "_test.go") {
			continue
		}
		for _, m := range testFuncRe.FindAllStringSubmatch(text, -1) {
			out = append(out, m[1])
		}
	}
	sort.Strings(out)
	return out
}
