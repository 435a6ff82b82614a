//go:build mage

package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/takokit/takokit/internal/buildtimes"
	"github.com/takokit/takokit/internal/stamp"
)

// modules is every module in go.work, in dependency order (catalog at the bottom).
var modules = []string{"catalog", "hostsim", "provider", "conformance", "."}

// binaries is what `mage build` writes: output name -> package path (built in the workspace).
// Each main has a package variable `version` that the build stamps.
var binaries = []struct{ out, pkg string }{
	{"bin/hostsim", "./hostsim/cmd/hostsim"},
	{"bin/conformance", "./conformance/cmd/conformance"},
	{"bin/terraform-provider-takoform", "./provider"},
}

const tofuPkg = "github.com/opentofu/opentofu/cmd/tofu"

// tofuLDFlags are the linker flags of OpenTofu's own release build: without
// version.dev=no, `tofu version` reports v1.10.6-dev.
const tofuLDFlags = "-s -w -X github.com/opentofu/opentofu/version.dev=no"

func buildBinaries() error {
	for _, b := range binaries {
		v, err := stampVersion(b.pkg)
		if err != nil {
			return err
		}
		fmt.Println("version of", b.out, v)
		if err := goBuildKeep(".", nil, b.out, "-ldflags", "-X main.version="+v, b.pkg); err != nil {
			return fmt.Errorf("build %s: %w", b.out, err)
		}
	}
	return buildLaneProviders()
}

// otherLaneProviders are the providers `go tool mage build` writes beside the default
// one, bin/<lane>/terraform-provider-takoform: the project's catalog of each other lane
// built as a family (docs/protocol.md#lanes), for configurations and scenarios that talk
// to a host of that lane.
var otherLaneProviders = []string{"v1alpha3"}

func buildLaneProviders() error {
	for _, lane := range otherLaneProviders {
		fmt.Printf("+ the %s provider: the family catalog/data/%s into bin/%s (as go tool mage provider:family builds it)\n", lane, lane, lane)
		if _, _, err := buildFamilyTo(filepath.Join("catalog", "data", lane), filepath.Join("bin", lane)); err != nil {
			return fmt.Errorf("build the %s provider: %w", lane, err)
		}
	}
	return nil
}

// stampVersion is the version a binary built from pkg is stamped with: `git describe
// --tags` of the last commit that changed the files it is built from (pkg, what it
// imports from the workspace, and the extra files), else 0.0.0-dev+<that commit>
// (dirty when one of those files has changes). Each binary has its own: an edit of the
// conformance runner leaves bin/hostsim's bytes alone, and a commit or an edit that
// leaves a binary's files alone leaves it alone too, so the tests that run it keep their
// results (internal/stamp, docs/decisions.md#test-cache).
func stampVersion(pkg string, extra ...string) (string, error) {
	inputs, err := stamp.Inputs(".", extra, pkg)
	if err != nil {
		return "", err
	}
	return stamp.Version(".", inputs)
}

// buildTofu builds OpenTofu with GOWORK=off: the tools module is deliberately outside go.work so
// OpenTofu's large dependency graph never leaks into the project's modules.
func buildTofu() error {
	out, err := filepath.Abs("bin/tofu")
	if err != nil {
		return err
	}
	return run("tools", []string{"GOWORK=off"}, "go", "build", "-ldflags", tofuLDFlags, "-o", out, tofuPkg)
}

// goBuildKeep runs `go build -o out args...` in dir and, when the binary's bytes are
// those of one of its last builds (the one before, or one before an edit now undone),
// gives it back that build's modification time: go build touches an up-to-date binary,
// and a binary that only looks new would make go test rerun every test that runs it
// (internal/buildtimes, docs/decisions.md#test-cache). Go builds are reproducible, so
// the same sources give the same bytes.
func goBuildKeep(dir string, env []string, out string, args ...string) error {
	path := out
	if !filepath.IsAbs(path) {
		path = filepath.Join(dir, path)
	}
	if err := run(dir, env, "go", append([]string{"build", "-o", out}, args...)...); err != nil {
		return err
	}
	restored, err := buildtimes.Settle(path)
	if restored {
		fmt.Printf("+ %s: the bytes of an earlier build, that build's time given back\n", out)
	}
	return err
}

// run executes a command in dir with extra environment, echoing it first, streaming its output.
func run(dir string, env []string, name string, args ...string) error {
	fmt.Printf("+ (cd %s && %s%s %s)\n", dir, prefixEnv(env), name, strings.Join(args, " "))
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdout = os.Stdout
	cmd.Stderr = os.Stderr
	return cmd.Run()
}

func prefixEnv(env []string) string {
	if len(env) == 0 {
		return ""
	}
	return strings.Join(env, " ") + " "
}

// binDirEnv returns the environment that puts the repository's bin/ first on PATH.
func binDirEnv() ([]string, error) {
	bin, err := filepath.Abs("bin")
	if err != nil {
		return nil, err
	}
	return []string{"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH")}, nil
}
