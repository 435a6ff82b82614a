package transition_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim"
	"github.com/takokit/takokit/hostsim/internal/transition"
)

// reseal recomputes the evidence digest and the operationId after a change.
func reseal(t *testing.T, r *transition.Request) *transition.Request {
	t.Helper()
	var err error
	if r.TransitionEvidence.Digest, err = transition.EvidenceDigest(r.TransitionEvidence.Marker, r.FromForm, r.ToForm); err != nil {
		t.Fatal(err)
	}
	if _, r.OperationID, _, err = r.Seal(); err != nil {
		t.Fatal(err)
	}
	return r
}

// withSpec replaces the request's spec (then reseals).
func withSpec(t *testing.T, r *transition.Request, edit func(m map[string]any)) *transition.Request {
	var m map[string]any
	_ = json.Unmarshal(r.Resource.Spec, &m)
	edit(m)
	r.Resource.Spec, _ = json.Marshal(m)
	return reseal(t, r)
}

// withMember adds (or replaces) a member of the marshaled body at a path of object keys.
func withMember(t *testing.T, r *transition.Request, value any, path ...string) []byte {
	b, _ := json.Marshal(r)
	var doc map[string]any
	_ = json.Unmarshal(b, &doc)
	m := doc
	for _, k := range path[:len(path)-1] {
		m = m[k].(map[string]any)
	}
	if value == nil {
		delete(m, path[len(path)-1])
	} else {
		m[path[len(path)-1]] = value
	}
	out, _ := json.Marshal(doc)
	return out
}

func defaultedField(t *testing.T, e *env) string {
	for _, f := range e.to.Fields {
		if f.Default != nil {
			return f.Wire
		}
	}
	t.Skipf("%s has no defaulted field", e.to.Ref)
	return ""
}

func boundedField(t *testing.T, e *env) (string, int64) {
	for _, f := range e.to.Fields {
		if f.Kind == "integer" && f.Max != nil {
			return f.Wire, *f.Max + 1
		}
	}
	t.Skipf("%s has no bounded integer field", e.to.Ref)
	return "", 0
}

type refusalCase struct {
	name     string
	send     func(e *env) *reply
	code     wire.Code
	hostCode string
	field    string // details.field when one spec field is at fault
}

