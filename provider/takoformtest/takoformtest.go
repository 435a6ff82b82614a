// Package takoformtest joins hostsim to terraform-plugin-testing: Start runs an
// in-process hostsim (hostsim/hostsimtest) with the profile, faults and catalog a
// test asks for, and hands back the provider factories and the provider block that
// resource.Test needs; UseOpenTofu points terraform-plugin-testing at an OpenTofu
// binary. docs/guides/testing-with-hostsim.md shows a whole test.
//
// It lives in the provider module, not beside hostsimtest in the hostsim module,
// because it builds the provider: hostsim never imports the provider
// (docs/decisions.md, "the acceptance helper").
package takoformtest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/takokit/takokit/catalog/embedded"
	"github.com/takokit/takokit/catalog/model"
	"github.com/takokit/takokit/hostsim"
	"github.com/takokit/takokit/hostsim/hostsimtest"
	"github.com/takokit/takokit/provider/takoform"
)

// DefaultSpace and DefaultToken are what Start's provider block uses when Options
// leaves them empty: "sim-primary" is one of hostsim's default tokens.
const (
	DefaultSpace = "acc"
	DefaultToken = "sim-primary"
)

// Options choose the host and the provider of one test. The zero value is a `full`
// host and the provider over the embedded catalog.
type Options struct {
	// Host configures the in-process hostsim: Profile ("kv-only", "no-endpoints",
	// a profile file), ProfileDoc (faults armed from the start go in its Faults),
	// Tokens, Seed, ... (hostsim.Config).
	Host hostsim.Config
	// Catalog is the catalog the provider is built over; nil = the embedded one
	// (what terraform-provider-takoform serves). A family provider passes its own,
	// and the host then serves the same catalog unless Host.Catalog says otherwise.
	Catalog *model.Catalog
	// Version is the provider version the factories report; "" = "acctest".
	Version string
	// Space and Token go into the provider block; "" = DefaultSpace, DefaultToken.
	Space, Token string
}

// Host is one running host and the provider that reaches it.
type Host struct {
	// Sim is the running simulator: its URL and its admin client (counters, faults,
	// state; docs/protocol.md#admin).
	Sim *hostsimtest.Sim
	// ProviderFactories is resource.TestCase.ProtoV6ProviderFactories: the provider
	// under the name "takoform", served in-process.
	ProviderFactories map[string]func() (tfprotov6.ProviderServer, error)
	// ProviderConfig is the required_providers entry (source Source) and a
	// provider "takoform" block naming this host's endpoint,
	// token and space; prepend it to each step's configuration (Config does).
	ProviderConfig string
}

// Start starts a host for t with opts and builds the provider factories; the host
// stops when t ends. It fails t when the host or the provider cannot be built.
func Start(t testing.TB, opts Options) *Host {
	t.Helper()
	hostCfg := opts.Host
	if hostCfg.Catalog == nil && opts.Catalog != nil {
		hostCfg.Catalog = opts.Catalog
	}
	cat := opts.Catalog
	if cat == nil {
		cat = embedded.Catalog()
	}
	version := opts.Version
	if version == "" {
		version = "acctest"
	}
	factory, err := takoform.New(version, cat)
	if err != nil {
		t.Fatalf("takoformtest: build the provider: %v", err)
	}
	sim := hostsimtest.Start(t, hostCfg)
	space, token := opts.Space, opts.Token
	if space == "" {
		space = DefaultSpace
	}
	if token == "" {
		token = DefaultToken
	}
	return &Host{
		Sim: sim,
		ProviderFactories: map[string]func() (tfprotov6.ProviderServer, error){
			// a fresh provider per command, as OpenTofu starts a fresh process
			takoform.TypeName: func() (tfprotov6.ProviderServer, error) {
				return providerserver.NewProtocol6WithError(factory())()
			},
		},
		ProviderConfig: fmt.Sprintf(providerBlock, Source, takoform.TypeName, sim.URL, token, space),
	}
}

// providerBlock names the provider by the source the project publishes, so the
// reattached provider's address is the one UseOpenTofu registers.
const providerBlock = `terraform {
  required_providers {
    takoform = { source = %q }
  }
}

provider %q {
  endpoint = %q
  token    = %q
  space    = %q
}
`

// Config returns the provider block followed by hcl: a step's whole configuration.
func (h *Host) Config(hcl string) string {
	return h.ProviderConfig + "\n" + strings.TrimLeft(hcl, "\n")
}
