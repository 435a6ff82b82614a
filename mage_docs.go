//go:build mage

package main

import (
	"fmt"
	"path/filepath"

	"github.com/takokit/takokit/internal/providerdocs"
)

// Tool packages of the tools/release module (outside go.work, built with GOWORK=off like
// OpenTofu in tools/): bin/<name> -> package.
var (
	tfplugindocsTool = releaseTool{"tfplugindocs", "github.com/hashicorp/terraform-plugin-docs/cmd/tfplugindocs"}
	goreleaserTool   = releaseTool{"goreleaser", "github.com/goreleaser/goreleaser/v2"}
)

type releaseTool struct{ name, pkg string }

// buildReleaseTools builds the given tools of tools/release into bin/ in one go build.
func buildReleaseTools(tools ...releaseTool) error {
	bin, err := filepath.Abs("bin")
	if err != nil {
		return err
	}
	args := []string{"build", "-o", bin + string(filepath.Separator)}
	for _, t := range tools {
		args = append(args, t.pkg)
	}
	return run(filepath.Join("tools", "release"), []string{"GOWORK=off"}, "go", args...)
}

// generateDocs regenerates every generated document; staleness tests compare against these.
func generateDocs() error {
	steps := [][]string{
		{"go", "run", "./conformance/cmd/conformance", "list", "--format", "markdown", "--out", "docs/conformance.md"},
		{"go", "test", "./scripts", "-run", "TestCommandsREADME", "-update-readme"},
	}
	if err := providerDocs(); err != nil {
		return err
	}
	for _, s := range steps {
		if err := run(".", nil, s[0], s[1:]...); err != nil {
			return err
		}
	}
	return dashboardShots()
}

// providerDocs writes examples/resources from the catalog, then docs/index.md and
// docs/resources/*.md with tfplugindocs over the schema `bin/tofu providers schema -json`
// reads from bin/terraform-provider-takoform (internal/providerdocs).
func providerDocs() error {
	// the tools first: a missing bin/tofu is said before the examples are written again
	if err := buildReleaseTools(tfplugindocsTool); err != nil {
		return fmt.Errorf("build bin/tfplugindocs: %w", err)
	}
	bin, err := filepath.Abs("bin")
	if err != nil {
		return err
	}
	tools, err := providerdocs.BinTools(bin)
	if err != nil {
		return err
	}
	if err := run(".", nil, "go", "run", "./provider/cmd/examplegen"); err != nil {
		return err
	}
	root, err := filepath.Abs(".")
	if err != nil {
		return err
	}
	fmt.Println("+ bin/tofu providers schema -json | bin/tfplugindocs generate (templates/, examples/ -> docs/index.md, docs/resources)")
	pages, err := providerdocs.Render(root, tools)
	if err != nil {
		return err
	}
	return providerdocs.Write(root, pages)
}

// dashboardShots refreshes the screenshots of docs/guides/dashboard.md: the browser test writes
// them (CI=true: a missing Chromium fails instead of skipping, so nothing stays stale silently).
func dashboardShots() error {
	dir, err := filepath.Abs("docs/guides/dashboard")
	if err != nil {
		return err
	}
	return run(".", []string{"TAKOKIT_DASHBOARD_SHOTS=" + dir, "CI=true"},
		"go", "test", "-count=1", "-v", "-run", "TestDashboardInBrowser", "./browser")
}
