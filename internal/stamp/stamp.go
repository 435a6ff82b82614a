// Package stamp decides the version `go tool mage build` links into the project's
// binaries: it names the commit of the files the binaries are built from, not the
// commit of the whole tree, so a commit or an edit that leaves those files alone (a
// guide, a test, a scenario) leaves the binaries' bytes alone too, and the tests that
// run them keep their cached results (docs/decisions.md#test-cache).
package stamp

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// listFormat prints, for each package of a workspace module among the dependencies, its
// directory and the files of it that go into a build, and the module's go.mod.
const listFormat = `{{if and .Module .Module.Main}}{{.Dir}}` + "\t" +
	`{{join .GoFiles "\t"}}` + "\t" + `{{join .CgoFiles "\t"}}` + "\t" + `{{join .EmbedFiles "\t"}}` +
	"\n" + `{{.Module.GoMod}}{{end}}`

// Inputs lists, relative to root and sorted, the files the packages (and what they
// import from the workspace's own modules) are built from: their Go files, the files
// they embed, each module's go.mod and go.sum, go.work and go.work.sum, and the extra
// files (paths relative to root, e.g. what a build step generates Go from).
func Inputs(root string, extra []string, pkgs ...string) ([]string, error) {
	if len(pkgs) == 0 {
		return nil, fmt.Errorf("stamp inputs: no package named")
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command("go", append([]string{"list", "-deps", "-f", listFormat}, pkgs...)...)
	cmd.Dir = abs
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list -deps %s in %s (the files the binaries are built from): %v: %s",
			strings.Join(pkgs, " "), abs, err, strings.TrimSpace(stderr.String()))
	}
	set := map[string]bool{}
	add := func(p string) {
		rel, err := filepath.Rel(abs, p)
		if err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			set[filepath.ToSlash(rel)] = true
		}
	}
	for _, line := range strings.Split(string(out), "\n") {
		fields := strings.Split(line, "\t")
		if len(fields) == 1 {
			if mod := fields[0]; mod != "" {
				add(mod)
				if sum := strings.TrimSuffix(mod, ".mod") + ".sum"; exists(sum) {
					add(sum)
				}
			}
			continue
		}
		dir := fields[0]
		for _, f := range fields[1:] {
			if f != "" {
				add(filepath.Join(dir, f))
			}
		}
	}
	for _, f := range []string{"go.work", "go.work.sum"} { // when the root is a workspace
		if exists(filepath.Join(abs, f)) {
			add(filepath.Join(abs, f))
		}
	}
	for _, f := range extra {
		if !exists(filepath.Join(abs, f)) {
			return nil, fmt.Errorf("stamp inputs: %s is named as an input of the build but does not exist under %s", f, abs)
		}
		add(filepath.Join(abs, f))
	}
	files := make([]string, 0, len(set))
	for f := range set {
		files = append(files, f)
	}
	slices.Sort(files)
	return files, nil
}

// Version is what the binaries built from inputs (relative to root) say they are:
// `git describe --tags` of the last commit that changed one of them when a tag is
// reachable from it, else 0.0.0-dev+<that commit, 12 digits>; with "-dirty" or ".dirty"
// appended when one of them differs from that commit or is new and not yet committed.
func Version(root string, inputs []string) (string, error) {
	if len(inputs) == 0 {
		return "", fmt.Errorf("stamp version: no input files")
	}
	commit, err := git(root, append([]string{"log", "-1", "--format=%H", "--"}, inputs...)...)
	if err != nil {
		return "", fmt.Errorf("the build stamps its version from git: %w", err)
	}
	if commit == "" { // nothing committed yet touches them
		if commit, err = git(root, "rev-parse", "HEAD"); err != nil {
			return "", fmt.Errorf("the build stamps its version from git: %w", err)
		}
	}
	status, err := git(root, append([]string{"status", "--porcelain", "--untracked-files=all", "--"}, inputs...)...)
	if err != nil {
		return "", fmt.Errorf("the build stamps its version from git: %w", err)
	}
	dirty := status != ""
	if tag, err := git(root, "describe", "--tags", commit); err == nil && tag != "" {
		if dirty {
			tag += "-dirty"
		}
		return tag, nil
	}
	v := "0.0.0-dev+" + commit[:min(12, len(commit))]
	if dirty {
		v += ".dirty"
	}
	return v, nil
}

func git(root string, args ...string) (string, error) {
	cmd := exec.Command("git", append([]string{"-C", root}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("git %s: %v: %s", args[0], err, strings.TrimSpace(stderr.String()))
	}
	return strings.TrimSpace(string(out)), nil
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
