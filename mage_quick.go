//go:build mage

package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/takokit/takokit/internal/testrun"
)

// quickBaseEnv names another base than main for `mage quick` (a branch, a commit).
const quickBaseEnv = "TAKOKIT_QUICK_BASE"

// runQuick runs, with -short, the unit tests of the packages holding a file changed since
// the branch left main (git diff main...HEAD), uncommitted and untracked files included:
// each module's binTests are skipped as in `mage unit`, and nothing is built first.
func runQuick() error {
	if err := checkTestEnv(); err != nil {
		return err
	}
	base := os.Getenv(quickBaseEnv)
	if base == "" {
		base = "main"
	}
	files, err := changedFiles(base)
	if err != nil {
		return err
	}
	root, err := filepath.Abs(".")
	if err != nil {
		return err
	}
	pkgs, err := workspacePackages()
	if err != nil {
		return err
	}
	abs := make([]string, len(files))
	for i, f := range files {
		abs[i] = filepath.Join(root, f)
	}
	changed := testrun.ChangedPackages(abs, pkgs)
	env, err := testEnv()
	if err != nil {
		return err
	}
	env = append(env, binEnv...)
	var jobs []testrun.Job
	for _, m := range modules {
		dir := filepath.Join(root, m)
		ps := changed[dir]
		if len(ps) == 0 {
			continue
		}
		args := slices.Concat(cacheFlags(), []string{"-short"}, parallelFlags(m))
		if s := binTests[m]; s != "" {
			args = append(args, "-skip", s)
		}
		jobs = append(jobs, testrun.Job{Name: m, Dir: m, Env: env, GoTest: append(args, ps...)})
	}
	fmt.Printf("%d files changed since %s (committed, uncommitted, untracked): %d packages in %d modules\n",
		len(files), base, countPackages(changed), len(jobs))
	total := testrun.Run(saveJSON(jobs), testJobs(), os.Stdout)
	return finish(total)
}

// changedFiles are the files that differ between the merge base of base and HEAD and the
// work tree (committed, staged or not), and the untracked files git does not ignore,
// relative to the repository root.
func changedFiles(base string) ([]string, error) {
	set := map[string]bool{}
	for _, args := range [][]string{
		{"diff", "--name-only", base + "...HEAD"},
		{"diff", "--name-only", "HEAD"},
		{"ls-files", "--others", "--exclude-standard"},
	} {
		out, err := exec.Command("git", args...).Output()
		if err != nil {
			return nil, fmt.Errorf("git %s: %w (set %s to another base than %s)", strings.Join(args, " "), err, quickBaseEnv, base)
		}
		for _, f := range strings.Fields(string(out)) {
			set[f] = true
		}
	}
	files := make([]string, 0, len(set))
	for f := range set {
		files = append(files, f)
	}
	sort.Strings(files)
	return files, nil
}

// workspacePackages lists every package of the workspace's modules in one go list.
func workspacePackages() ([]testrun.Package, error) {
	args := []string{"list", "-e", "-f", "{{.Dir}} {{.ImportPath}} {{with .Module}}{{.Dir}}{{end}}"}
	for _, m := range modules {
		args = append(args, "./"+filepath.ToSlash(filepath.Join(m, "..."))) // ./... for the root module
	}
	out, err := exec.Command("go", args...).Output()
	if err != nil {
		return nil, fmt.Errorf("go list the workspace's packages: %w", err)
	}
	return testrun.ParsePackages(string(out)), nil
}

func countPackages(m map[string][]string) int {
	n := 0
	for _, ps := range m {
		n += len(ps)
	}
	return n
}
