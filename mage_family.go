//go:build mage

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/internal/fsx"
)

// familyGuide holds the main.go that provider:family builds: the guide and the build
// are one text.
const familyGuide = "docs/guides/custom-family.md"

// familyOutEnv names another directory than bin/family for the build and the binary: the
// scenarios give each family build its own, so two can run side by side.
const familyOutEnv = "TAKOKIT_FAMILY_OUT"

// familyParts are what the catalog loader reads from a family root.
var familyParts = []string{"forms", "interfaces", "bindings", "transitions.json"}

// laneMarkerRe names the files at a family root that choose the lane its catalog speaks
// (docs/catalog-rules.md#lanes): the project's lane.json and a published lane folder's
// operation table. Without them the built provider would speak the lane its families
// imply, or the default one.
var laneMarkerRe = regexp.MustCompile(`^(lane\.json|operations-[a-z0-9]+\.json)$`)

// buildFamily builds bin/family/terraform-provider-takoform (or the one in
// $TAKOKIT_FAMILY_OUT) over the family at dir: the
// guide's main.go in its own module (GOWORK=off, the workspace modules by replace), the
// family copied beside it and embedded, then the binary's own -check runs the checking
// load over the embedded copy. The family is checked with catalog.LoadRoot first.
func buildFamily(dir string) error {
	outDir := filepath.Join("bin", "family")
	if d := os.Getenv(familyOutEnv); d != "" {
		outDir = d
	}
	out, src, err := buildFamilyTo(dir, outDir)
	if err != nil {
		return err
	}
	bin := filepath.Dir(out)
	fmt.Printf(`
%s serves the family at %s.
Reach it from OpenTofu with this CLI configuration (TF_CLI_CONFIG_FILE; no tofu init needed):

provider_installation {
  dev_overrides {
    "registry.opentofu.org/takokit/takoform" = %q
    "registry.terraform.io/takokit/takoform" = %q
  }
  direct {}
}
`, out, src, bin, bin)
	return nil
}

// buildFamilyTo builds the provider over the family at dir into outDir and returns
// the binary and the family's absolute path.
func buildFamilyTo(dir, outDir string) (out, src string, err error) {
	src, err = filepath.Abs(dir)
	if err != nil {
		return "", "", err
	}
	if err != nil {
		return "", "", err
	}
	// the rule hostsim --catalog applies too: a forms/ directory, a checking load
	// that passes, at least one Form — refused here before anything is built
	if _, err := catalog.LoadRoot(src); err != nil {
		return "", "", err
	}
	root, err := filepath.Abs(".")
	if err != nil {
		return "", "", err
	}
	mainGo, err := familyMain(filepath.Join(root, familyGuide))
	if err != nil {
		return "", "", err
	}
	if outDir, err = filepath.Abs(outDir); err != nil {
		return "", "", err
	}
	work := filepath.Join(outDir, "src")
	if err := os.RemoveAll(work); err != nil {
		return "", "", err
	}
	parts := append([]string(nil), familyParts...)
	rootFiles, err := os.ReadDir(src)
	if err != nil {
		return "", "", err
	}
	for _, e := range rootFiles {
		if e.Type().IsRegular() && laneMarkerRe.MatchString(e.Name()) {
			parts = append(parts, e.Name())
		}
	}
	for _, part := range parts {
		if err := fsx.CopyTree(filepath.Join(src, part), filepath.Join(work, "family", part)); err != nil {
			return "", "", err
		}
	}
	sum, err := mergedSums(filepath.Join(root, "provider", "go.sum"), filepath.Join(root, "catalog", "go.sum"))
	if err != nil {
		return "", "", err
	}
	files := map[string]string{"main.go": mainGo, "go.sum": sum, "go.mod": familyGoMod(root)}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(work, name), []byte(text), 0o644); err != nil {
			return "", "", err
		}
	}
	// the provider's sources and the guide's main.go, and the family itself when it is
	// one of the project's own (catalog/data/<lane>)
	extra := []string{familyGuide}
	if rel, err := filepath.Rel(root, src); err == nil && !strings.HasPrefix(rel, "..") {
		extra = append(extra, rel)
	}
	v, err := stampVersion("./provider", extra...)
	if err != nil {
		return "", "", err
	}
	out = filepath.Join(outDir, "terraform-provider-takoform")
	// -buildvcs=false: built outside the workspace, go would stamp the commit and the
	// modified flag of the repository around bin/, and any edit anywhere would change the
	// binary's bytes (docs/decisions.md#test-cache); the version says the source instead
	if err := goBuildKeep(work, []string{"GOWORK=off", "GOFLAGS=-mod=mod"}, out, "-buildvcs=false", "-ldflags", "-X main.version="+v, "."); err != nil {
		return "", "", fmt.Errorf("build %s: %w", out, err)
	}
	if err := run(".", nil, out, "-check"); err != nil {
		return "", "", fmt.Errorf("the family at %s does not pass the checking load: %w", src, err)
	}
	return out, src, nil
}

// familyMain extracts the one ```go block of the guide.
func familyMain(guide string) (string, error) {
	raw, err := os.ReadFile(guide)
	if err != nil {
		return "", err
	}
	blocks := regexp.MustCompile("(?s)```go\n(package main\n.*?)```").FindAllStringSubmatch(string(raw), -1)
	if len(blocks) != 1 {
		return "", fmt.Errorf("%s must hold exactly one ```go block starting with package main (found %d)", guide, len(blocks))
	}
	return blocks[0][1], nil
}

func familyGoMod(root string) string {
	return fmt.Sprintf(`module takokit.invalid/family-provider

go 1.26.0

require (
	github.com/hashicorp/terraform-plugin-framework v1.19.0
	github.com/takokit/takokit/catalog v0.0.0
	github.com/takokit/takokit/provider v0.0.0
)

replace github.com/takokit/takokit/catalog => %s

replace github.com/takokit/takokit/provider => %s

replace github.com/takokit/takokit/hostsim => %s
`, filepath.Join(root, "catalog"), filepath.Join(root, "provider"), filepath.Join(root, "hostsim"))
}

// mergedSums is the union of go.sum files: the family module needs what the
// provider and catalog modules already verified.
func mergedSums(paths ...string) (string, error) {
	seen := map[string]bool{}
	for _, p := range paths {
		raw, err := os.ReadFile(p)
		if err != nil {
			return "", err
		}
		for _, line := range strings.Split(string(raw), "\n") {
			if line = strings.TrimSpace(line); line != "" {
				seen[line] = true
			}
		}
	}
	lines := make([]string, 0, len(seen))
	for l := range seen {
		lines = append(lines, l)
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n") + "\n", nil
}
