// Package scripts runs the end-to-end scenarios: testscript files that drive the real OpenTofu CLI
// through the takoform provider against hostsim, the way a user would.
package scripts

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/takokit/takokit/catalog/reftest"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/internal/testinputs"
)

// binaries the scenarios run; `go tool mage build` and `go tool mage tofu` write them to bin/.
var requiredBinaries = []string{"tofu", "hostsim", "conformance", "terraform-provider-takoform", "v1alpha3/terraform-provider-takoform"}

// declareInputs keys this package's cached result on what its programs read beyond
// what go test sees (docs/decisions.md#test-cache): the binaries of bin/ (their id;
// the stats below of ../bin are this module's files, but a scenario's tofu also runs
// what they load), and what `go tool mage provider:family` reads besides the provider
// and catalog sources that bin/terraform-provider-takoform is built from: the magefiles
// and the family guide whose main.go it compiles.
func declareInputs(t *testing.T) {
	t.Helper()
	testinputs.DeclareBin()
	// listed by git, not globbed: reading the root directory would key the result on its
	// modification time, which every mage run changes
	out, err := exec.Command("git", "-C", "..", "ls-files", "--cached", "--others", "--exclude-standard", "--", "magefile.go", "mage_*.go").Output()
	files := strings.Fields(string(out))
	if err != nil || len(files) == 0 {
		t.Fatalf("the magefiles the family build runs: git ls-files found none beside ../magefile.go (%v)", err)
	}
	for i, f := range files {
		files[i] = filepath.Join("..", f)
	}
	for _, f := range append(files, "../docs/guides/custom-family.md") {
		if _, err := os.Stat(f); err != nil {
			t.Fatalf("an input of the family build: %v", err)
		}
	}
}

// TestScenarios runs every scripts/testdata/*.txtar. It needs the binaries in ../bin; when they are
// missing it fails with the command that builds them rather than skipping silently.
func TestScenarios(t *testing.T) {
	declareInputs(t)
	t.Parallel() // beside the harness tests; each scenario has its own hosts and work directory
	bin, err := filepath.Abs("../bin")
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range requiredBinaries {
		if _, err := os.Stat(filepath.Join(bin, b)); err != nil {
			t.Fatalf("scenario binary %s is missing: run `go tool mage build tofu` (or `go tool mage test`) first", filepath.Join(bin, b))
		}
	}
	t.Cleanup(func() {
		if table := crashes.table(); table != "" {
			t.Log("\n" + table)
		}
	})
	files, err := filepath.Glob(filepath.Join("testdata", "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no scenario under testdata (%v)", err)
	}
	reuse := newReuse(t, bin)
	run := func(t *testing.T, files []string, lane string, params testscript.Params) {
		todo, reused := reuse.split(files, lane)
		reportReused(t, reused)
		if len(reused) > 0 {
			t.Logf("%d of %d scenarios reused a pass on the same inputs; the other %d may run", len(reused), len(files), len(todo))
		} else if reuse.off != "" {
			t.Logf("every scenario runs: %s", reuse.off)
		}
		if len(todo) == 0 {
			return
		}
		setup := params.Setup
		params.Files, params.RequireExplicitExec, params.Cmds, params.Condition = todo, true, commandFuncs(), condition
		params.Setup = func(e *testscript.Env) error {
			if err := setup(e); err != nil {
				return err
			}
			file := scenarioFile(e)
			e.Values[scenarioKey{}] = scenarioID(file, lane)
			reuse.record(e, file, lane)
			return nil
		}
		params = inOwnRoot(t, params)
		if err := socketRoom(params.WorkdirRoot, params.Files); err != nil {
			t.Fatal(err)
		}
		testscript.Run(t, params)
	}
	run(t, files, "", testscript.Params{
		RequireUniqueNames: true,
		UpdateScripts:      os.Getenv("TAKOKIT_UPDATE_GOLDEN") == "1",
		Setup:              func(e *testscript.Env) error { return setupEnv(e, bin) },
	})
	// the scenarios that name other lanes run again on each of them, beside the
	// others: a parallel subtest waits for its parent's body to return, so a lane
	// run as a plain subtest held every other scenario back until its slowest
	// one ended (2 to 3 s with the machine idle; docs/decisions.md#test-time)
	for lane, files := range otherLaneScenarios(t) {
		t.Run(lane, func(t *testing.T) {
			t.Parallel()
			run(t, files, lane, testscript.Params{
				Setup: func(e *testscript.Env) error {
					e.Vars = append(e.Vars, laneEnv+"="+lane)
					return setupEnv(e, bin)
				},
			})
		})
	}
}

// scenarioFile is the file of the scenario an Env runs: its subtest's last name.
// inOwnRoot has testscript make its work folders in a temporary folder that
// t's cleanup removes. On its own, testscript removes their common root (a
// go-test-script* folder in the temp dir) only once every script it was given
// has finished, so a run of some of them (`go test -run 'TestScenarios/name'`)
// left one behind each time. The root's name is kept short, shorter than
// testscript's own: OpenTofu's provider listens on a Unix socket under the
// script's $WORK/.tmp, and a socket's path must stay under 108 bytes.
func inOwnRoot(t *testing.T, p testscript.Params) testscript.Params {
	t.Helper()
	root, err := os.MkdirTemp("", "ts")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	p.WorkdirRoot = root
	return p
}

// socketPathMax is the longest path a Unix socket may have on Linux: sun_path's 108
// bytes, the last one its NUL.
const socketPathMax = 107

