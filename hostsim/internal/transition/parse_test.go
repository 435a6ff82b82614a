package transition

// Every refusal parse makes is checked by its own message, not only its code:
// most bad requests would be refused later anyway (a skipped grammar check
// ends in a digest or agreement refusal), and only the message says which
// rule caught it, as docs/protocol.md#transitions orders them.

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/fault"
	"github.com/takokit/takokit/hostsim/internal/profile"
)

// parseCase edits a valid call (and its request, resealed unless raw) and
// expects a refusal whose message holds msg, or acceptance when msg is "".
type parseCase struct {
	name     string
	edit     func(c *Call, r *Request)
	raw      bool // r's digests are left as edited
	body     func(b []byte) []byte
	code     wire.Code
	hostCode string
	msg      string
	field    string
}

func (w *world) parseCases() []parseCase {
	inv := wire.CodeInvalidArgument
	otherDigest := "sha256:" + strings.Repeat("ab", 32)
	return []parseCase{
		{name: "query space twice", edit: func(c *Call, _ *Request) { c.RawQuery = "space=prod&space=prod" },
			code: inv, msg: "send the query key space exactly once"},
		{name: "query space missing", edit: func(c *Call, _ *Request) { c.RawQuery = "" },
			code: inv, msg: "send the query key space exactly once"},
		{name: "query space not a SpaceID", edit: func(c *Call, _ *Request) { c.RawQuery = "space=" },
			code: inv, msg: `query space "" is not a SpaceID`},
		{name: "generation header not canonical", edit: func(c *Call, _ *Request) { c.Header.Set(wire.HeaderExpectedGeneration, "01") },
			code: inv, msg: `Takoform-Expected-Generation "01" is not a canonical decimal`},
		{name: "If-Match weak", edit: func(c *Call, _ *Request) { c.Header.Set(wire.HeaderIfMatch, `W/"1"`) },
			code: inv, msg: `If-Match "W/\"1\"" is not one strong entity tag`},
		{name: "unknown body member", body: func(b []byte) []byte { return append([]byte(`{"note":"x",`), b[1:]...) },
			code: inv, msg: "is not a valid closed request"},
		{name: "operationId grammar", raw: true, edit: func(_ *Call, r *Request) { r.OperationID = "formtx_XYZ" },
			code: inv, msg: `/operationId "formtx_XYZ" is not formtx_`},
		{name: "toForm packageDigest grammar", edit: func(_ *Call, r *Request) { r.ToForm.PackageDigest = "sha256:XYZ" },
			code: inv, msg: "/fromForm/packageDigest and /toForm/packageDigest must be"},
		{name: "resource packageDigest present and right", edit: func(_ *Call, r *Request) {
			d := r.ToForm.PackageDigest
			r.Resource.Form.PackageDigest = &d
		}},
		{name: "expected generation not canonical", edit: func(_ *Call, r *Request) {
			r.Expected.Generation, r.Resource.Metadata.Generation = "01", "01"
		}, code: inv, msg: `/expected/generation "01" is not a canonical decimal`},
		{name: "expected revision not canonical", edit: func(_ *Call, r *Request) { r.Expected.Revision = "01" },
			code: inv, msg: `/expected/revision "01" is not a canonical decimal`},
		{name: "body kind differs from the path", edit: func(_ *Call, r *Request) { r.Resource.Kind = "Other" },
			code: inv, msg: "they must agree"},
		{name: "fromForm kind differs", edit: func(_ *Call, r *Request) { r.FromForm.FormRef.Kind = "Other" },
			code: inv, msg: "fromForm and toForm must both be"},
		{name: "toForm kind differs", edit: func(_ *Call, r *Request) { r.ToForm.FormRef.Kind = "Other" },
			code: inv, msg: "fromForm and toForm must both be"},
		{name: "declared marker, other fromForm", edit: func(_ *Call, r *Request) { r.FromForm.FormRef.DefinitionVersion = "0.9.0" },
			code: inv, hostCode: "form_transition_undeclared", msg: "the catalog declares no transition"},
		{name: "undeclared marker", edit: func(_ *Call, r *Request) { r.TransitionEvidence.Marker = "no-such-transition" },
			code: inv, hostCode: "form_transition_undeclared", msg: "the catalog declares no transition"},
		{name: "spec null", edit: func(_ *Call, r *Request) { r.Resource.Spec = json.RawMessage("null") },
			code: inv, msg: "/resource/spec must be a JSON object"},
		{name: "spec out of bounds", edit: func(_ *Call, r *Request) {
			var m map[string]any
			_ = json.Unmarshal(r.Resource.Spec, &m)
			m["deliveryDelaySeconds"] = -1
			r.Resource.Spec, _ = json.Marshal(m)
		}, code: inv, msg: "/resource/spec/deliveryDelaySeconds does not satisfy the desiredSchema of AtLeastOnceQueue", field: "/deliveryDelaySeconds"},
		{name: "evidence digest does not recompute", raw: true, edit: func(c *Call, r *Request) {
			r.TransitionEvidence.Digest = otherDigest
			_, r.OperationID, _, _ = r.Seal()
			c.Header.Set(wire.HeaderIdempotencyKey, r.OperationID)
		}, code: inv, hostCode: "form_transition_digest_mismatch", msg: "/transitionEvidence/digest"},
		{name: "operationId does not recompute", raw: true, edit: func(c *Call, r *Request) {
			r.OperationID = "formtx_" + strings.Repeat("0", 64)
			c.Header.Set(wire.HeaderIdempotencyKey, r.OperationID)
		}, code: inv, hostCode: "form_transition_digest_mismatch", msg: "/operationId formtx_0000"},
	}
}

