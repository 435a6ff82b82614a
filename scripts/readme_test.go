package scripts

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"
)

var updateReadme = flag.Bool("update-readme", false, "rewrite testdata/README.md from the command table")

const readmePath = "testdata/README.md"

// renderReadme derives the scenario command reference from the command and condition tables.
func renderReadme() string {
	var b strings.Builder
	b.WriteString("# Scenario commands\n\n")
	b.WriteString("Generated from scripts/commands_test.go and scripts/wait_test.go by\n")
	b.WriteString("`go test ./scripts -run TestCommandsREADME -update-readme` (or `go tool mage docs`). Do not edit.\n\n")
	b.WriteString("Scenarios are testscript files (`*.txtar`) run by `TestScenarios` with the binaries of `bin/` first on\n")
	b.WriteString("PATH. Programs run only through `exec` (`exec tofu plan`, `exec hostsim serve ... &sim&`).\n")
	b.WriteString("OpenTofu reaches the provider through dev_overrides; its warning \"Provider development overrides\n")
	b.WriteString("are in effect\" is expected in every run.\n\n")
	b.WriteString("## Commands\n\n")
	for _, c := range commands {
		neg := ""
		if c.negatable {
			neg = " May be negated with `!`."
		}
		fmt.Fprintf(&b, "- `%s %s` — %s.%s\n", c.name, c.usage, c.summary, neg)
	}
	b.WriteString("\n## Conditions of hostsim-wait\n\n")
	for _, w := range waitConditions {
		fmt.Fprintf(&b, "- `%s` — %s.\n", w.name, w.summary)
	}
	b.WriteString("\n## Script conditions\n\n")
	for _, c := range scriptConditions {
		fmt.Fprintf(&b, "- `[%s]` — %s.\n", c.name, c.summary)
	}
	b.WriteString("\n## Environment\n\n")
	b.WriteString("- `TAKOKIT_BIN` — the repository's bin/ directory.\n")
	b.WriteString("- `NAME_URL`, `NAME_ADMIN` — set by `hostsim-start NAME ...`.\n")
	b.WriteString("- `TAKOFORM_ENDPOINT`, `TAKOFORM_TOKEN`, `TAKOFORM_SPACE`, `TF_CLI_CONFIG_FILE` — set by `tofu-env`.\n")
	b.WriteString("- `FAMILY_DIR`, `TAKOKIT_PROVIDER_DIR` — set by `family-provider` (the family root; the provider directory tofu-env uses).\n")
	b.WriteString("- `TAKOKIT_UPDATE_GOLDEN=1` — let failing `cmp` commands rewrite the golden files inside the scenario. (The same variable records again what each conformance check sends, `conformance/selftest/testdata/requests/`, docs/guides/conformance.md#what-a-check-sends.)\n")
	b.WriteString("- `" + laneEnv + "` — set when a scenario runs again on another lane: `hostsim-start` starts its hosts on that lane and `tofu-env` uses that lane's provider (`bin/<lane>/`).\n")
	b.WriteString("\n## Lanes\n\n")
	b.WriteString("Every scenario runs on the default lane. One whose comments hold a line `# lanes: v1alpha3` runs again, as\n")
	b.WriteString("`TestScenarios/v1alpha3/<name>`, on that lane: the same script against hosts of that lane through the provider\n")
	b.WriteString("of that lane (`tofu-env` picks it from the host's `/_sim/health`).\n")
	return b.String()
}

func TestCommandsREADME(t *testing.T) {
	want := renderReadme()
	if *updateReadme {
		if err := os.WriteFile(readmePath, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(readmePath)
	if err != nil {
		t.Fatalf("%s is missing: run `go test ./scripts -run TestCommandsREADME -update-readme`", readmePath)
	}
	if string(got) != want {
		t.Fatalf("%s is stale: run `go test ./scripts -run TestCommandsREADME -update-readme`", readmePath)
	}
}

func TestFaultTextForm(t *testing.T) {
	f, err := parseFault("outputs.omit=url,kind=WorkerEndpoint,count=1")
	if err != nil {
		t.Fatal(err)
	}
	if f["fault"] != "outputs.omit" || f["value"] != "url" || f["kind"] != "WorkerEndpoint" || f["count"] != 1 {
		t.Fatalf("parsed %v", f)
	}
	for _, bad := range []string{"", "=x", "latency,count=0", "error=conflict,zone=a", "x,kind"} {
		if _, err := parseFault(bad); err == nil {
			t.Errorf("parseFault(%q) accepted a malformed fault", bad)
		}
	}
}
