//go:build mage

package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// ifChanged runs build unless the stamp bin/.stamp-NAME says it already ran on these
// inputs and its outputs are still the files it wrote: the tools modules (OpenTofu, the
// release tools) change rarely, and even an up-to-date `go build` of them spends seconds
// loading their module graphs. The stamp holds a hash of the go version, the input files
// and the extra strings (flags, packages), and each output's size and modification time.
func ifChanged(name string, inputs, extra, outputs []string, build func() error) error {
	want, err := stampKey(inputs, extra)
	if err != nil {
		return err
	}
	stamp := filepath.Join("bin", ".stamp-"+name)
	if have, err := os.ReadFile(stamp); err == nil && string(have) == want+outputState(outputs) {
		fmt.Printf("+ %s: unchanged since its last build (%s), not rebuilt\n", name, strings.Join(inputs, ", "))
		return nil
	}
	if err := build(); err != nil {
		os.Remove(stamp)
		return err
	}
	return os.WriteFile(stamp, []byte(want+outputState(outputs)), 0o644)
}

func stampKey(inputs, extra []string) (string, error) {
	goVersion, err := exec.Command("go", "env", "GOVERSION", "GOOS", "GOARCH").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOVERSION: %w", err)
	}
	h := sha256.New()
	h.Write(goVersion)
	for _, e := range extra {
		fmt.Fprintf(h, "%q\n", e)
	}
	for _, in := range inputs {
		raw, err := os.ReadFile(in)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s %d\n", in, len(raw))
		h.Write(raw)
	}
	return hex.EncodeToString(h.Sum(nil)) + "\n", nil
}

// outputState is each output's size and modification time, or "missing".
func outputState(outputs []string) string {
	var b strings.Builder
	for _, o := range outputs {
		st, err := os.Stat(o)
		if err != nil {
			fmt.Fprintf(&b, "%s missing\n", o)
			continue
		}
		fmt.Fprintf(&b, "%s %d %d\n", o, st.Size(), st.ModTime().UnixNano())
	}
	return b.String()
}

// tofuIfChanged is buildTofu unless tools/go.mod and go.sum are what bin/tofu was built from.
func tofuIfChanged() error {
	return ifChanged("tofu", []string{"tools/go.mod", "tools/go.sum"}, []string{tofuPkg, tofuLDFlags},
		[]string{"bin/tofu"}, buildTofu)
}

// releaseToolsIfChanged is buildReleaseTools for tools unless tools/release/go.mod and
// go.sum are what their binaries were built from.
func releaseToolsIfChanged(tools ...releaseTool) error {
	var pkgs, outs []string
	for _, t := range tools {
		pkgs = append(pkgs, t.pkg)
		outs = append(outs, filepath.Join("bin", t.name))
	}
	return ifChanged("release-tools", []string{"tools/release/go.mod", "tools/release/go.sum"}, pkgs, outs,
		func() error { return buildReleaseTools(tools...) })
}
