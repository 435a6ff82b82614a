package scripts

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/takokit/takokit/catalog/reftest"
)

// cmdFamilyProvider builds the provider for the published family of LANE exactly as a
// user does, with `go tool mage provider:family DIR` at the repository root, then points
// the scenario's tofu-env at it and exports FAMILY_DIR for `hostsim --catalog`.
// The family's lane markers choose the lane of the provider and of the host.
//
// It builds into bin/scenario-family/LANE rather than bin/family, once per lane and run
// (familyBuilds): scenarios naming the same lane share that build and each gets its
// output as stdout, and across runs `go build` finds the binary there up to date and
// does not link it again.
func cmdFamilyProvider(ts *testscript.TestScript, args []string) error {
	if len(args) != 1 {
		return usageError("takes the lane of the published family: v1beta1 or v1alpha3")
	}
	root, ok := reftest.Find(".")
	dir := filepath.Join(root, "takoform-"+args[0])
	if st, err := os.Stat(dir); !ok || err != nil || !st.IsDir() {
		return fmt.Errorf("the published family folder %s is absent; guard the scenario with [!reference] skip", dir)
	}
	out := filepath.Join(ts.Getenv("TAKOKIT_BIN"), "scenario-family", args[0])
	built, err := familyBuilds.build(dir, out)
	fmt.Fprintf(ts.Stdout(), "%s", built)
	if err != nil {
		return err
	}
	ts.Setenv("TAKOKIT_PROVIDER_DIR", out)
	ts.Setenv("FAMILY_DIR", dir)
	return nil
}

// familyBuilds is every family provider this run built, by output directory: the
// first scenario to ask builds it, the others wait for that build and share it.
var familyBuilds = &familyCache{done: map[string]*familyBuild{}}

type familyCache struct {
	mu   sync.Mutex
	done map[string]*familyBuild
	// one build at a time: two `go tool mage` started together after a magefile
	// changed both compile it and trip over each other's mage_output_file.go
	building sync.Mutex
}

type familyBuild struct {
	once   sync.Once
	output []byte
	err    error
}

// build runs `go tool mage provider:family dir` into out once per out; every call
// returns the output and error of that one build.
func (c *familyCache) build(dir, out string) ([]byte, error) {
	c.mu.Lock()
	b := c.done[out]
	if b == nil {
		b = &familyBuild{}
		c.done[out] = b
	}
	c.mu.Unlock()
	b.once.Do(func() {
		c.building.Lock()
		defer c.building.Unlock()
		// from this package's directory, mage told where the magefile is (-d) and where to
		// run it (-w): a child started in the repository's root would have go test key
		// this package's cached result on the root directory, which every mage run touches
		// (docs/decisions.md#test-cache)
		cmd := exec.Command("go", "tool", "mage", "-d", "..", "-w", "..", "provider:family", dir)
		// the caller's environment, not the scenario's: go needs its real module and build caches
		cmd.Env = append(os.Environ(), "TAKOKIT_FAMILY_OUT="+out)
		var err error
		b.output, err = cmd.CombinedOutput()
		if err != nil {
			b.err = fmt.Errorf("go tool mage provider:family %s: %v\n%s", dir, err, b.output)
		}
	})
	return b.output, b.err
}
