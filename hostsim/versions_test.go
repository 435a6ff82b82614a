package hostsim_test

import (
	"fmt"
	"testing"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/hostsim"
	"github.com/takokit/takokit/hostsim/hostsimtest"
)

// A resource answers only under the FormRef it recorded; a create under the
// other definition version still collides with its name (docs/protocol.md#identity).
func TestResourceAnswersOnlyUnderItsRecordedFormRef(t *testing.T) {
	cat := testCatalog(t)
	var old, next *catalog.Form
	for _, k := range cat.Kinds() {
		if len(k.Versions) >= 2 && len(k.Versions[0].Relations) == 0 && len(k.Versions[0].Fixtures) > 0 && len(k.Versions[1].Fixtures) > 0 {
			old, next = k.Versions[0], k.Versions[1]
			break
		}
	}
	if old == nil {
		t.Skip("the catalog has no kind with two definition versions")
	}
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat})
	c := newClient(t, sim.URL, "sim-primary")
	for _, f := range []*catalog.Form{old, next} {
		c.do("GET", api+"/forms"+exactQuery(f, "prod"), nil, nil).status(200)
		c.do("GET", fmt.Sprintf("%s/support/forms/%s/%s/%s", api, f.Ref.APIVersion, f.Ref.Kind, f.Ref.DefinitionVersion), nil, nil).status(200)
	}
	created := c.create(old, "orders", "prod", fixture(t, old)).status(201)
	if !contains(created.body, `"definitionVersion":"`+old.Ref.DefinitionVersion+`"`) {
		t.Fatalf("the answer must carry the recorded ref: %s", created.body)
	}
	c.read(next, "orders", "prod").refused("resource_not_found", 404)
	c.del(next, "orders", "prod", 1).refused("resource_not_found", 404)
	c.create(next, "orders", "prod", fixture(t, next)).refused("generation_conflict", 412)
	pd := c.prepare(next, "orders", "prod", fixture(t, next), 0)
	c.do("PUT", resPath(next, "orders"), map[string]string{"Takoform-Expected-Generation": "1", "Idempotency-Key": newKey()},
		body(next, "orders", "prod", fixture(t, next), map[string]any{"review": map[string]any{"prepareDigest": pd}})).refused("resource_not_found", 404)
	c.read(old, "orders", "prod").status(200)
}
