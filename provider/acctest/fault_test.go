package acctest

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/takokit/takokit/provider/takoformtest"
)

// TestAccFaultOmittedOutputFailsCreate arms outputs.omit for one answer: the host's
// create answer lacks the endpoint's url, so the apply fails with the provider's
// output-contract-violated diagnostic instead of recording url = null. The fault's
// counter proves it fired; the case's destroy then removes the tainted endpoint.
func TestAccFaultOmittedOutputFailsCreate(t *testing.T) {
	ready(t)
	h := takoformtest.Start(t, takoformtest.Options{})
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: h.ProviderFactories,
		CheckDestroy:             h.CheckDestroy,
		Steps: []resource.TestStep{{
			PreConfig: func() {
				if err := h.Sim.Admin.ArmFault("outputs.omit=url,kind=WorkerEndpoint,count=1"); err != nil {
					t.Fatal(err)
				}
			},
			Config:      h.Config(endpointConfig(t)),
			ExpectError: regexp.MustCompile(`(?s)unusable output "url".*output-contract-violated`),
		}},
	})
	c, err := h.Sim.Admin.Counters()
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Fired["outputs.omit=url"]; got != 1 {
		t.Errorf("outputs.omit=url fired %d times; want 1 (fired: %v)", got, c.Fired)
	}
}
