package takoformtest_test

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/hostsim"
	"github.com/takokit/takokit/provider/takoformtest"
)

// resourceTypes asks a server from the factories for its schema, as OpenTofu's first
// call does, and returns the resource type names.
func resourceTypes(t *testing.T, h *takoformtest.Host) []string {
	t.Helper()
	srv, err := h.ProviderFactories["takoform"]()
	if err != nil {
		t.Fatal(err)
	}
	resp, err := srv.GetProviderSchema(context.Background(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range resp.Diagnostics {
		t.Errorf("schema diagnostic: %s: %s", d.Summary, d.Detail)
	}
	var out []string
	for name := range resp.ResourceSchemas {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

func health(t *testing.T, h *takoformtest.Host) (lane, profile string) {
	t.Helper()
	resp, err := http.Get(h.Sim.URL + "/_sim/health")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var doc struct{ Lane, Profile string }
	if err := json.NewDecoder(resp.Body).Decode(&doc); err != nil {
		t.Fatal(err)
	}
	return doc.Lane, doc.Profile
}

func TestStartServesTheEmbeddedProviderAndAFullHost(t *testing.T) {
	h := takoformtest.Start(t, takoformtest.Options{})
	types := resourceTypes(t, h)
	if len(types) != 15 || !strings.Contains(strings.Join(types, " "), "takoform_worker_endpoint") {
		t.Errorf("the embedded provider serves %d types %v; want the catalog's 15, takoform_worker_endpoint among them", len(types), types)
	}
	lane, profile := health(t, h)
	if lane != "forms.takoform.com/v1beta1" || profile != "full" {
		t.Errorf("host lane %q profile %q; want forms.takoform.com/v1beta1 full", lane, profile)
	}
	for _, want := range []string{`source = "takokit/takoform"`, `provider "takoform"`, `endpoint = "` + h.Sim.URL + `"`,
		`token    = "sim-primary"`, `space    = "acc"`} {
		if !strings.Contains(h.ProviderConfig, want) {
			t.Errorf("ProviderConfig lacks %s:\n%s", want, h.ProviderConfig)
		}
	}
	if got := h.Config("\nresource \"x\" \"y\" {}\n"); !strings.HasPrefix(got, h.ProviderConfig) || !strings.HasSuffix(got, "\nresource \"x\" \"y\" {}\n") {
		t.Errorf("Config does not put the provider block before the resources:\n%s", got)
	}
	// each command gets its own provider, as each OpenTofu command starts a process
	a, _ := h.ProviderFactories["takoform"]()
	b, _ := h.ProviderFactories["takoform"]()
	if a == b {
		t.Error("two factory calls returned the same server")
	}
	if err := h.CheckDestroy(nil); err != nil {
		t.Errorf("CheckDestroy on an empty host: %v", err)
	}
}

func TestStartGivesAFamilyCatalogToTheHostToo(t *testing.T) {
	cat, err := catalog.LoadRoot(filepath.Join("..", "..", "catalog", "data", "v1alpha3"))
	if err != nil {
		t.Fatal(err)
	}
	h := takoformtest.Start(t, takoformtest.Options{Catalog: cat, Host: hostsim.Config{Profile: "kv-only"}, Space: "team", Token: "sim-alternate"})
	if lane, profile := health(t, h); lane != "forms.takoform.com/v1alpha3" || profile != "kv-only" {
		t.Errorf("host lane %q profile %q; want the family's lane forms.takoform.com/v1alpha3 and kv-only", lane, profile)
	}
	if n := len(resourceTypes(t, h)); n != len(cat.Kinds()) {
		t.Errorf("the provider serves %d types; the family has %d kinds", n, len(cat.Kinds()))
	}
	if !strings.Contains(h.ProviderConfig, `space    = "team"`) || !strings.Contains(h.ProviderConfig, `token    = "sim-alternate"`) {
		t.Errorf("ProviderConfig ignores Space and Token:\n%s", h.ProviderConfig)
	}
}

func TestUseOpenTofuSetsTheFrameworksEnvironment(t *testing.T) {
	for _, k := range []string{takoformtest.EnvTofuPath, takoformtest.EnvProviderHost, takoformtest.EnvProviderNS, takoformtest.EnvCLIConfigFile} {
		t.Setenv(k, "before") // restored when the test ends
	}
	if err := takoformtest.UseOpenTofu(""); err == nil || !strings.Contains(err.Error(), "TF_ACC_TERRAFORM_PATH") {
		t.Errorf("UseOpenTofu(\"\") = %v; want an error naming TF_ACC_TERRAFORM_PATH", err)
	}
	missing := filepath.Join(t.TempDir(), "tofu")
	if err := takoformtest.UseOpenTofu(missing); err == nil || !strings.Contains(err.Error(), missing) || !strings.Contains(err.Error(), "go tool mage tofu") {
		t.Errorf("UseOpenTofu(missing) = %v; want an error naming %s and `go tool mage tofu`", err, missing)
	}
	if os.Getenv(takoformtest.EnvTofuPath) != "before" {
		t.Error("a refused UseOpenTofu changed the environment")
	}
	tofu := filepath.Join(t.TempDir(), "tofu")
	if err := os.WriteFile(tofu, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := takoformtest.UseOpenTofu(tofu); err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]string{takoformtest.EnvTofuPath: tofu, takoformtest.EnvProviderHost: "registry.opentofu.org",
		takoformtest.EnvProviderNS: "takokit", takoformtest.EnvCLIConfigFile: os.DevNull} {
		if got := os.Getenv(k); got != want {
			t.Errorf("%s = %q; want %q", k, got, want)
		}
	}
}
