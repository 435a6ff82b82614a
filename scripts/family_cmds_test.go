package scripts

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

// referenceRoot is the published reference directory the reference-reading tests use,
// the folder holding one folder per lane (takoform-v1beta1, takoform-v1alpha3):
// TAKOKIT_REFERENCE_DIR (a lane folder given there stands for its parent, as
// catalog/reftest reads it), else ../shared/reference next to the workspace root. ok is
// false when it is absent.
func referenceRoot() (string, bool) {
	dir := os.Getenv("TAKOKIT_REFERENCE_DIR")
	if dir != "" && strings.HasPrefix(filepath.Base(filepath.Clean(dir)), "takoform-") {
		dir = filepath.Dir(filepath.Clean(dir))
	}
	if dir == "" {
		root, err := filepath.Abs("..")
		if err != nil {
			return "", false
		}
		dir = filepath.Join(root, "..", "shared", "reference")
	}
	st, err := os.Stat(dir)
	return dir, err == nil && st.IsDir()
}

// cmdFamilyProvider builds the provider for the published family of LANE exactly as a
// user does, with `go tool mage provider:family DIR` at the repository root (into the
// scenario's own .family directory rather than bin/family), then points the scenario's
// tofu-env at it and exports FAMILY_DIR for `hostsim --catalog`.
// The family's lane markers choose the lane of the provider and of the host.
func cmdFamilyProvider(ts *testscript.TestScript, args []string) error {
	if len(args) != 1 {
		return usageError("takes the lane of the published family: v1beta1 or v1alpha3")
	}
	root, ok := referenceRoot()
	dir := filepath.Join(root, "takoform-"+args[0])
	if st, err := os.Stat(dir); !ok || err != nil || !st.IsDir() {
		return fmt.Errorf("the published family folder %s is absent; guard the scenario with [!reference] skip", dir)
	}
	repo, err := filepath.Abs("..")
	if err != nil {
		return err
	}
	out := ts.MkAbs(".family") // this scenario's own build: two family scenarios run side by side
	cmd := exec.Command("go", "tool", "mage", "provider:family", dir)
	// the caller's environment, not the scenario's: go needs its real module and build caches
	cmd.Dir, cmd.Env = repo, append(os.Environ(), "TAKOKIT_FAMILY_OUT="+out)
	built, err := cmd.CombinedOutput()
	fmt.Fprintf(ts.Stdout(), "%s", built)
	if err != nil {
		return fmt.Errorf("go tool mage provider:family %s: %v\n%s", dir, err, built)
	}
	ts.Setenv("TAKOKIT_PROVIDER_DIR", out)
	ts.Setenv("FAMILY_DIR", dir)
	return nil
}
