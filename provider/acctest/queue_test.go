package acctest

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/takokit/takokit/provider/takoformtest"
)

func queueConfig(retention int) string {
	return fmt.Sprintf(`
resource "takoform_at_least_once_queue" "q" {
  name                      = "orders"
  message_retention_seconds = %d
}
`, retention)
}

// TestAccQueueLifecycle creates a queue, updates it in place (same uid, generation 2),
// imports it by SPACE/NAME and verifies the imported state equals the applied one, then
// destroys it; the host holds nothing afterwards.
func TestAccQueueLifecycle(t *testing.T) {
	ready(t)
	h := takoformtest.Start(t, takoformtest.Options{})
	const addr = "takoform_at_least_once_queue.q"
	// the update is in place: the host keeps the incarnation's uid
	sameUID := statecheck.CompareValue(compare.ValuesSame())
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: h.ProviderFactories,
		CheckDestroy:             h.CheckDestroy,
		Steps: []resource.TestStep{
			{
				Config: h.Config(queueConfig(345600)),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("generation"), knownvalue.StringExact("1")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("message_retention_seconds"), knownvalue.Int64Exact(345600)),
					sameUID.AddStateValue(addr, tfjsonpath.New("uid")),
				},
			},
			{
				Config: h.Config(queueConfig(86400)),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("generation"), knownvalue.StringExact("2")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("message_retention_seconds"), knownvalue.Int64Exact(86400)),
					sameUID.AddStateValue(addr, tfjsonpath.New("uid")),
				},
			},
			{
				ResourceName:                         addr,
				ImportState:                          true,
				ImportStateId:                        takoformtest.DefaultSpace + "/orders",
				ImportStateVerify:                    true,
				ImportStateVerifyIdentifierAttribute: "name",
			},
		},
	})
}
