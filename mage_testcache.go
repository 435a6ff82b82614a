//go:build mage

package main

import (
	"os"
	"path/filepath"

	"github.com/takokit/takokit/internal/buildtimes"
	"github.com/takokit/takokit/internal/testinputs"
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

// testEnv is what every test job adds to the environment: bin/ first on PATH, and the
// ids of the tree and of the binaries that tests with inputs go test cannot see read
// (docs/decisions.md#test-cache).
func testEnv() ([]string, error) {
	// go tool mage made and removed its main file in the root just now: with the root's
	// entries as they were, its time goes back too, or go test would rerun every test
	// that runs a program there (internal/buildtimes)
	if _, err := buildtimes.SettleDir(".", filepath.Join("bin", ".dirtime-root")); err != nil {
		return nil, err
	}
	env, err := binDirEnv()
	if err != nil {
		return nil, err
	}
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
