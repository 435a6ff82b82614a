package acctest

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/takokit/takokit/hostsim"
	"github.com/takokit/takokit/provider/takoformtest"
)

// endpointConfig is a worker that serves fetch (its bundle from a module written to
// a test directory, a version, a deployment) and an endpoint routing to it.
func endpointConfig(t *testing.T) string {
	t.Helper()
	module := filepath.Join(t.TempDir(), "index.js")
	if err := os.WriteFile(module, []byte(`export default { async fetch() { return new Response("ok"); } };`), 0o644); err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf(`
resource "takoform_module_worker" "api" {
  name = "api"
}

resource "takoform_worker_bundle" "b" {
  revision_owner = "api"
  main_module    = "index.js"
  modules = [{
    name         = "index.js"
    content_type = "application/javascript+module"
    content_file = %q
  }]
}

resource "takoform_worker_version" "v" {
  revision_owner = "api"
  worker         = takoform_module_worker.api.name
  bundle         = takoform_worker_bundle.b.name
  handlers       = ["fetch"]
}

resource "takoform_worker_deployment" "d" {
  name   = "api"
  worker = takoform_module_worker.api.name
  versions = [{
    weight         = 10000
    worker_version = takoform_worker_version.v.name
  }]
}

resource "takoform_worker_endpoint" "e" {
  name       = "api"
  worker     = takoform_module_worker.api.name
  depends_on = [takoform_worker_deployment.d]
}
`, module)
}

// The host-assigned names hostsim gives an endpoint (docs/guides/partial-hosts.md).
var (
	hostnameRe = regexp.MustCompile(`^e[0-9a-f]{16}\.endpoints\.sim\.takokit\.test$`)
	urlRe      = regexp.MustCompile(`^https://e[0-9a-f]{16}\.endpoints\.sim\.takokit\.test/$`)
)

// TestAccEndpointTypedOutputs checks a WorkerEndpoint's declared outputs as typed
// state values: hostname and url strings of the host's pattern, port the number 443.
func TestAccEndpointTypedOutputs(t *testing.T) {
	ready(t)
	h := takoformtest.Start(t, takoformtest.Options{})
	const addr = "takoform_worker_endpoint.e"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: h.ProviderFactories,
		CheckDestroy:             h.CheckDestroy,
		Steps: []resource.TestStep{{
			Config: h.Config(endpointConfig(t)),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("hostname"), knownvalue.StringRegexp(hostnameRe)),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("url"), knownvalue.StringRegexp(urlRe)),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("port"), knownvalue.Int64Exact(443)),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("pending_operation_id"), knownvalue.Null()),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("ready"), knownvalue.Bool(true)),
			},
		}},
	})
}

// TestAccEndpointRefusedAtPlan runs the same configuration against a host whose
// profile (no-endpoints) does not offer WorkerEndpoint: the plan fails naming the
// Form, and the host saw no write at all.
func TestAccEndpointRefusedAtPlan(t *testing.T) {
	ready(t)
	h := takoformtest.Start(t, takoformtest.Options{Host: hostsim.Config{Profile: "no-endpoints"}})
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: h.ProviderFactories,
		CheckDestroy:             h.CheckDestroy,
		Steps: []resource.TestStep{{
			Config:      h.Config(endpointConfig(t)),
			ExpectError: regexp.MustCompile(`Host does not offer WorkerEndpoint`),
		}},
	})
	c, err := h.Sim.Admin.Counters()
	if err != nil {
		t.Fatal(err)
	}
	if c.Mutations != 0 || c.Uploads != 0 {
		t.Errorf("a plan-time refusal wrote to the host: %d mutations, %d uploads; want none", c.Mutations, c.Uploads)
	}
	if c.SupportReads == 0 {
		t.Error("the host counted no support read: the refusal was not decided from its profile")
	}
}