// socketTail is what the provider adds under a script's work folder for the socket
// OpenTofu talks to it over: testscript's TMPDIR ($WORK/.tmp), then go-plugin's
// os.CreateTemp name, "plugin" and up to ten digits.
const socketTail = "/.tmp/plugin0123456789"

// socketRoom says which scenario's provider socket would not fit under root (the
// scenarios run OpenTofu; the harness's own tests run fake scripts that do not, under
// longer roots). Too long a path fails only at the provider's start, as OpenTofu's "Unrecognized remote
// plugin message", naming neither the path nor the scenario.
func socketRoom(root string, files []string) error {
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".txtar")
		sock := filepath.Join(root, "script-"+name) + socketTail
		if len(sock) > socketPathMax {
			return fmt.Errorf("scenario %s: the provider's socket would be %s, %d bytes, over the %d a Unix socket's path may have; shorten the scenario's name by %d, or run with a shorter TMPDIR (now %s)",
				name, sock, len(sock), socketPathMax, len(sock)-socketPathMax, os.TempDir())
		}
	}
	return nil
}

func scenarioFile(e *testscript.Env) string {
	named, ok := e.T().(interface{ Name() string })
	if !ok {
		return ""
	}
	return filepath.Join("testdata", filepath.Base(named.Name())+".txtar")
}

// laneEnv is the lane a scenario runs on when it runs again on another lane than the
// default: hostsim-start starts its hosts on it, and tofu-env points dev_overrides at
// that lane's provider.
const laneEnv = "TAKOKIT_SCENARIO_LANE"

// lanesLine is how a scenario names the other lanes it also runs on: a line
// "# lanes: v1alpha3" among its comments, optionally followed by a parenthesized note.
var lanesLine = regexp.MustCompile(`(?m)^# lanes: ([a-z0-9 ]+?)(?: \(.*\))?$`)

// otherLaneScenarios maps each other lane to the scenarios that name it.
func otherLaneScenarios(t *testing.T) map[string][]string {
	files, err := filepath.Glob(filepath.Join("testdata", "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		m := lanesLine.FindSubmatch(b)
		if m == nil {
			continue
		}
		for _, lane := range strings.Fields(string(m[1])) {
			if _, err := wire.LaneNamed(lane); err != nil || lane == wire.DefaultLane.Name {
				t.Fatalf("%s: # lanes: %q is no other lane (%v); name lanes other than the default %s", f, lane, err, wire.DefaultLane.Name)
			}
			out[lane] = append(out[lane], f)
		}
	}
	return out
}

// setupEnv sanitizes the environment (no TF_*, TOFU_*, TAKOFORM_* from the caller), puts bin/ first
// on PATH and gives OpenTofu a private home and CLI configuration.
func setupEnv(e *testscript.Env, bin string) error {
	var vars []string
	for _, kv := range e.Vars {
		if strings.HasPrefix(kv, "TF_") || strings.HasPrefix(kv, "TOFU_") || strings.HasPrefix(kv, "TAKOFORM_") {
			continue
		}
		if strings.HasPrefix(kv, "PATH=") {
			kv = "PATH=" + bin + string(os.PathListSeparator) + strings.TrimPrefix(kv, "PATH=")
		}
		vars = append(vars, kv)
	}
	home := filepath.Join(e.WorkDir, ".home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		return err
	}
	rc := filepath.Join(e.WorkDir, ".tofurc")
	if err := os.WriteFile(rc, []byte(cliConfig(bin)), 0o644); err != nil {
		return err
	}
	e.Values[scenarioT{}] = e.T()
	e.Vars = append(vars,
		"HOME="+home,
		"TAKOKIT_BIN="+bin,
		"TF_CLI_CONFIG_FILE="+rc,
		"TF_IN_AUTOMATION=1",
		"CHECKPOINT_DISABLE=1",
		// OpenTofu and the provider it starts (which inherits it) collect garbage four
		// times less often: each process lives well under a second, and at Go's default
		// the collector took about a sixth of the scenarios' CPU. No scenario asserts
		// anything the collector's pace decides (docs/decisions.md#test-time).
		"GOGC=400",
		// OpenTofu starts the provider over a plain local socket instead of mutual
		// TLS, as the plugin testing framework has it do: each start otherwise has
		// both processes make a P-521 certificate, about a ninth of the scenarios'
		// CPU, and no scenario is about the plugin transport
		// (docs/decisions.md#test-time).
		"TF_DISABLE_PLUGIN_TLS=1",
	)
	return nil
}

// cliConfig reaches the provider binary through dev_overrides under both registry addresses, so no
// `tofu init` (and no network) is needed.
func cliConfig(bin string) string {
	return fmt.Sprintf(`provider_installation {
  dev_overrides {
    "registry.opentofu.org/takokit/takoform" = %q
    "registry.terraform.io/takokit/takoform" = %q
  }
  direct {}
}
`, bin, bin)
}

func condition(cond string) (bool, error) {
	for _, c := range scriptConditions {
		if c.name == cond {
			return c.holds(), nil
		}
	}
	return false, fmt.Errorf("unknown condition %q", cond)
}

// scriptConditions are the [conditions] a scenario may test, listed in the README.
var scriptConditions = []struct {
	name, summary string
	holds         func() bool
}{
	{"reference", "the published reference directory is present (TAKOKIT_REFERENCE_DIR, the folder holding takoform-v1beta1 and takoform-v1alpha3, else ../shared/reference next to the workspace root)",
		func() bool { _, ok := reftest.Find("."); return ok }},
}
