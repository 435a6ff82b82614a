package hostsim_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/takokit/takokit/hostsim"
	"github.com/takokit/takokit/hostsim/hostsimtest"
)

const (
	wireID      = "https://forms.takoform.com/schemas/v1alpha3/host-api-wire.schema.json"
	supportID   = "https://forms.takoform.com/schemas/support/v1alpha1/host-support-profile.schema.json"
	operationID = "https://forms.takoform.com/schemas/operations/v1alpha1/operation.schema.json"
	discoveryID = "https://forms.takoform.com/schemas/v1alpha3/host-discovery.schema.json"
)

// publishedSchemas compiles the published wire schemas (read at run time).
func publishedSchemas(t *testing.T) func(id string) *jsonschema.Schema {
	dir := filepath.Join(referenceDir(), "schemas")
	files, err := filepath.Glob(filepath.Join(dir, "*.schema.json"))
	if err != nil || len(files) == 0 {
		t.Skipf("published schemas not found under %s", dir)
	}
	c := jsonschema.NewCompiler()
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		id, _ := doc.(map[string]any)["$id"].(string)
		if err := c.AddResource(id, doc); err != nil {
			t.Fatal(err)
		}
	}
	return func(id string) *jsonschema.Schema {
		s, err := c.Compile(id)
		if err != nil {
			t.Fatalf("compile %s: %v", id, err)
		}
		return s
	}
}

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
	schema := publishedSchemas(t)
	def := func(name string) *jsonschema.Schema { return schema(wireID + "#/$defs/" + name) }
	cat := testCatalog(t)
	f := updatable(t, cat)
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat, ConformanceProbes: true})
	c := newClient(t, sim.URL, "sim-primary")
	spec := fixture(t, f)
	conforms(t, schema(discoveryID), c.do("GET", "/.well-known/takoform/v1alpha3", nil, nil).status(200))
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
		conforms(t, schema(supportID), c.do("GET", api+"/support/interfaces/"+i.Ref.Name+"/"+i.Ref.Version, nil, nil).status(200))
	}
	for _, b := range cat.Bindings() {
		conforms(t, schema(supportID), c.do("GET", api+"/support/bindings/"+b.Ref.Name+"/"+b.Ref.Version, nil, nil).status(200))
	}
	// Operations: accepted envelope, pending and terminal documents.
	pd := c.prepare(f, "async", "prod", spec, 0)
	acc := c.do("PUT", resPath(f, "async"), map[string]string{"If-None-Match": "*", "Idempotency-Key": newKey(), "Takoform-Conformance-Probe": "async"},
		body(f, "async", "prod", spec, map[string]any{"review": map[string]any{"prepareDigest": pd}})).status(202)
	conforms(t, def("operationEnvelope"), acc)
	var env struct{ Operation struct{ ID string } }
	_ = json.Unmarshal(acc.body, &env)
	conforms(t, schema(operationID), c.do("GET", api+"/operations/"+env.Operation.ID, nil, nil).status(200))
	final := c.do("GET", api+"/operations/"+env.Operation.ID, nil, nil).status(200)
	if !strings.Contains(string(final.body), `"done":true`) {
		t.Fatalf("second poll not terminal: %s", final.body)
	}
	conforms(t, schema(operationID), final)
	// A Form with outputs.
	g, gspec := endpointWorld(t, c, cat, "prod")
	conforms(t, def("resourceResponse"), c.create(g, "edge", "prod", gspec).status(201))
}
