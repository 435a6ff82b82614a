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
		// the diff is on stdout; stderr also carries "go: downloading" lines on a
		// fresh module cache, which are no sign of an untidy go.mod
		if out, err := cmd.Output(); err != nil || len(out) > 0 {
			if ee, ok := err.(*exec.ExitError); ok {
				out = append(out, ee.Stderr...)
			}
			return fmt.Errorf("go.mod of %s is not tidy (run go mod tidy there): %v\n%s", m, err, out)
		}
	}
	fmt.Println("lint: gofmt and go vet are clean, every go.mod is tidy")
	return nil
}
