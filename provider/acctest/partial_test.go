package acctest

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/takokit/takokit/hostsim"
	"github.com/takokit/takokit/provider/takoformtest"
)

const kvConfig = `
resource "takoform_edge_kv_namespace" "cache" {
  name = "cache"
}
`

const bucketConfig = `
resource "takoform_edge_object_bucket" "assets" {
  name = "assets"
}
`

// TestAccPartialHostKVOnly runs against a kv-only host: a KV namespace applies, and
// adding a bucket is refused at plan, before the host sees a write for it.
func TestAccPartialHostKVOnly(t *testing.T) {
	ready(t)
	h := takoformtest.Start(t, takoformtest.Options{Host: hostsim.Config{Profile: "kv-only"}})
	var mutationsAfterKV int64
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: h.ProviderFactories,
		CheckDestroy:             h.CheckDestroy,
		Steps: []resource.TestStep{
			{
				Config: h.Config(kvConfig),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("takoform_edge_kv_namespace.cache", tfjsonpath.New("ready"), knownvalue.Bool(true)),
				},
				Check: func(_ *terraform.State) error {
					// while the namespace exists, CheckDestroy names it
					if err := h.CheckDestroy(nil); err == nil || !strings.Contains(err.Error(), "EdgeKVNamespace acc/cache") {
						return fmt.Errorf("CheckDestroy while the namespace exists = %v; want an error naming EdgeKVNamespace acc/cache", err)
					}
					c, err := h.Sim.Admin.Counters()
					mutationsAfterKV = c.Mutations
					return err
				},
			},
			{
				Config:      h.Config(kvConfig + bucketConfig),
				ExpectError: regexp.MustCompile(`Host does not offer ObjectBucket`),
			},
		},
	})
	c, err := h.Sim.Admin.Counters()
	if err != nil {
		t.Fatal(err)
	}
	// the namespace's create and the case's destroy; nothing for the bucket
	if mutationsAfterKV != 1 || c.Mutations != 2 {
		t.Errorf("the host counted %d mutations after the namespace and %d in all; want 1 and 2 (the refused bucket wrote nothing)", mutationsAfterKV, c.Mutations)
	}
}
