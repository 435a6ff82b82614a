package hostsim_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim"
	"github.com/takokit/takokit/hostsim/hostsimtest"
)

// exchange is one request and the answer hostsim gave, kept whole for validation.
type exchange struct {
	req  *http.Request
	resp *http.Response
	body []byte
}

// exchangeRecorder is an http.RoundTripper that keeps every exchange.
type exchangeRecorder struct {
	mu   sync.Mutex
	list []exchange
}

func (r *exchangeRecorder) RoundTrip(req *http.Request) (*http.Response, error) {
	var reqBody []byte
	if req.Body != nil {
		reqBody, _ = io.ReadAll(req.Body)
		req.Body = io.NopCloser(bytes.NewReader(reqBody))
	}
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	kept := req.Clone(req.Context())
	kept.Body = io.NopCloser(bytes.NewReader(reqBody))
	r.mu.Lock()
	r.list = append(r.list, exchange{kept, resp, body})
	r.mu.Unlock()
	return resp, nil
}

// openAPIValidator reads the host's own document from /_sim/openapi.json, checks it is a
// valid OpenAPI 3.1 document, and returns a validator of exchanges against it.
func openAPIValidator(t *testing.T, sim *hostsimtest.Sim) validator.Validator {
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
	doc, err := libopenapi.NewDocument(raw)
	if err != nil {
		t.Fatalf("libopenapi does not read the document: %v", err)
	}
	if _, err := doc.BuildV3Model(); err != nil {
		t.Fatalf("the document does not build as OpenAPI 3.1: %v", err)
	}
	v, errs := validator.NewValidator(doc)
	if len(errs) > 0 {
		t.Fatalf("no validator: %v", errs)
	}
	if ok, verrs := v.ValidateDocument(); !ok {
		for _, e := range verrs {
			t.Errorf("document: %s: %s", e.Message, e.Reason)
		}
		t.FailNow()
	}
	return v
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

	rec := &exchangeRecorder{}
	c := newClient(t, sim.URL, "sim-primary")
	c.http = &http.Client{Transport: rec}
	cat := testCatalog(t)
	wholeWorkerWith(t, sim, c, cat)
	// the rest of the lane: validate, support routes, an operation, refusals
	f := updatable(t, cat)
	c.do("POST", api+"/resources/validate", nil, body(f, "q", "prod", fixture(t, f), nil)).status(200)
	c.do("GET", api+"/support/forms", nil, nil).status(200)
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

	rec.mu.Lock()
	defer rec.mu.Unlock()
	if len(rec.list) < 60 {
		t.Fatalf("recorded only %d exchanges", len(rec.list))
	}
	seen := map[string]bool{}
	for _, x := range rec.list {
		if x.req.URL.Path == api+"/nowhere" {
			continue // no route: the one answer the document cannot describe, and should not
		}
		x.resp.Body = io.NopCloser(bytes.NewReader(x.body))
		x.resp.Request = x.req
		if ok, errs := v.ValidateHttpResponse(x.req, x.resp); !ok {
			var msgs []string
			for _, e := range errs {
				msgs = append(msgs, fmt.Sprintf("%s: %s", e.Message, e.Reason))
				for _, se := range e.SchemaValidationErrors {
					msgs = append(msgs, "  "+se.FieldPath+" ("+se.KeywordLocation+"): "+se.Reason)
				}
			}
			t.Errorf("%s %s → %d does not match the document:\n%s\n%s", x.req.Method, x.req.URL.Path, x.resp.StatusCode, strings.Join(msgs, "\n"), x.body)
		}
		seen[fmt.Sprint(x.resp.StatusCode)] = true
	}
	for _, status := range []string{"200", "201", "202", "204", "400", "404", "409"} {
		if !seen[status] {
			t.Errorf("no answer with status %s was validated", status)
		}
	}
}
