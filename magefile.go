//go:build mage

// The takokit build. Run `go tool mage -l` for the list of targets.
//
// Targets are the plain functions of this file; their helpers live in mage_*.go beside it
// (same build tag). Every target prints what it runs, so a failure is reproducible by hand.
package main

import (
	"context"

	"github.com/magefile/mage/mg"
)

// Default target when `go tool mage` runs with no argument.
var Default = Test

// Build writes bin/hostsim, bin/conformance and bin/terraform-provider-takoform.
func Build() error {
	return buildBinaries()
}

// Tofu builds OpenTofu v1.10.6 from the tools/ module (outside go.work) into bin/tofu.
func Tofu() error {
	return buildTofu()
}

// Test runs every module's tests (scenarios through real OpenTofu included) and the conformance self-test.
func Test() error {
	return runAllTests(step{"mage build", buildBinaries}, step{"mage tofu", tofuIfChanged},
		step{"mage releaseTools", func() error { return releaseToolsIfChanged(tfplugindocsTool, goreleaserTool) }})
}

// Unit runs every module's Go tests except those that need bin/: the OpenTofu scenarios, the browser test, the docs and release checks (fast contributor loop).
func Unit() error {
	return runModuleTests(false)
}

// Quick runs, with -short, the unit tests of the packages changed since main (committed, uncommitted and untracked files; TAKOKIT_QUICK_BASE names another base): the loop while you edit.
func Quick() error {
	return runQuick()
}

// Scenarios runs only the testscript scenarios under scripts/testdata (CI's regression suite).
func Scenarios() error {
	return runScenarios(step{"mage build", buildBinaries}, step{"mage tofu", tofuIfChanged})
}

// Mutate runs the mutation tester over the core of the three rules (not part of test; docs/mutation.md).
func Mutate(ctx context.Context) error {
	return runMutation(ctx)
}

// Bench measures hostsim against a null HTTP server: lifecycle rates, their ratios, RSS, --db rates.
func Bench() error {
	mg.Deps(Build)
	return runBench()
}

// Lint checks gofmt, go vet and that every module's go.mod is tidy.
func Lint() error {
	return lint()
}

// Docs regenerates examples/resources, docs/index.md and docs/resources (tfplugindocs), docs/conformance.md, scripts/testdata/README.md and the dashboard screenshots.
func Docs() error {
	mg.SerialDeps(Build, Tofu) // the dashboard screenshots come from the browser test, which runs bin/
	return generateDocs()
}

// ProviderDocs regenerates only the provider's examples and tfplugindocs pages (docs/index.md, docs/resources); bin/tofu must be built.
func ProviderDocs() error {
	mg.Deps(Build)
	return providerDocs()
}

// ReleaseTools builds bin/tfplugindocs and bin/goreleaser from the tools/release module (outside go.work).
func ReleaseTools() error {
	return buildReleaseTools(tfplugindocsTool, goreleaserTool)
}

// Release builds a snapshot release into dist/ with goreleaser (provider zips per platform, SHA256SUMS, registry manifest, hostsim and conformance archives); nothing is published or signed.
func Release() error {
	return snapshotRelease()
}

// Sim starts several partial hosts side by side on free loopback ports until interrupted.
func Sim() error {
	mg.Deps(Build)
	return runSim()
}

// Demo builds everything (OpenTofu included) and plans/applies an example against partial hosts.
func Demo() error {
	mg.SerialDeps(Build, Tofu)
	return runDemo()
}

// Catalog groups catalog maintenance targets.
type Catalog mg.Namespace

// Seal recomputes every digest of catalog/data in dependency order and rewrites only digest values, then writes the model again (catalog:model).
func (Catalog) Seal() error {
	if err := run("catalog", nil, "go", "run", "./cmd/seal"); err != nil {
		return err
	}
	return Catalog{}.Model()
}

// Model writes catalog/embedded/model_gen.go: the embedded catalog's checked model as Go, which the provider binary links instead of loading the catalog at start.
func (Catalog) Model() error {
	return run("catalog", nil, "go", "run", "./cmd/modelgen", "-o", "embedded/model_gen.go")
}

// Provider groups targets that build providers over other catalogs.
type Provider mg.Namespace

// Family builds bin/family/terraform-provider-takoform over the Form family at DIR (checked now, embedded in the binary) and prints its dev_overrides.
func (Provider) Family(dir string) error {
	return buildFamily(dir)
}
