package takoform

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/hostsim"
)

// answerRewriter is a tiny host in front of hostsim: it forwards every request and
// rewrites the representation of one resource (by metadata.name) in every answer, the
// way a faulty host would send it. Discovery is rewritten to name the proxy's origin.
func answerRewriter(t *testing.T, h *harness, name string, rewrite func(res map[string]any)) {
	t.Helper()
	target, err := url.Parse(h.sim.URL)
	if err != nil {
		t.Fatal(err)
	}
	var self string
	rp := httputil.NewSingleHostReverseProxy(target)
	rp.ModifyResponse = func(resp *http.Response) error {
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			return err
		}
		_ = resp.Body.Close()
		body = bytes.ReplaceAll(body, []byte(h.sim.URL), []byte(self))
		var doc map[string]any
		if strings.Contains(resp.Request.URL.Path, "/resources/") && json.Unmarshal(body, &doc) == nil {
			if md, _ := doc["metadata"].(map[string]any); md != nil && md["name"] == name {
				rewrite(doc)
				if body, err = json.Marshal(doc); err != nil {
					return err
				}
			}
		}
		resp.Body = io.NopCloser(bytes.NewReader(body))
		resp.ContentLength = int64(len(body))
		resp.Header.Set("Content-Length", strconv.Itoa(len(body)))
		return nil
	}
	srv := httptest.NewServer(rp)
	t.Cleanup(srv.Close)
	self = srv.URL
	mustNoError(t, "configure against the rewriting host", h.configure(map[string]string{"endpoint": srv.URL, "token": "sim-primary", "space": "dev"}))
}

// applyEndpointThrough creates the WorkerEndpoint through a host that rewrites its
// representation, and returns what the create wrote and said.
func applyEndpointThrough(t *testing.T, rewrite func(res map[string]any)) (values, []*tfprotov6.Diagnostic) {
	h := withWorker(t, hostsim.Config{})
	cfg := endpointConfig(nil)
	answerRewriter(t, h, cfg.str(aName), rewrite)
	pr := h.plan(endpointType, cfg, nil)
	mustNoError(t, "plan", pr.diags)
	return h.apply(endpointType, cfg, nil, pr.planned)
}

// TestMissingStatusFailsEachDeclaredOutput: a representation without status, or
// without status.outputs, fails the write with one error per output the recorded ref
// declares (WorkerEndpoint 0.2.0: hostname, url, port), each naming its output; the
// rest of the state is still written, so the create leaves a tainted object.
func TestMissingStatusFailsEachDeclaredOutput(t *testing.T) {
	for _, c := range []struct {
		name, problem string
		rewrite       func(map[string]any)
	}{
		{"no status", "cannot be read because the representation has no status", func(res map[string]any) { delete(res, "status") }},
		{"no status.outputs", "is missing: the representation has no status.outputs", func(res map[string]any) {
			delete(res["status"].(map[string]any), "outputs")
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			st, d := applyEndpointThrough(t, c.rewrite)
			wantDiags(t, d, apiEdge.unusableOutput("hostname", c.problem), apiEdge.unusableOutput("port", c.problem), apiEdge.unusableOutput("url", c.problem))
			if st == nil || st.str(aUID) == "" || !st["url"].IsNull() {
				t.Errorf("want the state written with null outputs; got %v", st)
			}
		})
	}
}

// TestOutputOutsideItsDeclarationFailsNamingIt: a value that breaks the declared
// pattern or bounds fails the write naming that output and what it broke.
func TestOutputOutsideItsDeclarationFailsNamingIt(t *testing.T) {
	for _, c := range []struct {
		output, value, problem string
	}{
		{"hostname", `"Not A Host!"`, `is "Not A Host!", which does not match the declared pattern ^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$`},
		{"port", `70000`, "is 70000, outside the declared range 1 to 65535"},
	} {
		t.Run(c.output, func(t *testing.T) {
			var v any
			if err := json.Unmarshal([]byte(c.value), &v); err != nil {
				t.Fatal(err)
			}
			st, d := applyEndpointThrough(t, func(res map[string]any) {
				res["status"].(map[string]any)["outputs"].(map[string]any)[c.output] = v
			})
			wantDiags(t, d, apiEdge.unusableOutput(c.output, c.problem))
			if st == nil || !st[c.output].IsNull() {
				t.Errorf("%s must be written null", c.output)
			}
		})
	}
}

// TestOutputEnumIsEnforced: no Form of the embedded catalog declares an output enum, so
// the enum rule is checked on a declaration directly, for each output type.
func TestOutputEnumIsEnforced(t *testing.T) {
	for _, c := range []struct {
		decl     catalog.Output
		ok, fail string
	}{
		{catalog.Output{Wire: "tier", Type: "string", Enum: []string{"gold", "silver"}}, `"gold"`, `"bronze"`},
		{catalog.Output{Wire: "port", Type: "integer", Enum: []string{"80", "443"}}, `443`, `8080`},
		{catalog.Output{Wire: "on", Type: "boolean", Enum: []string{"true"}}, `true`, `false`},
	} {
		if _, p := decodeOutput(&c.decl, json.RawMessage(c.ok)); p != "" {
			t.Errorf("%s = %s refused: %s", c.decl.Wire, c.ok, p)
		}
		if _, p := decodeOutput(&c.decl, json.RawMessage(c.fail)); !strings.Contains(p, "not one of the declared values") {
			t.Errorf("%s = %s: problem %q, want the enum refusal", c.decl.Wire, c.fail, p)
		}
	}
}
