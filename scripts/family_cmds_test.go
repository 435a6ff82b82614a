package scripts

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/rogpeppe/go-internal/testscript"
)

// referenceDir is the published reference directory the reference-reading tests use:
// TAKOKIT_REFERENCE_DIR, else ../shared/reference/takoform-v1alpha3 next to the
// workspace root. ok is false when it is absent.
func referenceDir() (string, bool) {
	dir := os.Getenv("TAKOKIT_REFERENCE_DIR")
	if dir == "" {
		root, err := filepath.Abs("..")
		if err != nil {
			return "", false
		}
		dir = filepath.Join(root, "..", "shared", "reference", "takoform-v1alpha3")
	}
	st, err := os.Stat(dir)
	return dir, err == nil && st.IsDir()
}

// cmdFamilyProvider builds the provider for the published family exactly as a user
// does, with `go tool mage provider:family DIR` at the repository root, then points the
// scenario's tofu-env at bin/family and exports FAMILY_DIR for `hostsim --catalog`.
func cmdFamilyProvider(ts *testscript.TestScript, args []string) error {
	if len(args) != 0 {
		return usageError("takes no argument")
	}
	dir, ok := referenceDir()
	if !ok {
		return fmt.Errorf("the published reference directory %s is absent; guard the scenario with [!reference] skip", dir)
	}
	root, err := filepath.Abs("..")
	if err != nil {
		return err
	}
	cmd := exec.Command("go", "tool", "mage", "provider:family", dir)
	// the caller's environment, not the scenario's: go needs its real module and build caches
	cmd.Dir, cmd.Env = root, os.Environ()
	out, err := cmd.CombinedOutput()
	fmt.Fprintf(ts.Stdout(), "%s", out)
	if err != nil {
		return fmt.Errorf("go tool mage provider:family %s: %v\n%s", dir, err, out)
	}
	ts.Setenv("TAKOKIT_PROVIDER_DIR", filepath.Join(root, "bin", "family"))
	ts.Setenv("FAMILY_DIR", dir)
	return nil
}
