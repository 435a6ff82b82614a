package takoformtest

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/takokit/takokit/provider/takoform"
)

// Namespace and Source are the provider's source address without a host, as
// configurations write it; OpenTofu resolves it under registry.opentofu.org.
const (
	Namespace = "takokit"
	Source    = Namespace + "/" + takoform.TypeName
)

// The environment variables terraform-plugin-testing reads (helper/resource and its
// plugintest package) and the one OpenTofu reads for its CLI configuration.
const (
	EnvAcc           = "TF_ACC"
	EnvTofuPath      = "TF_ACC_TERRAFORM_PATH"
	EnvProviderHost  = "TF_ACC_PROVIDER_HOST"
	EnvProviderNS    = "TF_ACC_PROVIDER_NAMESPACE"
	EnvCLIConfigFile = "TF_CLI_CONFIG_FILE"
)

// OpenTofu's registry host: the host an address without one resolves under.
const openTofuRegistry = "registry.opentofu.org"

// UseOpenTofu makes resource.Test in this test process run the OpenTofu binary at
// tofu. Call it from TestMain, before any test runs: it sets process environment,
// which tests running in parallel must not race on.
//
// It sets TF_ACC_TERRAFORM_PATH to tofu's absolute path (so nothing is looked up on
// PATH or downloaded), TF_ACC_PROVIDER_HOST and TF_ACC_PROVIDER_NAMESPACE so the
// provider terraform-plugin-testing serves in-process is reattached under
// registry.opentofu.org/takokit/takoform — the address OpenTofu gives Source, so
// `tofu init` installs nothing and asks no registry — and TF_CLI_CONFIG_FILE to an
// empty configuration (os.DevNull), so no provider_installation, dev_overrides or
// credentials of the machine apply. TF_ACC itself stays the caller's choice: without
// it resource.Test skips, as everywhere in the ecosystem.
func UseOpenTofu(tofu string) error {
	if tofu == "" {
		return errors.New("takoformtest: no OpenTofu binary given (set TF_ACC_TERRAFORM_PATH to bin/tofu; `go tool mage tofu` builds it)")
	}
	abs, err := filepath.Abs(tofu)
	if err != nil {
		return fmt.Errorf("takoformtest: OpenTofu at %s: %w", tofu, err)
	}
	if _, err := exec.LookPath(abs); err != nil {
		return fmt.Errorf("takoformtest: OpenTofu at %s is not an executable file (`go tool mage tofu` builds bin/tofu): %w", abs, err)
	}
	for k, v := range map[string]string{
		EnvTofuPath:      abs,
		EnvProviderHost:  openTofuRegistry,
		EnvProviderNS:    Namespace,
		EnvCLIConfigFile: os.DevNull,
	} {
		if err := os.Setenv(k, v); err != nil {
			return fmt.Errorf("takoformtest: set %s: %w", k, err)
		}
	}
	return nil
}
