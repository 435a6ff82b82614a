//go:build mage

package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/takokit/takokit/internal/testtally"
)

// runAllTests runs every module's tests (scenarios included) and the conformance self-test,
// after the build steps given; a failed step counts as one failure and the run goes on, so
// the report always closes with the tally line.
func runAllTests(steps ...step) error {
	var total testtally.Tally
	runSteps(&total, steps)
	runModuleTestsInto(&total, true)
	if err := conformanceSelftest(); err != nil {
		fmt.Printf("conformance self-test: %v\n", err)
		total.Fail("conformance selftest")
	}
	return finish(total)
}

func runModuleTests(withScenarios bool) error {
	var total testtally.Tally
	runModuleTestsInto(&total, withScenarios)
	return finish(total)
}

func runScenarios(steps ...step) error {
	var total testtally.Tally
	runSteps(&total, steps)
	env, err := binDirEnv()
	if err != nil {
		return err
	}
	goTestJSON(".", env, &total, "-run", "TestScenarios", "./scripts")
	return finish(total)
}

// step is a build step run before tests (mage build, mage tofu).
type step struct {
	name string
	run  func() error
}

func runSteps(total *testtally.Tally, steps []step) {
	for _, s := range steps {
		if err := s.run(); err != nil {
			fmt.Printf("%s: %v\n", s.name, err)
			total.Fail(s.name)
		}
	}
}

// finish prints the summary as the report's LAST line. On failure it exits 1 itself: a
// returned error would make mage print "Error: ..." after the closing line.
func finish(total testtally.Tally) error {
	testtally.PrintSummary(os.Stdout, total)
	if total.Failed > 0 {
		os.Stdout.Sync()
		os.Exit(1)
	}
	return nil
}

// binTests are, per module, the tests that need bin/: in the root module the scenario
// runner (scripts/), the dashboard's browser test (browser/), the tfplugindocs pages and
// examples (internal/providerdocs), the goreleaser snapshot (internal/release), the guides'
// copied acceptance examples (internal/guidetest) and the guides' commands (internal/guides);
// in the provider module its acceptance tests (provider/acctest: resource.Test through
// bin/tofu). `mage unit` skips them by name; `mage test` builds bin/ first and runs them.
var binTests = map[string]string{
	".":        "TestScenarios|TestDashboardInBrowser|TestProviderDocs|TestReleaseSnapshot|TestGuideAcceptanceExamples|TestGuides",
	"provider": "^TestAcc[A-Z]",
}

// runModuleTestsInto runs `go test ./...` in every module; without scenarios each
// module's binTests are skipped by -skip.
func runModuleTestsInto(total *testtally.Tally, withScenarios bool) {
	env, err := binDirEnv()
	if err != nil {
		fmt.Println("bin/ on PATH:", err)
		total.Fail("bin/ on PATH")
		return
	}
	for _, m := range modules {
		args := []string{"./..."}
		if skip := binTests[m]; skip != "" && !withScenarios { // they need bin/ (and the browser test Chromium)
			args = append([]string{"-skip", skip}, args...)
		}
		goTestJSON(m, env, total, args...)
	}
}

// goTestJSON runs go test -json in dir, prints the output of what failed and one line for the
// module, and adds its counts to total. A go command that fails without a failed test or
// package in its stream (the module did not load) counts as one failure, its error printed.
func goTestJSON(dir string, env []string, total *testtally.Tally, args ...string) {
	full := append([]string{"test", "-json", "-count=1", "-timeout", "75m"}, args...)
	fmt.Printf("+ (cd %s && go %s)\n", dir, strings.Join(full, " "))
	start := time.Now()
	cmd := exec.Command("go", full...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		total.Fail("go test in " + dir + ": " + err.Error())
		return
	}
	if err := cmd.Start(); err != nil {
		total.Fail("go test in " + dir + ": " + err.Error())
		return
	}
	t := testtally.Consume(out, os.Stdout)
	waitErr := cmd.Wait()
	if stderr.Len() > 0 {
		os.Stdout.Write(stderr.Bytes())
	}
	if waitErr != nil && t.Failed == 0 {
		fmt.Printf("go test in %s: %v\n", dir, waitErr)
		t.Fail("module " + dir + " (go test: " + waitErr.Error() + ")")
	}
	fmt.Println(testtally.ModuleLine(dir, t, time.Since(start)))
	total.Add(t)
}

func conformanceSelftest() error {
	return run(".", nil, "bin/conformance", "selftest", "--hostsim", "bin/hostsim")
}
