//go:build mage

package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sort"
	"strings"
	"time"
)

// tally counts test results across every `go test -json` stream of a run.
type tally struct {
	passed, failed, skipped int
	failedNames             []string
}

func (t *tally) add(o tally) {
	t.passed += o.passed
	t.failed += o.failed
	t.skipped += o.skipped
	t.failedNames = append(t.failedNames, o.failedNames...)
}

type testEvent struct {
	Action  string
	Package string
	Test    string
	Output  string
	Elapsed float64
}

func runAllTests() error {
	var total tally
	unitErr := runModuleTestsInto(&total, true)
	selfErr := conformanceSelftest()
	printSummary(total)
	if unitErr != nil {
		return unitErr
	}
	return selfErr
}

func runModuleTests(withScenarios bool) error {
	var total tally
	err := runModuleTestsInto(&total, withScenarios)
	printSummary(total)
	return err
}

func runScenarios() error {
	var total tally
	env, err := binDirEnv()
	if err != nil {
		return err
	}
	err = goTestJSON(".", env, &total, "-run", "TestScenarios", "./scripts")
	printSummary(total)
	return err
}

// runModuleTestsInto runs `go test ./...` in every module. The root module holds the scenario
// runner (scripts/) and the dashboard's browser test (browser/), which need bin/; without
// scenarios both are skipped by -skip.
func runModuleTestsInto(total *tally, withScenarios bool) error {
	env, err := binDirEnv()
	if err != nil {
		return err
	}
	var failed []string
	for _, m := range modules {
		args := []string{"./..."}
		if m == "." && !withScenarios { // both need bin/ (and the browser test Chromium)
			args = append([]string{"-skip", "TestScenarios|TestDashboardInBrowser"}, args...)
		}
		if err := goTestJSON(m, env, total, args...); err != nil {
			failed = append(failed, m)
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("tests failed in module(s): %s", strings.Join(failed, ", "))
	}
	return nil
}

// goTestJSON runs go test -json and prints a compact, go-test-like report: one line per package,
// and the full output of every failed test only.
func goTestJSON(dir string, env []string, total *tally, args ...string) error {
	full := append([]string{"test", "-json", "-count=1", "-timeout", "75m"}, args...)
	fmt.Printf("+ (cd %s && go %s)\n", dir, strings.Join(full, " "))
	cmd := exec.Command("go", full...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	t := consume(out)
	waitErr := cmd.Wait()
	total.add(t)
	if waitErr != nil || t.failed > 0 {
		return fmt.Errorf("go test in %s failed", dir)
	}
	return nil
}

func consume(r io.Reader) tally {
	var t tally
	outputs := map[string]*strings.Builder{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var ev testEvent
		if json.Unmarshal(sc.Bytes(), &ev) != nil {
			fmt.Println(sc.Text()) // build errors arrive as plain text
			continue
		}
		key := ev.Package + " " + ev.Test
		switch ev.Action {
		case "output":
			b := outputs[key]
			if b == nil {
				b = &strings.Builder{}
				outputs[key] = b
			}
			b.WriteString(ev.Output)
		case "pass", "fail", "skip":
			if ev.Test == "" {
				printPackage(ev, outputs[key])
				continue
			}
			switch ev.Action {
			case "pass":
				t.passed++
			case "skip":
				t.skipped++
			case "fail":
				t.failed++
				t.failedNames = append(t.failedNames, ev.Package+"."+ev.Test)
				if b := outputs[key]; b != nil {
					fmt.Print(b.String())
				}
			}
			delete(outputs, key)
		}
	}
	return t
}

func printPackage(ev testEvent, out *strings.Builder) {
	d := time.Duration(ev.Elapsed * float64(time.Second)).Round(10 * time.Millisecond)
	switch ev.Action {
	case "pass":
		fmt.Printf("ok   %s (%s)\n", ev.Package, d)
	case "skip":
		fmt.Printf("?    %s [no test files]\n", ev.Package)
	default:
		if out != nil {
			fmt.Print(out.String())
		}
		fmt.Printf("FAIL %s (%s)\n", ev.Package, d)
	}
}

func conformanceSelftest() error {
	return run(".", nil, "bin/conformance", "selftest", "--hostsim", "bin/hostsim")
}

func printSummary(t tally) {
	sort.Strings(t.failedNames)
	for _, n := range t.failedNames {
		fmt.Println("failed:", n)
	}
	fmt.Printf("tests: %d passed, %d failed, %d skipped\n", t.passed, t.failed, t.skipped)
}
