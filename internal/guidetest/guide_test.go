package guidetest

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/takokit/takokit/internal/fsx"
	"github.com/takokit/takokit/internal/testinputs"
)

// TestGuideAcceptanceExamples copies each guide's acceptance-test example into a new
// module, as a reader would, and runs it with TF_ACC=1 against bin/tofu: every test the
// example declares must pass, none may skip.
func TestGuideAcceptanceExamples(t *testing.T) {
	testinputs.DeclarePart("GUIDE_EXAMPLES") // its programs read that part of the tree: docs/decisions.md#test-cache
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	tofu := filepath.Join(root, "bin", "tofu")
	if _, err := os.Stat(tofu); err != nil {
		msg := tofu + " is missing: run `go tool mage tofu` (or `go tool mage test`) first"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg + "; in CI `go tool mage test` builds it before the tests")
		}
		t.Skip(msg)
	}
	t.Run("testing-with-hostsim", func(t *testing.T) {
		t.Parallel() // its own module, hosts and OpenTofu working directories
		guide := filepath.Join(root, "docs", "guides", "testing-with-hostsim.md")
		files, err := Files(guide)
		if err != nil {
			t.Fatal(err)
		}
		mod, ok := files["go.mod"]
		if !ok {
			t.Fatalf("%s lists no go.mod", guide)
		}
		// the guide's module sits beside a takokit checkout; here the checkout is root
		files["go.mod"] = strings.ReplaceAll(mod, "=> ../takokit/", "=> "+root+"/")
		for _, m := range []string{"catalog", "hostsim", "provider"} {
			if !strings.Contains(files["go.mod"], "github.com/takokit/takokit/"+m+" => "+filepath.Join(root, m)+"\n") {
				t.Fatalf("the guide's go.mod does not replace github.com/takokit/takokit/%s by ../takokit/%s:\n%s", m, m, mod)
			}
		}
		runExample(t, root, tofu, files)
	})
	t.Run("custom-family", func(t *testing.T) {
		t.Parallel() // its own module, family, hosts and OpenTofu working directories
		guide := filepath.Join(root, "docs", "guides", "custom-family.md")
		files, err := Files(guide)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := files["main_test.go"]; !ok {
			t.Fatalf("%s has no main_test.go", guide)
		}
		// main.go is the one block `go tool mage provider:family` builds (mage_family.go):
		// the only ```go block that starts with package main
		raw, err := os.ReadFile(guide)
		if err != nil {
			t.Fatal(err)
		}
		mains := regexp.MustCompile("(?s)```go\n(package main\n.*?)```").FindAllStringSubmatch(string(raw), -1)
		if len(mains) != 1 {
			t.Fatalf("%s must keep exactly one ```go block starting with package main (provider:family builds it); found %d", guide, len(mains))
		}
		files["main.go"] = mains[0][1]
		files["go.mod"] = familyGoMod(root)
		dir := t.TempDir()
		// the family: the project's own v1beta1 catalog, laid out as a published family
		for _, part := range []string{"forms", "interfaces", "bindings", "transitions.json", "lane.json"} {
			if err := fsx.CopyTree(filepath.Join(root, "catalog", "data", "v1beta1", part), filepath.Join(dir, "family", part)); err != nil {
				t.Fatal(err)
			}
		}
		runExampleIn(t, dir, root, tofu, files)
	})
}

// familyGoMod is the family provider's go.mod: what provider:family writes, plus
// terraform-plugin-testing, as the guide says.
func familyGoMod(root string) string {
	return `module takokit.invalid/family-provider

go 1.26.0

require (
	github.com/hashicorp/terraform-plugin-framework v1.19.0
	github.com/hashicorp/terraform-plugin-testing v1.16.0
	github.com/takokit/takokit/catalog v0.0.0
	github.com/takokit/takokit/provider v0.0.0
)

replace github.com/takokit/takokit/catalog => ` + filepath.Join(root, "catalog") + `

replace github.com/takokit/takokit/provider => ` + filepath.Join(root, "provider") + `

replace github.com/takokit/takokit/hostsim => ` + filepath.Join(root, "hostsim") + `
`
}

func runExample(t *testing.T, root, tofu string, files map[string]string) {
	runExampleIn(t, t.TempDir(), root, tofu, files)
}

// runExampleIn writes files into dir (a go.sum from the workspace modules' sums, so
// nothing new is fetched), runs `go mod tidy` and `go test -v ./...` there outside the
// workspace, and fails unless every declared test passed.
func runExampleIn(t *testing.T, dir, root, tofu string, files map[string]string) {
	t.Helper()
	names := TestNames(files)
	if len(names) == 0 {
		t.Fatal("the example declares no test")
	}
	sum, err := mergedSums(filepath.Join(root, "provider", "go.sum"), filepath.Join(root, "hostsim", "go.sum"), filepath.Join(root, "catalog", "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	files["go.sum"] = sum
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env := append(os.Environ(), "GOWORK=off", "GOFLAGS="+strings.TrimSpace(os.Getenv("GOFLAGS")+" -mod=mod"),
		"TF_ACC=1", "TF_ACC_TERRAFORM_PATH="+tofu)
	goRun(t, dir, env, "mod", "tidy")
	start := time.Now()
	out := goRun(t, dir, env, "test", "-count=1", "-v", "./...")
	t.Logf("the example's tests passed in %s: %s\n%s", time.Since(start).Round(time.Millisecond), strings.Join(names, ", "), out)
	for _, name := range names {
		if !regexp.MustCompile(`(?m)^--- PASS: ` + name + ` `).MatchString(out) {
			t.Errorf("%s did not pass:\n%s", name, out)
		}
	}
	if strings.Contains(out, "--- SKIP") {
		t.Errorf("a test of the example skipped:\n%s", out)
	}
}

func goRun(t *testing.T, dir string, env []string, args ...string) string {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go %s in the example's module: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// mergedSums is the union of go.sum files.
func mergedSums(paths ...string) (string, error) {
	seen := map[string]bool{}
	var lines []string
	for _, p := range paths {
		raw, err := os.ReadFile(p)
		if err != nil {
			return "", err
		}
		for _, l := range strings.Split(string(raw), "\n") {
			if l = strings.TrimSpace(l); l != "" && !seen[l] {
				seen[l] = true
				lines = append(lines, l)
			}
		}
	}
	return strings.Join(lines, "\n") + "\n", nil
}
