package scripts

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The binaries `go tool mage build` writes carry the version of their own sources and no
// stamp of the repository's state: with go's VCS stamp (vcs.revision, vcs.modified), any
// edit anywhere in the tree would change their bytes, and every test that runs them would
// run again (docs/decisions.md#test-cache).
func TestBuiltBinariesCarryNoVCSStamp(t *testing.T) {
	declareInputs(t)
	t.Parallel()
	for _, b := range requiredBinaries {
		if b == "tofu" {
			continue // OpenTofu's own build, from the tools module
		}
		path := filepath.Join("..", "bin", b)
		out, err := exec.Command("go", "version", "-m", path).CombinedOutput()
		if err != nil {
			t.Fatalf("go version -m %s: %v\n%s (run `go tool mage build` first)", path, err, out)
		}
		if !strings.Contains(string(out), "-X main.version=") {
			t.Errorf("%s: no version stamped by -ldflags in its build info:\n%s", path, out)
		}
		for _, line := range strings.Split(string(out), "\n") {
			if strings.Contains(line, "vcs.") {
				t.Errorf("%s carries the repository's VCS stamp %q: build it with -buildvcs=false (or in the workspace)", path, strings.TrimSpace(line))
			}
		}
	}
}
