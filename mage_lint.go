//go:build mage

package main

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
)

// lint fails when gofmt would change a file, go vet reports a problem or go.mod is not tidy, in any module.
func lint() error {
	mageFiles, _ := filepath.Glob("mage*.go")
	args := append([]string{"-l"}, mageFiles...)
	args = append(args, "catalog", "hostsim", "provider", "conformance", "scripts", "internal", "browser")
	out, err := exec.Command("gofmt", args...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("gofmt: %v\n%s", err, out)
	}
	if files := strings.TrimSpace(string(out)); files != "" {
		return fmt.Errorf("gofmt would change these files (run gofmt -w):\n%s", files)
	}
	for _, m := range modules {
		if err := run(m, nil, "go", "vet", "./..."); err != nil {
			return fmt.Errorf("go vet in %s: %w", m, err)
		}
	}
	for _, m := range modules {
		cmd := exec.Command("go", "mod", "tidy", "-diff")
		cmd.Dir = m
		if out, err := cmd.CombinedOutput(); err != nil || len(out) > 0 {
			return fmt.Errorf("go.mod of %s is not tidy (run go mod tidy there): %v\n%s", m, err, out)
		}
	}
	fmt.Println("lint: gofmt and go vet are clean, every go.mod is tidy")
	return nil
}

// generateDocs regenerates every generated document; staleness tests compare against these.
func generateDocs() error {
	steps := [][]string{
		{"go", "run", "./provider/cmd/docgen"},
		{"go", "run", "./conformance/cmd/conformance", "list", "--format", "markdown", "--out", "docs/conformance.md"},
		{"go", "test", "./scripts", "-run", "TestCommandsREADME", "-update-readme"},
	}
	for _, s := range steps {
		if err := run(".", nil, s[0], s[1:]...); err != nil {
			return err
		}
	}
	return dashboardShots()
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
