//go:build mage

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/takokit/takokit/catalog/piddir"
	"github.com/takokit/takokit/internal/fsx"
	"github.com/takokit/takokit/internal/simhosts"
)

// demoConfig is the example configuration the demo runs unchanged against every partial host.
const demoConfig = "examples/demo"

// runDemo plans and applies one configuration against each partial host and reports, per host,
// what was refused at plan time and why, and the typed outputs where the apply succeeded.
func runDemo() error {
	// the hosts' ready files and logs, the configurations applied: named for this process (catalog/piddir), so a run killed
	// outright leaves a folder the next run removes
	work, err := piddir.Make(os.TempDir(), "takokit-demo-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	hosts, err := simhosts.Start("bin/hostsim", work, simProfiles, os.Getenv)
	if err != nil {
		return err
	}
	defer simhosts.Stop(hosts)
	printHostTable(hosts)
	cliConfig, err := writeCLIConfig(work)
	if err != nil {
		return err
	}
	failures := 0
	for _, h := range hosts {
		if err := demoHost(work, cliConfig, h); err != nil {
			fmt.Printf("  demo error: %v\n", err)
			failures++
		}
	}
	if failures > 0 {
		return fmt.Errorf("demo: %d host(s) did not behave as expected", failures)
	}
	fmt.Println("\ndemo: every host answered; refusals above were decided at plan time, before any upload or create.")
	return nil
}

func writeCLIConfig(work string) (string, error) {
	bin, err := filepath.Abs("bin")
	if err != nil {
		return "", err
	}
	path := filepath.Join(work, "tofu.rc")
	rc := fmt.Sprintf(`provider_installation {
  dev_overrides {
    "registry.opentofu.org/takokit/takoform" = %q
    "registry.terraform.io/takokit/takoform" = %q
  }
  direct {}
}
`, bin, bin)
	return path, os.WriteFile(path, []byte(rc), 0o644)
}

// demoHost runs plan then (if the plan is clean) apply in a fresh copy of the demo configuration.
func demoHost(work, cliConfig string, h *simhosts.Host) error {
	fmt.Printf("\n== %s (%s, dashboard %s) ==\n", h.Profile, h.URL, h.UI)
	dir := filepath.Join(work, "cfg-"+h.Profile)
	if err := fsx.CopyTree(demoConfig, dir); err != nil {
		return err
	}
	tofu, _ := filepath.Abs("bin/tofu")
	env := append(sanitizedEnv(),
		"TF_CLI_CONFIG_FILE="+cliConfig, "TF_IN_AUTOMATION=1", "CHECKPOINT_DISABLE=1",
		"TAKOFORM_ENDPOINT="+h.URL, "TAKOFORM_TOKEN=sim-primary", "TAKOFORM_SPACE=demo")
	planOut, planErr := tofuRun(dir, env, tofu, "plan", "-no-color", "-input=false", "-out=plan.bin")
	if planErr != nil {
		errs := diagnostics(planOut, "Error")
		if len(errs) == 0 {
			return fmt.Errorf("tofu plan failed without a diagnostic:\n%s", planOut)
		}
		fmt.Println("  refused at plan time:")
		for _, e := range errs {
			fmt.Println("   -", e)
		}
		c, err := simhosts.GetJSON(h.URL + "/_sim/counters")
		if err != nil {
			return err
		}
		fmt.Printf("  the host counted %v mutations and %v uploads: nothing was created or uploaded.\n",
			c["mutations"], c["uploads"])
		if c["mutations"] != float64(0) || c["uploads"] != float64(0) {
			return fmt.Errorf("a plan-time refusal must leave the host untouched")
		}
		return nil
	}
	for _, w := range diagnostics(planOut, "Warning") {
		if !strings.Contains(w, "Provider development overrides") {
			fmt.Println("  plan warning:", w)
		}
	}
	applyOut, err := tofuRun(dir, env, tofu, "apply", "-no-color", "-input=false", "plan.bin")
	if err != nil {
		return fmt.Errorf("apply failed after a clean plan:\n%s", applyOut)
	}
	fmt.Println("  plan clean; apply succeeded. Typed outputs:")
	outJSON, err := tofuRun(dir, env, tofu, "output", "-json")
	if err != nil {
		return fmt.Errorf("tofu output: %v\n%s", err, outJSON)
	}
	if err := printOutputs(outJSON); err != nil {
		return err
	}
	return printDatabases(h)
}

// printDatabases shows the tables and the migration ledger of each SQLite database the
// host keeps for the demo (GET /_sim/databases): the migrations really ran.
func printDatabases(h *simhosts.Host) error {
	resp, err := http.Get(h.URL + "/_sim/databases")
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	var doc struct {
		Databases []struct {
			Name   string `json:"name"`
			Ledger []struct {
				Path string `json:"path"`
			} `json:"ledger"`
			Tables []struct {
				Name string `json:"name"`
			} `json:"tables"`
		} `json:"databases"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&doc); err != nil {
		return fmt.Errorf("GET /_sim/databases: %v", err)
	}
	for _, d := range doc.Databases {
		var files, tables []string
		for _, l := range d.Ledger {
			files = append(files, l.Path)
		}
		for _, t := range d.Tables {
			tables = append(tables, t.Name)
		}
		fmt.Printf("  database %s: migrations applied %s; tables %s\n", d.Name, strings.Join(files, ", "), strings.Join(tables, ", "))
	}
	return nil
}

func tofuRun(dir string, env []string, tofu string, args ...string) (string, error) {
	cmd := exec.Command(tofu, args...)
	cmd.Dir = dir
	cmd.Env = env
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	err := cmd.Run()
	return buf.String(), err
}

var diagRE = regexp.MustCompile(`(?m)^[│ ]*(Error|Warning): (.+)$`)

// diagnostics returns the summary line of every diagnostic of one severity, with its detail's first line.
func diagnostics(out, severity string) []string {
	var res []string
	for _, m := range diagRE.FindAllStringSubmatch(out, -1) {
		if m[1] == severity {
			res = append(res, strings.TrimSpace(m[2]))
		}
	}
	return res
}

func printOutputs(raw string) error {
	var outs map[string]struct {
		Value any `json:"value"`
	}
	if err := json.Unmarshal([]byte(raw), &outs); err != nil {
		return fmt.Errorf("tofu output -json: %v", err)
	}
	names := make([]string, 0, len(outs))
	for n := range outs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		b, _ := json.Marshal(outs[n].Value)
		fmt.Printf("   %s = %s\n", n, b)
	}
	return nil
}

// sanitizedEnv drops the caller's TF_*, TOFU_* and TAKOFORM_* variables so the demo is reproducible.
func sanitizedEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "TF_") || strings.HasPrefix(kv, "TOFU_") || strings.HasPrefix(kv, "TAKOFORM_") {
			continue
		}
		env = append(env, kv)
	}
	return env
}