func refusalCases(t *testing.T) []refusalCase {
	post := func(edit func(e *env, r *transition.Request) *transition.Request, h map[string]string) func(e *env) *reply {
		return func(e *env) *reply {
			r := e.request()
			if edit != nil {
				r = edit(e, r)
			}
			return e.post(r, h)
		}
	}
	raw := func(body func(e *env, r *transition.Request) []byte) func(e *env) *reply {
		return func(e *env) *reply { r := e.request(); return e.postRaw(body(e, r), r, nil) }
	}
	inv := wire.CodeInvalidArgument
	return []refusalCase{
		{name: "closed body: unknown top-level member", code: inv,
			send: raw(func(e *env, r *transition.Request) []byte { return withMember(t, r, "x", "note") })},
		{name: "closed body: resource carries status", code: inv,
			send: raw(func(e *env, r *transition.Request) []byte {
				return withMember(t, r, map[string]any{"observedGeneration": "1"}, "resource", "status")
			})},
		{name: "closed body: unknown member in expected", code: inv,
			send: raw(func(e *env, r *transition.Request) []byte {
				return withMember(t, r, "1", "expected", "resourceVersion")
			})},
		{name: "closed body: missing transitionEvidence", code: inv,
			send: raw(func(e *env, r *transition.Request) []byte { return withMember(t, r, nil, "transitionEvidence") })},
		{name: "strict JSON: duplicate member", code: inv,
			send: raw(func(e *env, r *transition.Request) []byte {
				b, _ := json.Marshal(r)
				return append([]byte(`{"operationId":"`+r.OperationID+`",`), b[1:]...)
			})},
		{name: "query: a key other than space", code: inv,
			send: func(e *env) *reply {
				r := e.request()
				b, _ := json.Marshal(r)
				return e.do("POST", e.resPath()+"/form-transitions"+spaceQ(e.space)+"&group=x", headersOf(r), b)
			}},
		{name: "query: space missing", code: inv,
			send: func(e *env) *reply {
				r := e.request()
				b, _ := json.Marshal(r)
				return e.do("POST", e.resPath()+"/form-transitions", headersOf(r), b)
			}},
		{name: "header: Idempotency-Key missing", code: inv, send: post(nil, map[string]string{"Idempotency-Key": ""})},
		{name: "header: Idempotency-Key is not the operationId", code: inv, send: post(nil, map[string]string{"Idempotency-Key": "some-key"})},
		{name: "header: generation fence missing", code: inv, send: post(nil, map[string]string{"Takoform-Expected-Generation": ""})},
		{name: "header: generation fence not canonical", code: inv, send: post(nil, map[string]string{"Takoform-Expected-Generation": "01"})},
		{name: "header: generation fence differs from expected.generation", code: inv, send: post(nil, map[string]string{"Takoform-Expected-Generation": "2"})},
		{name: "header: If-Match missing", code: inv, send: post(nil, map[string]string{"If-Match": ""})},
		{name: "header: If-Match weak", code: inv, send: post(nil, map[string]string{"If-Match": `W/"1"`})},
		{name: "header: If-Match differs from expected.revision", code: inv, send: post(nil, map[string]string{"If-Match": `"9"`})},
		{name: "header: If-None-Match", code: inv, send: post(nil, map[string]string{"If-None-Match": "*"})},
		{name: "body: resource.form.formRef is not toForm", code: inv,
			send: post(func(e *env, r *transition.Request) *transition.Request {
				r.Resource.Form.FormRef = e.from.Ref
				return reseal(t, r)
			}, nil)},
		{name: "body: resource.form.packageDigest differs from toForm's", code: inv,
			send: post(func(e *env, r *transition.Request) *transition.Request {
				d := "sha256:" + strings.Repeat("0", 64)
				r.Resource.Form.PackageDigest = &d
				return reseal(t, r)
			}, nil)},
		{name: "body: metadata.generation differs from expected.generation", code: inv,
			send: post(func(e *env, r *transition.Request) *transition.Request {
				r.Resource.Metadata.Generation = "2"
				return reseal(t, r)
			}, nil)},
		{name: "body: metadata.uid differs from expected.uid", code: inv,
			send: post(func(e *env, r *transition.Request) *transition.Request {
				r.Resource.Metadata.UID = "u-other"
				return reseal(t, r)
			}, nil)},
		{name: "body: names another resource than the path", code: inv,
			send: post(func(e *env, r *transition.Request) *transition.Request {
				r.Resource.Metadata.Name = "other"
				return reseal(t, r)
			}, nil)},
		{name: "pair: undeclared marker", code: inv, hostCode: "form_transition_undeclared",
			send: post(func(e *env, r *transition.Request) *transition.Request {
				r.TransitionEvidence.Marker = "no-such-transition"
				return reseal(t, r)
			}, nil)},
		{name: "pair: declared marker, reversed pair", code: inv, hostCode: "form_transition_undeclared",
			send: post(func(e *env, r *transition.Request) *transition.Request {
				r.FromForm, r.ToForm = r.ToForm, r.FromForm
				r.Resource.Form.FormRef = r.ToForm.FormRef
				return reseal(t, r)
			}, nil)},
		{name: "digest: transitionEvidence.digest does not recompute", code: inv, hostCode: "form_transition_digest_mismatch",
			send: post(func(e *env, r *transition.Request) *transition.Request {
				r.TransitionEvidence.Digest = "sha256:" + strings.Repeat("ab", 32)
				_, r.OperationID, _, _ = r.Seal()
				return r
			}, nil)},
		{name: "digest: operationId does not recompute", code: inv, hostCode: "form_transition_digest_mismatch",
			send: func(e *env) *reply {
				r := e.request()
				r.OperationID = "formtx_" + strings.Repeat("0", 64)
				return e.post(r, nil)
			}},
		{name: "spec: not materialized", code: inv, hostCode: "form_transition_spec_not_materialized",
			send: func(e *env) *reply {
				f := defaultedField(t, e)
				e.t.Logf("dropping defaulted field %s", f)
				return e.post(withSpec(t, e.request(), func(m map[string]any) { delete(m, f) }), nil)
			}},
		{name: "spec: invalid under toForm", code: inv,
			send: func(e *env) *reply {
				f, v := boundedField(t, e)
				return e.post(withSpec(t, e.request(), func(m map[string]any) { m[f] = v }), nil)
			}},
		{name: "spec: secret-like member name", code: inv, hostCode: "form_transition_secret_material", field: "/dbPassword",
			send: func(e *env) *reply {
				return e.post(withSpec(t, e.request(), func(m map[string]any) { m["dbPassword"] = "x" }), nil)
			}},
		{name: "spec: private key material", code: inv, hostCode: "form_transition_secret_material", field: "/note",
			send: func(e *env) *reply {
				return e.post(withSpec(t, e.request(), func(m map[string]any) { m["note"] = "-----BEGIN PRIVATE KEY-----\nAAAA" }), nil)
			}},
		{name: "claim: resource does not exist", code: wire.CodeResourceNotFound,
			send: func(e *env) *reply {
				e.name = "missing"
				return e.post(e.request(), nil)
			}},
		{name: "claim: uid mismatch", code: wire.CodeUIDMismatch,
			send: func(e *env) *reply { e.uid = "u-someone-else"; return e.post(e.request(), nil) }},
		{name: "claim: generation conflict", code: wire.CodeGenerationConflict,
			send: func(e *env) *reply { e.gen = 2; return e.post(e.request(), nil) }},
		{name: "claim: revision conflict", code: wire.CodeRevisionConflict,
			send: func(e *env) *reply { e.rev = 7; return e.post(e.request(), nil) }},
	}
}

