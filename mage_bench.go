//go:build mage

package main

import (
	"os"
	"path/filepath"
)

// runBench builds the benchmark driver (hostsim/internal/bench) and runs it once against
// bin/hostsim: the lifecycle rates of hostsim and of a null HTTP server, their ratios, the
// host's RSS after 6,000 lifecycles and the --db FILE rates (docs/decisions.md: hostsim speed).
func runBench() error {
	dir, err := os.MkdirTemp("", "takokit-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	bench := filepath.Join(dir, "bench")
	if err := run(".", nil, "go", "build", "-o", bench, "./hostsim/internal/bench"); err != nil {
		return err
	}
	return run(".", nil, bench, "--hostsim", "bin/hostsim")
}
