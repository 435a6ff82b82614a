//go:build mage

package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/takokit/takokit/internal/buildtimes"
	"github.com/takokit/takokit/internal/testinputs"
	"github.com/takokit/takokit/internal/testrun"
)

// builtFiles are the binaries the build steps write and the tests run: a change in any
// of them changes the tree's id (testinputs.TreeID), though bin/ is ignored by git.
func builtFiles() []string {
	files := []string{"bin/tofu", filepath.Join("bin", tfplugindocsTool.name), filepath.Join("bin", goreleaserTool.name)}
	for _, b := range binaries {
		files = append(files, b.out)
	}
	for _, lane := range otherLaneProviders {
		files = append(files, filepath.Join("bin", lane, "terraform-provider-takoform"))
	}
	return files
}

// init gives the repository's root back its time at the start of every mage run, the
// one of each target and the ones the scenarios start (`go tool mage provider:family`,
// from scripts/ with -w ..): mage made and removed its main file in the root just now,
// and with the root's entries as they were, its time goes back too. Settled only in
// the test targets, the root kept the time a scenario's mage run gave it while other
// packages' tests ended: go test saved their results keyed on that time, and the next
// run, settled again, ran them once more (internal/release, docs/decisions.md#test-cache).
// Run elsewhere than the root (no magefile.go here), mage leaves the directory alone.
func init() {
	if _, err := os.Stat("magefile.go"); err != nil {
		return
	}
	if err := os.MkdirAll("bin", 0o755); err != nil { // the record's folder, before the first build makes it
		fmt.Fprintf(os.Stderr, "mage: %v\n", err)
		return
	}
	if _, err := buildtimes.SettleDir(".", filepath.Join("bin", ".dirtime-root")); err != nil {
		fmt.Fprintf(os.Stderr, "mage: giving the repository's root back its time: %v\n", err)
	}
}

// testEnv is what every test job adds to the environment: bin/ first on PATH, the
// collector's target unless the caller set one (testrun.GCEnv), the temporary folder
// in memory unless the caller set TMPDIR (testrun.TmpEnv), and the ids of the
// tree and of the binaries that tests with inputs go test cannot see read
// (docs/decisions.md#test-cache).
func testEnv() ([]string, error) {
	env, err := binDirEnv()
	if err != nil {
		return nil, err
	}
	env = append(env, testrun.GCEnv(os.Getenv)...)
	env = append(env, testrun.TmpEnv(os.Getenv)...)
	ids, err := testinputs.Env(".", builtFiles()...)
	if err != nil {
		return nil, err
	}
	return append(env, ids...), nil
}

// cacheFlags are the go test flags that decide whether results are reused: none, so go
// test reuses what did not change, unless CI is set or TAKOKIT_TEST_FRESH=1 asks for a
// full run (-count=1: every test runs again).
func cacheFlags() []string {
	if os.Getenv("CI") != "" || os.Getenv("TAKOKIT_TEST_FRESH") == "1" {
		return []string{"-count=1"}
	}
	return nil
}
