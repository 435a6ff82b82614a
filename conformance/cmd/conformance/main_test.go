package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/takokit/takokit/conformance"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func runCLI(t *testing.T, getenv func(string) string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	err := run(context.Background(), args, &out, &errb, getenv)
	code := exitCode(err, &errb)
	return code, out.String(), errb.String()
}

func TestUsageErrorsExit2(t *testing.T) {
	noEnv := env(nil)
	withTok := env(map[string]string{"TOK": "secret-token-value"})
	for name, args := range map[string][]string{
		"no command":           {},
		"unknown command":      {"frobnicate"},
		"run without endpoint": {"run", "--token-env", "TOK"},
		"run without token":    {"run", "--endpoint", "http://127.0.0.1:1"},
		"unset token variable": {"run", "--endpoint", "http://127.0.0.1:1", "--token-env", "NOPE"},
		"endpoint with a path": {"run", "--endpoint", "http://127.0.0.1:1/apis", "--token-env", "TOK"},
		"unknown format":       {"run", "--endpoint", "http://127.0.0.1:1", "--token-env", "TOK", "--format", "xml"},
		"unknown check id":     {"run", "--endpoint", "http://127.0.0.1:1", "--token-env", "TOK", "--only", "no-such-check"},
		"unknown flag":         {"list", "--colour"},
		"unknown list format":  {"list", "--format", "yaml"},
		"missing hostsim":      {"selftest", "--hostsim", "/nonexistent/hostsim"},
	} {
		getenv := noEnv
		if strings.Contains(strings.Join(args, " "), "TOK") {
			getenv = withTok
		}
		code, _, stderr := runCLI(t, getenv, args...)
		if code != 2 {
			t.Errorf("%s: exit %d, want 2 (stderr %q)", name, code, stderr)
		}
		if !strings.Contains(stderr, "usage:") {
			t.Errorf("%s: stderr lacks the usage text: %q", name, stderr)
		}
		if strings.Contains(stderr, "secret-token-value") {
			t.Errorf("%s: a token reached stderr", name)
		}
	}
}

func TestRunUnreachableHostExits2(t *testing.T) {
	code, stdout, stderr := runCLI(t, env(map[string]string{"TOK": "t"}), "run", "--endpoint", "http://127.0.0.1:1", "--token-env", "TOK")
	if code != 2 || !strings.Contains(stderr, "could not run") || !strings.Contains(stderr, "127.0.0.1:1") || stdout != "" {
		t.Fatalf("exit %d stdout %q stderr %q; want 2, nothing on stdout, stderr naming the endpoint", code, stdout, stderr)
	}
}

func TestListMarkdownToFile(t *testing.T) {
	out := filepath.Join(t.TempDir(), "checks.md")
	if code, _, stderr := runCLI(t, env(nil), "list", "--format", "markdown", "--out", out); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	if err := conformance.WriteList(&want, "markdown", conformance.Table()); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want.Bytes()) {
		t.Error("list --format markdown --out wrote something other than the generated list")
	}
}
