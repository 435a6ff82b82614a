package conformance

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
)

// surfaceHost is a host whose support listing, forms probe and contract routes
// answer as told; every other route is 404.
type surfaceHost struct {
	discovery   func(w http.ResponseWriter)
	listing     func(w http.ResponseWriter)
	installed   map[wire.FormRef]string // the forms probe's body (200) for a FormRef
	missingIfc  string                  // the one interface route answering resource_not_found
	probeAnswer int                     // the status of a request with the probe header
}

func (h surfaceHost) serve(t *testing.T) *Client {
	t.Helper()
	l := wire.DefaultLane
	srv, _ := scripted(t, func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.Header.Get(ProbeHeader) != "":
			w.WriteHeader(h.probeAnswer)
			code := "policy_denied"
			if h.probeAnswer != 403 {
				code = "invalid_argument"
			}
			_, _ = w.Write([]byte(`{"error":{"code":"` + code + `","message":"m","requestId":"req_1","retryable":false}}`))
		case r.URL.Path == l.DiscoveryPath:
			h.discovery(w)
		case r.URL.Path == l.APIRoot+"/support/forms":
			h.listing(w)
		case r.URL.Path == l.APIRoot+"/forms":
			ref, err := wire.ParseFormRefQuery(r.URL.Query())
			if b, ok := h.installed[ref]; ok && err == nil {
				_, _ = w.Write([]byte(b))
				return
			}
			_, _ = w.Write([]byte(`{"forms":[]}`))
		case strings.HasPrefix(r.URL.Path, l.APIRoot+"/support/interfaces/"+h.missingIfc+"/"):
			w.WriteHeader(404)
			_, _ = w.Write([]byte(`{"error":{"code":"resource_not_found","message":"m","requestId":"req_1","retryable":false}}`))
		default:
			w.WriteHeader(500) // the host cannot decide: the contract is assumed
			_, _ = w.Write([]byte(`{"error":{"code":"internal","message":"m","requestId":"req_1","retryable":true}}`))
		}
	})
	return NewClient(srv.URL, "primary", "t")
}

func okDiscovery(w http.ResponseWriter) {
	_, _ = w.Write([]byte(`{"api_versions":["` + wire.DefaultLane.APIVersion + `"],"features":{"resource_form_transition":true,"off":false}}`))
}

