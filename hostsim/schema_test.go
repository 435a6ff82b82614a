package hostsim_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/takokit/takokit/catalog/reftest"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim"
	"github.com/takokit/takokit/hostsim/hostsimtest"
)

func conforms(t *testing.T, s *jsonschema.Schema, r *reply) {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(r.body))
	if err != nil {
		t.Fatalf("%s: %v", r.what, err)
	}
	if err := s.Validate(v); err != nil {
		t.Fatalf("%s answer does not match the published schema: %v\n%s", r.what, err, r.body)
	}
}

// TestAnswersMatchThePublishedSchemas validates hostsim's answers against the
// published JSON schemas: a floor every answer must clear, even if it proves little.
func TestAnswersMatchThePublishedSchemas(t *testing.T) {
	lane := wire.DefaultLane
	schema := reftest.Schemas(t, lane)
	def := func(name string) *jsonschema.Schema { return schema(lane.Schemas.Wire + "#/$defs/" + name) }
	cat := testCatalog(t)
	f := updatable(t, cat)
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat, ConformanceProbes: true})
	c := newClient(t, sim.URL, "sim-primary")
	spec := fixture(t, f)
	conforms(t, schema(lane.Schemas.Discovery), c.do("GET", discovery, nil, nil).status(200))
	conforms(t, def("formsResponse"), c.do("GET", api+"/forms"+exactQuery(f, "prod"), nil, nil).status(200))
	conforms(t, def("formDefinitionResponse"), c.do("GET", api+"/form-definitions/"+f.Ref.APIVersion+"/"+f.Ref.Kind+exactQuery(f, "prod"), nil, nil).status(200))
	conforms(t, def("validateResponse"), c.do("POST", api+"/resources/validate", nil, body(f, "x", "prod", spec, nil)).status(200))
	conforms(t, def("prepareResponse"), c.do("POST", api+"/resources/prepare", nil, body(f, "x", "prod", spec, nil)).status(200))
	conforms(t, def("resourceResponse"), c.create(f, "orders", "prod", spec).status(201))
	conforms(t, def("resourceResponse"), c.read(f, "orders", "prod").status(200))
	conforms(t, def("resourceEnvelope"), c.do("POST", resPath(f, "orders")+"/observe"+exactQuery(f, "prod"),
		map[string]string{"Takoform-Expected-Generation": "1", "Idempotency-Key": newKey()}, nil).status(200))
	conforms(t, def("errorEnvelope"), c.read(f, "missing", "prod").refused("resource_not_found", 404))
	conforms(t, def("errorEnvelope"), c.do("GET", api+"/forms", map[string]string{"Takoform-Conformance-Probe": "error:rate_limited"}, nil))
	// Support profiles, every installed Form and contract.
	list := c.do("GET", api+"/support/forms", nil, nil).status(200)
	conforms(t, def("supportProfilesResponse"), list)
	for _, i := range cat.Interfaces() {
		conforms(t, schema("host-support-profile-v1alpha1.schema.json"), c.do("GET", api+"/support/interfaces/"+i.Ref.Name+"/"+i.Ref.Version, nil, nil).status(200))
	}
	for _, b := range cat.Bindings() {
		conforms(t, schema("host-support-profile-v1alpha1.schema.json"), c.do("GET", api+"/support/bindings/"+b.Ref.Name+"/"+b.Ref.Version, nil, nil).status(200))
	}
	// Operations: accepted envelope, pending and terminal documents.
	pd := c.prepare(f, "async", "prod", spec, 0)
	acc := c.do("PUT", resPath(f, "async"), map[string]string{"If-None-Match": "*", "Idempotency-Key": newKey(), "Takoform-Conformance-Probe": "async"},
		body(f, "async", "prod", spec, map[string]any{"review": map[string]any{"prepareDigest": pd}})).status(202)
	conforms(t, def("operationEnvelope"), acc)
	var env struct{ Operation struct{ ID string } }
	_ = json.Unmarshal(acc.body, &env)
	conforms(t, schema("operation-v1alpha1.schema.json"), c.do("GET", api+"/operations/"+env.Operation.ID, nil, nil).status(200))
	final := c.do("GET", api+"/operations/"+env.Operation.ID, nil, nil).status(200)
	if !strings.Contains(string(final.body), `"done":true`) {
		t.Fatalf("second poll not terminal: %s", final.body)
	}
	conforms(t, schema("operation-v1alpha1.schema.json"), final)
	// A Form with outputs.
	g, gspec := endpointWorld(t, c, cat, "prod")
	conforms(t, def("resourceResponse"), c.create(g, "edge", "prod", gspec).status(201))
}
