// Package providerdocs renders the provider's documentation the ecosystem's way: the
// provider schema as `tofu providers schema -json` prints it, then tfplugindocs over
// templates/ and examples/. `go tool mage docs` writes the result into docs/; the package's
// test renders again and fails when the committed pages differ
// (docs/provider-design.md#documentation).
package providerdocs

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/takokit/takokit/internal/fsx"
)

// ProviderName is the provider's short name: tfplugindocs finds its schema under it and names
// each page after the resource type without the "takoform_" prefix.
const ProviderName = "takoform"

// Tools are the binaries a render runs, all absolute paths.
type Tools struct {
	Tofu         string // bin/tofu
	Provider     string // bin/terraform-provider-takoform
	Tfplugindocs string // bin/tfplugindocs
}

// BinTools names the tools in a repository's bin/ directory and fails, naming the command
// that builds it, when one is missing.
func BinTools(bin string) (Tools, error) {
	t := Tools{Tofu: filepath.Join(bin, "tofu"), Provider: filepath.Join(bin, "terraform-provider-takoform"),
		Tfplugindocs: filepath.Join(bin, "tfplugindocs")}
	for _, p := range []struct{ path, build string }{
		{t.Tofu, "go tool mage tofu"}, {t.Provider, "go tool mage build"}, {t.Tfplugindocs, "go tool mage releaseTools"},
	} {
		if _, err := os.Stat(p.path); err != nil {
			return Tools{}, fmt.Errorf("%s is missing: run `%s` (or `go tool mage test`) first", p.path, p.build)
		}
	}
	return t, nil
}

// Render renders the documentation of the repository at root and returns every page
// tfplugindocs wrote, keyed by slash path from the root ("docs/index.md",
// "docs/resources/<type without takoform_>.md"). It writes nothing under root: the
// templates and examples are copied to a scratch directory, because tfplugindocs empties
// the docs directories it manages (docs/guides among them) before it writes.
func Render(root string, tools Tools) (map[string][]byte, error) {
	stage, err := os.MkdirTemp("", "takokit-docs-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(stage)
	for _, dir := range []string{"templates", filepath.Join("examples", "provider"), filepath.Join("examples", "resources")} {
		if err := fsx.CopyTree(filepath.Join(root, dir), filepath.Join(stage, dir)); err != nil {
			return nil, fmt.Errorf("stage %s for tfplugindocs: %w", dir, err)
		}
	}
	raw, err := ProviderSchema(tools, filepath.Join(stage, "schema"))
	if err != nil {
		return nil, err
	}
	schemaFile := filepath.Join(stage, "schema.json")
	if err := os.WriteFile(schemaFile, raw, 0o644); err != nil {
		return nil, err
	}
	// generate, then tfplugindocs' own check of what it wrote (front matter, layout, one page
	// per resource type)
	for _, args := range [][]string{
		{"generate", "--provider-dir", stage, "--provider-name", ProviderName, "--rendered-provider-name", ProviderName, "--providers-schema", schemaFile},
		{"validate", "--provider-dir", stage, "--provider-name", ProviderName, "--providers-schema", schemaFile},
	} {
		cmd := exec.Command(tools.Tfplugindocs, args...)
		cmd.Env = cleanEnv()
		if out, err := cmd.CombinedOutput(); err != nil {
			return nil, fmt.Errorf("tfplugindocs %s failed (%v); its output:\n%s", args[0], err, withoutDebug(out))
		}
	}
	pages := map[string][]byte{}
	err = filepath.WalkDir(filepath.Join(stage, "docs"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(stage, p)
		if err != nil {
			return err
		}
		b, err := os.ReadFile(p)
		pages[filepath.ToSlash(rel)] = b
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("read what tfplugindocs wrote: %w", err)
	}
	if _, ok := pages["docs/index.md"]; !ok {
		// tfplugindocs writes one even without templates/index.md.tmpl: a guard
		// against another version of it, not a user's mistake
		return nil, fmt.Errorf("tfplugindocs wrote no docs/index.md; is bin/tfplugindocs the version tools/release names?")
	}
	return pages, nil
}

// withoutDebug is tfplugindocs' output without its [DEBUG] lines: validate prints one
// per file it checks, and the line saying what is wrong would drown among them.
func withoutDebug(out []byte) string {
	var keep []string
	for _, l := range strings.Split(string(out), "\n") {
		if !strings.Contains(l, "[DEBUG]") {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}

// cleanEnv is the caller's environment without OpenTofu's, Terraform's and the provider's
// own variables: a TF_CLI_CONFIG_FILE or TAKOFORM_* of the caller must not change a render.
func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "TF_") || strings.HasPrefix(kv, "TOFU_") || strings.HasPrefix(kv, "TAKOFORM_") {
			continue
		}
		env = append(env, kv)
	}
	return append(env, "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1")
}

// run runs a command in dir with env and returns its stdout; a failure carries stderr.
func run(dir string, env []string, name string, args ...string) ([]byte, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env = dir, env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%s %s in %s: %v\n%s", filepath.Base(name), strings.Join(args, " "), dir, err, stderr.Bytes())
	}
	return out, nil
}
