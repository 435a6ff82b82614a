package hostsim_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim"
	"github.com/takokit/takokit/hostsim/hostsimtest"
	"github.com/takokit/takokit/hostsim/hostsimtest/openapicheck"
)

// openAPIValidator reads the host's own document from /_sim/openapi.json, checks it is a
// valid OpenAPI 3.1 document, and returns a validator of exchanges against it.
func openAPIValidator(t *testing.T, sim *hostsimtest.Sim) *openapicheck.Doc {
	t.Helper()
	resp, err := http.Get(sim.URL + "/_sim/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("GET /_sim/openapi.json: %d %s", resp.StatusCode, raw)
	}
	doc, err := openapicheck.Read(raw)
	if err != nil {
		t.Fatalf("/_sim/openapi.json: %v", err)
	}
	return doc
}

// The OpenAPI document hostsim serves is valid OpenAPI 3.1, covers every route of the
// lane and the admin API, and every answer of a whole worker's life (and of the lane's
// other routes and refusals) validates against it (docs/protocol.md#openapi).
func TestOpenAPIDescribesEveryAnswer(t *testing.T) {
	sim := hostsimtest.Start(t, hostsim.Config{ConformanceProbes: true})
	v := openAPIValidator(t, sim)
	doc, err := sim.Host.OpenAPI()
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		Paths map[string]map[string]any `json:"paths"`
	}
	if err := json.Unmarshal(doc, &d); err != nil {
		t.Fatal(err)
	}
	for _, r := range wire.Routes {
		if _, ok := d.Paths[r.On(wire.DefaultLane)][strings.ToLower(r.Method)]; !ok {
			t.Errorf("route %s %s is not in the document", r.Method, r.On(wire.DefaultLane))
		}
	}
	for _, p := range []string{"/_sim/health", "/_sim/state", "/_sim/openapi.json", "/_sim/operations/{id}/complete"} {
		if _, ok := d.Paths[p]; !ok {
			t.Errorf("admin route %s is not in the document", p)
		}
	}

	rec := &hostsimtest.Recorder{}
	c := newClient(t, sim.URL, "sim-primary")
	c.http = &http.Client{Transport: rec}
	cat := testCatalog(t)
	wholeWorkerWith(t, sim, c, cat)
	// the rest of the lane: validate, support routes, an operation, refusals
	f := updatable(t, cat)
	c.do("POST", api+"/resources/validate", nil, body(f, "q", "prod", fixture(t, f), nil)).status(200)
	c.do("GET", api+"/support/forms", nil, nil).status(200)
	c.do("GET", wire.DefaultLane.DiscoveryPath, nil, nil).status(200)
	c.do("GET", api+"/forms"+exactQuery(f, "prod"), nil, nil).status(200)
	c.do("GET", api+"/operations/op_missing", nil, nil).refused("operation_not_found", 404)
	c.do("GET", api+"/nowhere", nil, nil).refused("resource_not_found", 404)
	c.do("PUT", resPath(f, "bad"), map[string]string{"Idempotency-Key": newKey(), "If-None-Match": "*"}, []byte(`{"x":1,"x":2}`)).refused("invalid_argument", 400)
	async := c.do("PUT", resPath(f, "later"), map[string]string{"Idempotency-Key": newKey(), "If-None-Match": "*", "Takoform-Conformance-Probe": "async"},
		body(f, "later", "prod", fixture(t, f), map[string]any{"review": map[string]any{"prepareDigest": c.prepare(f, "later", "prod", fixture(t, f), 0)}})).status(202)
	var op struct{ Operation struct{ ID string } }
	_ = json.Unmarshal(async.body, &op)
	for i := 0; i < 3; i++ {
		c.do("GET", api+"/operations/"+op.Operation.ID, nil, nil).status(200)
	}
	for _, path := range []string{"/_sim/health", "/_sim/state", "/_sim/counters"} {
		c.do("GET", path, nil, nil).status(200)
	}

	kept := rec.Exchanges()
	if len(kept) < 60 {
		t.Fatalf("recorded only %d exchanges", len(kept))
	}
	seen := map[string]bool{}
	for _, x := range kept {
		if x.Req.URL.Path == api+"/nowhere" {
			continue // no route: the one answer the document cannot describe, and should not
		}
		x.Resp.Body = io.NopCloser(bytes.NewReader(x.Body))
		x.Resp.Request = x.Req
		if errs := v.Response(x.Req, x.Resp); errs != nil {
			t.Errorf("%s %s → %d does not match the document:\n%s\n%s", x.Req.Method, x.Req.URL.Path, x.Resp.StatusCode, strings.Join(errs, "\n"), x.Body)
		}
		seen[fmt.Sprint(x.Resp.StatusCode)] = true
	}
	for _, status := range []string{"200", "201", "202", "204", "400", "404", "409"} {
		if !seen[status] {
			t.Errorf("no answer with status %s was validated", status)
		}
	}
	assertDocumentRefusesBrokenExchanges(t, v, kept)
}

// TestOpenAPIListsTheAdminQueryParameters: the query keys an admin route takes,
// the only ones it accepts, are in the document its refusals point to.
func TestOpenAPIListsTheAdminQueryParameters(t *testing.T) {
	sim := hostsimtest.Start(t, hostsim.Config{})
	doc, err := sim.Host.OpenAPI()
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		Paths map[string]map[string]struct {
			Parameters []struct {
				Name, In string
				Required bool
			} `json:"parameters"`
		} `json:"paths"`
	}
	if err := json.Unmarshal(doc, &d); err != nil {
		t.Fatal(err)
	}
	query := func(path, method string) []string {
		var out []string
		for _, p := range d.Paths[path][method].Parameters {
			if p.In == "query" {
				out = append(out, fmt.Sprintf("%s required=%v", p.Name, p.Required))
			}
		}
		return out
	}
	for _, c := range []struct {
		path, method string
		want         []string
	}{
		{"/_sim/events", "get", []string{"since required=false"}},
		{"/_sim/assets/{id}", "get", []string{"path required=true"}},
		{"/_sim/faults", "delete", nil},
		{"/_sim/state", "get", nil},
	} {
		if _, ok := d.Paths[c.path][c.method]; !ok {
			t.Errorf("%s %s is not in the document", c.method, c.path)
		}
		if got := query(c.path, c.method); !slices.Equal(got, c.want) {
			t.Errorf("%s %s: query parameters %v, want %v", c.method, c.path, got, c.want)
		}
	}
}