// readSurface takes the host's claims as the protocol gives them: the listing's
// Forms (those the runner's catalog does not know, sorted, as foreign), each
// contract implemented unless its route says resource_not_found, probes honoured
// only when the probe's refusal is policy_denied; without a readable listing,
// each Form's forms probe decides and the listing's failure is kept.
func TestSurfaceIsWhatTheHostClaims(t *testing.T) {
	cat, err := catalog.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	forms, ifcs := cat.Forms(), cat.Interfaces()
	if len(forms) < 3 || len(ifcs) < 2 {
		t.Fatal("the embedded catalog has too few Forms or Interfaces for this test")
	}
	a, b := forms[0], forms[1]
	foreign1 := wire.FormRef{APIVersion: "z.example/v1", Kind: "Zed", DefinitionVersion: "1.0.0", SchemaDigest: "sha256:" + strings.Repeat("1", 64)}
	foreign2 := foreign1
	foreign2.Kind = "Alpha"
	profile := func(ref wire.FormRef, ops ...string) map[string]any {
		return map[string]any{"formRef": ref, "operations": ops}
	}
	listing, _ := json.Marshal(map[string]any{"profiles": []any{profile(foreign1), profile(a.Ref, "create", "read"), profile(b.Ref), profile(foreign2)}})
	h := surfaceHost{discovery: okDiscovery, listing: func(w http.ResponseWriter) { _, _ = w.Write(listing) }, missingIfc: ifcs[0].Ref.Name, probeAnswer: 403}
	s, err := readSurface(context.Background(), h.serve(t), cat)
	if err != nil {
		t.Fatal(err)
	}
	if !s.Features["resource_form_transition"] || s.Features["off"] || s.SupportErr != nil || len(s.Profiles) != 4 {
		t.Errorf("features %v, support error %v, %d profiles; want the discovery's features and the listing's 4 profiles", s.Features, s.SupportErr, len(s.Profiles))
	}
	if len(s.Forms) != 2 || s.Forms[0] != a || s.Forms[1] != b {
		t.Errorf("installed Forms %v; want %s and %s, the listing's known ones", s.Forms, a.Ref, b.Ref)
	}
	if len(s.Foreign) != 2 || s.Foreign[0] != foreign2 || s.Foreign[1] != foreign1 {
		t.Errorf("foreign FormRefs %v; want %s then %s", s.Foreign, foreign2, foreign1)
	}
	if s.Interfaces[ifcs[0].Ref.Name+"@"+ifcs[0].Ref.Version] || !s.Interfaces[ifcs[1].Ref.Name+"@"+ifcs[1].Ref.Version] {
		t.Errorf("interfaces %v; want %s not implemented (resource_not_found) and %s assumed (a 500 decides nothing)", s.Interfaces, ifcs[0].Ref.Name, ifcs[1].Ref.Name)
	}
	if !s.Probes {
		t.Error("a probe refused with policy_denied: probes not honoured?")
	}
	if got := s.Operations(a); !slices.Equal(got, []string{"create", "read"}) || s.Offers(a, "create", "delete") || !s.Offers(a, "read") {
		t.Errorf("the operations of %s are %v; want the listing's create and read", a.Ref, got)
	}
	if got := s.Operations(b); !slices.Equal(got, b.Capabilities) {
		t.Errorf("a profile listing no operations: %v; want the Definition's capabilities %v", got, b.Capabilities)
	}
	if note := s.foreignNote(); !strings.Contains(note, "2 FormRefs") || !strings.Contains(note, foreign2.String()) {
		t.Errorf("the foreign note is %q", note)
	}

	// no readable listing: the forms probe decides, Form by Form
	h.listing = func(w http.ResponseWriter) { w.WriteHeader(503) }
	h.installed = map[wire.FormRef]string{a.Ref: `{"forms":[{}]}`, b.Ref: `{"forms":[]}`, forms[2].Ref: `{"forms":[{}]`}
	h.probeAnswer = 400
	s, err = readSurface(context.Background(), h.serve(t), cat)
	if err != nil {
		t.Fatal(err)
	}
	if s.Profiles != nil || s.SupportErr == nil || !strings.Contains(s.SupportErr.Error(), "answered 503") {
		t.Errorf("an unreadable listing: profiles %v, error %v; want none and why", s.Profiles, s.SupportErr)
	}
	if len(s.Forms) != 1 || s.Forms[0] != a {
		t.Errorf("installed by the forms probe: %v; want %s alone (an empty list and a body that is no JSON install nothing)", s.Forms, a.Ref)
	}
	if s.Probes || s.foreignNote() != "" {
		t.Errorf("probes %v, foreign note %q; want neither", s.Probes, s.foreignNote())
	}
	// a listing that answered 200 but does not decode is no listing either
	h.listing = func(w http.ResponseWriter) { _, _ = w.Write([]byte(`{"profiles":[`)) }
	if s, err = readSurface(context.Background(), h.serve(t), cat); err != nil || s.Profiles != nil || s.SupportErr == nil {
		t.Errorf("a listing that does not decode: %v, %v", s, err)
	}
	// a listing that did not answer 200 is not read, whatever its body
	h.listing = func(w http.ResponseWriter) { w.WriteHeader(500); _, _ = w.Write(listing) }
	if s, err = readSurface(context.Background(), h.serve(t), cat); err != nil || s.Profiles != nil {
		t.Errorf("a listing answered 500 with profiles: %v, %v; want it unread", s, err)
	}
}

// Without a discovery document the run cannot start; the error says what to check.
func TestSurfaceNeedsADiscoveryDocument(t *testing.T) {
	cat, err := catalog.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		discovery func(w http.ResponseWriter)
		want      string
	}{
		{func(w http.ResponseWriter) { w.WriteHeader(401) }, "answered 401"},
		{func(w http.ResponseWriter) { _, _ = w.Write([]byte(`{"features":`)) }, "does not decode"},
	} {
		h := surfaceHost{discovery: c.discovery, listing: func(w http.ResponseWriter) { _, _ = w.Write([]byte(`{"profiles":[]}`)) }}
		if s, err := readSurface(context.Background(), h.serve(t), cat); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v, %v; want an error saying %q", s, err, c.want)
		}
	}
}
