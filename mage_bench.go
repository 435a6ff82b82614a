//go:build mage

package main

import "path/filepath"

// runBench builds the benchmark driver (hostsim/internal/bench) to bin/hostsim-bench and
// runs it once against bin/hostsim: the lifecycle rates of hostsim and of a null HTTP
// server, their ratios, the host's RSS after 6,000 lifecycles and the --db FILE rates
// (docs/decisions.md: hostsim speed). The driver lives in the ignored bin/, not in a
// temporary folder: mage stopped by SIGTERM runs no deferred call, and a folder would
// stay behind; the driver's own run folder is removed by the driver (rundir.go).
func runBench() error {
	bench := filepath.Join("bin", "hostsim-bench")
	if err := run(".", nil, "go", "build", "-o", bench, "./hostsim/internal/bench"); err != nil {
		return err
	}
	return run(".", nil, bench, "--hostsim", "bin/hostsim")
}
