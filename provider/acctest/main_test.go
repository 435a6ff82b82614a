// Package acctest holds the provider's acceptance tests: terraform-plugin-testing's
// resource.Test runs the real OpenTofu CLI (bin/tofu) against an in-process hostsim
// started by takoformtest (docs/guides/testing-with-hostsim.md).
package acctest

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/takokit/takokit/catalog/testlog"
	"github.com/takokit/takokit/provider/takoformtest"
)

// notReady says why the acceptance tests cannot run ("" when they can).
var notReady string

// TestMain points terraform-plugin-testing at OpenTofu before any test runs: the
// binary TF_ACC_TERRAFORM_PATH names, else the workspace's bin/tofu. TF_ACC is set
// here, so `go test` in this package runs them whenever OpenTofu is there (`go tool
// mage unit` leaves them out by name: they need bin/).
func TestMain(m *testing.M) {
	// OpenTofu and bin/ are outside this module, where go test's result cache does not
	// look: reading bin/tofu's id that `go tool mage test` sets keys the results on it
	// (the provider and hostsim they run are linked into this test binary;
	// docs/decisions.md#test-cache).
	_ = os.Getenv("TAKOKIT_BIN_ID_TOFU")
	notReady = prepare()
	os.Exit(testlog.Main(m)) // the parallel tests' input list in one order (docs/decisions.md#test-cache)
}

func prepare() string {
	if tofu := os.Getenv(takoformtest.EnvTofuPath); tofu != "" {
		if _, err := os.Stat(tofu); err != nil {
			return fmt.Sprintf("%s names %s, which is missing: unset it to use the workspace's bin/tofu (`go tool mage tofu` builds it)", takoformtest.EnvTofuPath, tofu)
		}
	}
	tofu := os.Getenv(takoformtest.EnvTofuPath)
	if tofu == "" {
		root, err := workspaceRoot()
		if err != nil {
			return err.Error()
		}
		tofu = filepath.Join(root, "bin", "tofu")
		if _, err := os.Stat(tofu); err != nil {
			return fmt.Sprintf("%s is missing: run `go tool mage tofu` (or `go tool mage test`) first", tofu)
		}
	}
	if err := takoformtest.UseOpenTofu(tofu); err != nil {
		return err.Error()
	}
	if err := os.Setenv(takoformtest.EnvAcc, "1"); err != nil {
		return err.Error()
	}
	return ""
}

// workspaceRoot is the directory of the go.work above the working directory.
func workspaceRoot() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for d := wd; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.work")); err == nil {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("no go.work above %s: set %s to an OpenTofu binary", wd, takoformtest.EnvTofuPath)
		}
	}
}

// ready fails the test in CI (CI=true) and skips it elsewhere when OpenTofu is not
// there, saying how to build it; then it marks the test parallel: each test owns its
// host.
func ready(t *testing.T) {
	t.Helper()
	if notReady != "" {
		if os.Getenv("CI") == "true" {
			t.Fatal(notReady + "; in CI `go tool mage test` builds it before the tests")
		}
		t.Skip(notReady)
	}
	t.Parallel()
}
