package providerdocs

import (
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
)

// cliConfig reaches the provider binary's directory through dev_overrides under both
// registry addresses, so the schema needs no `tofu init` and no network.
const cliConfig = `provider_installation {
  dev_overrides {
    "registry.opentofu.org/takokit/takoform" = %[1]q
    "registry.terraform.io/takokit/takoform" = %[1]q
  }
  direct {}
}
`

// WriteCLIConfig writes dir/tofurc, the CLI configuration that reaches tools.Provider, and
// returns its path (for TF_CLI_CONFIG_FILE).
func WriteCLIConfig(dir string, tools Tools) (string, error) {
	rc := filepath.Join(dir, "tofurc")
	return rc, os.WriteFile(rc, fmt.Appendf(nil, cliConfig, filepath.Dir(tools.Provider)), 0o644)
}

// schemaConfig requires the provider under its registry address.
const schemaConfig = `terraform {
  required_providers {
    takoform = {
      source = "takokit/takoform"
    }
  }
}
`

// ProviderSchema runs `tofu providers schema -json` in a fresh configuration under dir that
// requires takokit/takoform, with tools.Provider reached through dev_overrides, and returns
// the document with the one provider's schema keyed by ProviderName. OpenTofu keys it by
// registry address (registry.opentofu.org/takokit/takoform); tfplugindocs v0.25.0 looks a
// schema up only by the short name or under registry.terraform.io/hashicorp/, so the
// schema is moved under "takoform" unchanged (docs/decisions.md).
func ProviderSchema(tools Tools, dir string) ([]byte, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	rc, err := WriteCLIConfig(dir, tools)
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(schemaConfig), 0o644); err != nil {
		return nil, err
	}
	env := append(cleanEnv(), "TF_CLI_CONFIG_FILE="+rc)
	out, err := run(dir, env, tools.Tofu, "providers", "schema", "-json")
	if err != nil {
		return nil, fmt.Errorf("the provider schema could not be read: %w", err)
	}
	return rekey(out)
}

// rekey moves the single takoform provider schema of a `providers schema -json` document
// under ProviderName; the schema itself keeps every value OpenTofu printed.
func rekey(doc []byte) ([]byte, error) {
	var d struct {
		FormatVersion   string                     `json:"format_version"`
		ProviderSchemas map[string]json.RawMessage `json:"provider_schemas"`
	}
	if err := json.Unmarshal(doc, &d); err != nil {
		return nil, fmt.Errorf("tofu providers schema -json printed no schema document: %v", err)
	}
	var found []string
	for addr := range d.ProviderSchemas {
		if path.Base(addr) == ProviderName {
			found = append(found, addr)
		}
	}
	sort.Strings(found)
	if len(found) != 1 {
		return nil, fmt.Errorf("tofu providers schema -json holds %d %s provider schemas (%v), want exactly one", len(found), ProviderName, found)
	}
	return json.Marshal(struct {
		FormatVersion   string                     `json:"format_version"`
		ProviderSchemas map[string]json.RawMessage `json:"provider_schemas"`
	}{d.FormatVersion, map[string]json.RawMessage{ProviderName: d.ProviderSchemas[found[0]]}})
}