// TestRefusalsStoreNothing drives every refusal of docs/protocol.md#transitions
// step 3 and checks that nothing was stored: no operation, no claim, no
// revision move, no backend call.
func TestRefusalsStoreNothing(t *testing.T) {
	for _, tc := range refusalCases(t) {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, hostsim.Config{})
			e.t = t
			name, uid, gen, rev := e.name, e.uid, e.gen, e.rev
			got := expectErr(t, tc.send(e), tc.code, tc.hostCode)
			t.Log(got.Message)
			if tc.field != "" && !strings.Contains(string(got.Details), `"`+tc.field+`"`) {
				t.Errorf("details %s do not name %s", got.Details, tc.field)
			}
			e.name, e.uid, e.gen, e.rev = name, uid, gen, rev
			s := e.state()
			if len(s.Transitions) != 0 || len(s.Resources) != 1 || s.Resources[0].Claim != nil || s.Resources[0].Revision != "1" ||
				s.Resources[0].Generation != "1" || s.Resources[0].DefinitionVersion != e.from.Ref.DefinitionVersion {
				t.Fatalf("a refusal stored something: %+v", s)
			}
		})
	}
}

// TestBusyClaimFencesEverything: while a claim is held (crash after A), a second
// transition is refused resource_busy (not retryable), and so is every
// lifecycle mutation and observe; reads show Reconciling and revision R+1.
func TestBusyClaimFencesEverything(t *testing.T) {
	e := newEnv(t, hostsim.Config{ConformanceProbes: true})
	held := e.request()
	r := e.post(held, map[string]string{"Takoform-Conformance-Probe": "transition-hold"})
	if r.status != 202 || !strings.Contains(string(r.body), `"status":"prepared"`) || !strings.Contains(string(r.body), `"dispatchAttempted":false`) {
		t.Fatalf("held POST: %d %s", r.status, r.body)
	}
	now := e.read(e.from)
	body := string(now.body)
	if now.status != 200 || now.header.Get("ETag") != `"2"` || !strings.Contains(body, `"type":"Reconciling"`) ||
		!strings.Contains(body, `"hostReason":"form-transition"`) || !strings.Contains(body, held.OperationID) {
		t.Fatalf("read while claimed: %s %s", now.header.Get("ETag"), body)
	}
	e.rev = 2 // the client re-read: a new request has a new operationId and meets the claim
	busy := expectErr(t, e.post(e.request(), nil), wire.CodeResourceBusy, "form_transition_in_progress")
	if busy.Retryable || !strings.Contains(busy.Message, held.OperationID) {
		t.Fatalf("busy refusal: %+v", busy)
	}
	key := func(s string) map[string]string {
		return map[string]string{"Idempotency-Key": s, "Takoform-Expected-Generation": "1"}
	}
	q := "?" + strings.ReplaceAll(wire.ExactQuery(e.space, e.from.Ref).Encode(), "+", "%20")
	imp := resourceBody(e.from, e.name, e.space, e.spec, map[string]any{"nativeId": "native-1"})
	for label, r := range map[string]*reply{
		"apply":   e.apply(e.from, e.spec, 1),
		"observe": e.do("POST", e.resPath()+"/observe"+q, key("obs-1"), nil),
		"delete":  e.do("DELETE", e.resPath()+q, key("del-1"), nil),
		"import":  e.do("POST", e.resPath()+"/import", key("imp-1"), imp),
	} {
		got := expectErr(t, r, wire.CodeResourceBusy, "form_transition_in_progress")
		if got.Retryable || !strings.Contains(got.Message, held.OperationID) || !strings.Contains(got.Message, "/form-transitions/") {
			t.Errorf("%s while claimed: %+v", label, got)
		}
	}
	// The held request resumes without the probe and commits.
	e.rev = 1
	e.verifyCommitted(e.post(held, nil), held.OperationID, 1)
}

// TestFromMismatch: a request from the old Form after the resource moved on.
func TestFromMismatch(t *testing.T) {
	e := newEnv(t, hostsim.Config{})
	e.verifyCommitted(e.post(e.request(), nil), e.request().OperationID, 1)
	e.adopt(e.read(e.to))
	expectErr(t, e.post(e.request(), nil), wire.CodeFormIdentityConflict, "form_transition_from_mismatch")
}