// call is c with r (edited by tc) as its body.
func (w *world) call(c *Call, r Request, tc parseCase) *Call {
	w.t.Helper()
	cc := *c
	cc.Header = c.Header.Clone()
	if tc.edit != nil {
		tc.edit(&cc, &r)
	}
	if !tc.raw {
		var err error
		if r.TransitionEvidence.Digest, err = EvidenceDigest(r.TransitionEvidence.Marker, r.FromForm, r.ToForm); err != nil {
			w.t.Fatal(err)
		}
		if _, r.OperationID, _, err = r.Seal(); err != nil {
			w.t.Fatal(err)
		}
		cc.Header.Set(wire.HeaderIdempotencyKey, r.OperationID)
	}
	cc.Body, _ = json.Marshal(r)
	if tc.body != nil {
		cc.Body = tc.body(cc.Body)
	}
	return &cc
}

func TestParseNamesTheRuleThatRefused(t *testing.T) {
	w := newWorld(t)
	_, c, p := w.queue("orders")
	for _, tc := range w.parseCases() {
		t.Run(tc.name, func(t *testing.T) {
			got, e := parse(w.s, w.call(c, p.Request, tc))
			if tc.msg == "" {
				if e != nil {
					t.Fatalf("refused: %v", e)
				}
				if got.to != p.to || got.spec == nil {
					t.Fatalf("accepted without its toForm or spec: %+v", got)
				}
				return
			}
			if e == nil {
				t.Fatalf("accepted, want %s %q", tc.code, tc.msg)
			}
			if e.Code != tc.code || e.HostCode != tc.hostCode || !strings.Contains(e.Message, tc.msg) {
				t.Fatalf("refused %s/%q %q, want %s/%q containing %q", e.Code, e.HostCode, e.Message, tc.code, tc.hostCode, tc.msg)
			}
			if tc.field != "" && !strings.Contains(string(e.Details), `"`+tc.field+`"`) {
				t.Fatalf("details %s do not name %s", e.Details, tc.field)
			}
		})
	}
}

// transition.any-pair and transition.unverified let through exactly what the
// refusals above refuse.
func TestParseFaultsLetTheRefusedThrough(t *testing.T) {
	w := newWorld(t)
	_, c, p := w.queue("orders")
	byName := map[string]parseCase{}
	for _, tc := range w.parseCases() {
		byName[tc.name] = tc
	}
	for _, f := range []struct {
		rule  *fault.Rule
		cases []string
	}{
		{fault.TransitionAnyPair, []string{"undeclared marker"}},
		{fault.TransitionUnverified, []string{"evidence digest does not recompute", "operationId does not recompute"}},
	} {
		for _, name := range f.cases {
			t.Run(f.rule.Name+"/"+name, func(t *testing.T) {
				cc := w.call(c, p.Request, byName[name])
				if _, e := parse(w.s, cc); e == nil {
					t.Fatal("accepted without the fault")
				}
				cc.Faults = fault.Fixed(fault.Spec{Fault: f.rule.Name})
				got, e := parse(w.s, cc)
				if e != nil {
					t.Fatalf("refused under %s: %v", f.rule.Name, e)
				}
				if got.to == nil || got.to.Ref != got.ToForm.FormRef || got.spec == nil {
					t.Fatalf("accepted without its toForm or spec: %+v", got)
				}
			})
		}
	}
}

// A spec inside toForm's schema but outside the host's profile is refused
// unsupported_capability at the field, before anything is stored.
func TestParseRefusesWhatTheProfileDoesNotSupport(t *testing.T) {
	w := newWorld(t)
	_, c, p := w.queue("orders")
	tight, err := profile.Load("tight-limits")
	if err != nil {
		t.Fatal(err)
	}
	s := *w.s
	s.Host = profile.Resolve(tight, w.cat)
	n, _ := p.spec["messageRetentionSeconds"].(json.Number)
	if v, err := n.Int64(); err != nil || v <= 86400 {
		t.Fatalf("the fixture's messageRetentionSeconds %v is inside tight-limits", p.spec["messageRetentionSeconds"])
	}
	_, e := parse(&s, c)
	if e == nil || e.Code != wire.CodeUnsupportedCapability || !strings.Contains(e.Message, `profile "tight-limits"`) ||
		!strings.Contains(string(e.Details), `"/messageRetentionSeconds"`) {
		t.Fatalf("got %+v, want unsupported_capability at /messageRetentionSeconds naming the profile", e)
	}
}
