package takoform

import (
	"encoding/json"
	"fmt"
	"net/http"
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
	front := h.sim.InFront(t, func(r *http.Request, _ int, body []byte) ([]byte, error) {
		var doc map[string]any
		if !strings.Contains(r.URL.Path, "/resources/") || json.Unmarshal(body, &doc) != nil {
			return body, nil
		}
		if md, _ := doc["metadata"].(map[string]any); md == nil || md["name"] != name {
			return body, nil
		}
		rewrite(doc)
		return json.Marshal(doc)
	})
	mustNoError(t, "configure against the rewriting host", h.configure(map[string]string{"endpoint": front, "token": "sim-primary", "space": "dev"}))
}

// throughHost is one host on which the output tests create a resource through a host
// that rewrites its answers (answerRewriter), each create under a name of its own
// (api-edge, api-edge-2, ...). The subtests of a test share the host and what the
// resource attaches to: starting a host and making them again for each case was most of
// these tests' time, and no case depends on the others' resources.
type throughHost struct {
	h   *harness
	w   written // the first resource; the next ones get -2, -3, ... after its name
	cfg func(name string) values
	n   int
	// exclusive: the host holds one such resource at a time (a ModuleWorker has one
	// WorkerEndpoint), so each create first deletes the one before it
	exclusive bool
	last      values
}

// endpointsThrough creates WorkerEndpoints on one withWorker host.
func endpointsThrough(t *testing.T) *throughHost {
	return &throughHost{h: withWorker(t, hostsim.Config{}), w: apiEdge, exclusive: true,
		cfg: func(name string) values { return endpointConfig(values{aName: s(name)}) }}
}

// create creates one more resource through a host that rewrites its representation
// (nil: as hostsim sends it), and returns what the create wrote and said, and the
// resource as the diagnostics name it. Failures are t's (the subtest's).
func (x *throughHost) create(t *testing.T, rewrite func(res map[string]any)) (values, []*tfprotov6.Diagnostic, written) {
	t.Helper()
	x.h.t = t
	x.n++
	w := x.w
	if x.n > 1 {
		w.name = fmt.Sprintf("%s-%d", w.name, x.n)
	}
	capReconfigure(t, x.h)
	if x.exclusive && x.last != nil {
		_, d := x.h.apply(w.typeName, nil, x.last, nil)
		mustNoError(t, "delete the "+x.w.kind+" before", d)
	}
	if rewrite != nil {
		answerRewriter(t, x.h, w.name, rewrite)
	}
	cfg := x.cfg(w.name)
	pr := x.h.plan(w.typeName, cfg, nil)
	mustNoError(t, "plan", pr.diags)
	st, d := x.h.apply(w.typeName, cfg, nil, pr.planned)
	x.last = st
	return st, d, w
}

// TestMissingStatusFailsEachDeclaredOutput: a representation without status, or
// without status.outputs, fails the write with one error per output the recorded ref
// declares (WorkerEndpoint 0.2.0: hostname, url, port), each naming its output; the
// rest of the state is still written, so the create leaves a tainted object.
func TestMissingStatusFailsEachDeclaredOutput(t *testing.T) {
	t.Parallel()
	host := endpointsThrough(t)
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
			st, d, w := host.create(t, c.rewrite)
			wantDiags(t, d, w.unusableOutput("hostname", c.problem), w.unusableOutput("port", c.problem), w.unusableOutput("url", c.problem))
			if st == nil || st.str(aUID) == "" || !st["url"].IsNull() {
				t.Errorf("want the state written with null outputs; got %v", st)
			}
		})
	}
}

// TestOutputOutsideItsDeclarationFailsNamingIt: a value that breaks the declared
// pattern or bounds fails the write naming that output and what it broke.
func TestOutputOutsideItsDeclarationFailsNamingIt(t *testing.T) {
	t.Parallel()
	host := endpointsThrough(t)
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
			st, d, w := host.create(t, func(res map[string]any) {
				res["status"].(map[string]any)["outputs"].(map[string]any)[c.output] = v
			})
			wantDiags(t, d, w.unusableOutput(c.output, c.problem))
			if st == nil || !st[c.output].IsNull() {
				t.Errorf("%s must be written null", c.output)
			}
		})
	}
}

// TestOutputEnumIsEnforced: no Form of the embedded catalog declares an output enum, so
// the enum rule is checked on a declaration directly, for each output type.
func TestOutputEnumIsEnforced(t *testing.T) {
	t.Parallel()
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
