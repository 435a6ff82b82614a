package lane_test

import (
	"bytes"
	"net/url"
	"testing"

	"github.com/takokit/takokit/catalog/wire"
)

// Delete and observe refuse each malformed request with its own message, in
// the order of checks (docs/protocol.md#order), and leave the resource as it was.
func TestDeleteAndObserveRefusals(t *testing.T) {
	h := newHost(t, "orders")
	p := h.path("orders")
	fence := map[string]string{"Takoform-Expected-Generation": "1"}
	unknown := h.f.Ref
	unknown.SchemaDigest = "sha256:" + string(bytes.Repeat([]byte("0"), 64))
	unknownQ := "?" + wire.ExactQuery(space, unknown).Encode()
	other := h.f.Ref
	other.Kind = h.f.Ref.Kind + "Other"
	otherPath := wire.DefaultLane.APIRoot + "/resources/" + h.f.Ref.APIVersion + "/" + other.Kind + "/orders"
	bad := "?" + url.Values{"space": {space}}.Encode()
	for _, tc := range []struct {
		name, method, path string
		headers            map[string]string
		body               []byte
		code, want         string
	}{
		{"delete without fence", "DELETE", p + h.query(), nil, nil, "invalid_argument", "requires Takoform-Expected-Generation"},
		{"delete with a body", "DELETE", p + h.query(), fence, []byte("{}"), "invalid_argument", "takes an empty body"},
		{"delete with a bad fence", "DELETE", p + h.query(), map[string]string{"Takoform-Expected-Generation": "01"}, nil, "invalid_argument", "not a canonical decimal"},
		{"delete with a malformed query", "DELETE", p + bad, fence, nil, "invalid_argument", "exact-FormRef query is malformed"},
		{"delete of an unknown FormRef", "DELETE", p + unknownQ, fence, nil, "form_unknown", ""},
		{"delete of an unknown FormRef on a disagreeing path", "DELETE", otherPath + unknownQ, fence, nil, "form_unknown", ""},
		{"delete where path and query disagree", "DELETE", otherPath + h.query(), fence, nil, "invalid_argument", "they must agree"},
		{"observe without fence", "POST", p + "/observe" + h.query(), nil, nil, "invalid_argument", "requires Takoform-Expected-Generation"},
		{"observe with a body", "POST", p + "/observe" + h.query(), fence, []byte("{}"), "invalid_argument", "takes an empty body"},
		{"observe with a bad fence", "POST", p + "/observe" + h.query(), map[string]string{"Takoform-Expected-Generation": "01"}, nil, "invalid_argument", "not a canonical decimal"},
		{"observe with a malformed query", "POST", p + "/observe" + bad, fence, nil, "invalid_argument", "exact-FormRef query is malformed"},
		{"observe of an unknown FormRef", "POST", p + "/observe" + unknownQ, fence, nil, "form_unknown", ""},
		{"observe of an unknown FormRef on a disagreeing path", "POST", otherPath + "/observe" + unknownQ, fence, nil, "form_unknown", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hd := map[string]string{"Idempotency-Key": h.key()}
			for k, v := range tc.headers {
				hd[k] = v
			}
			h.t = t
			h.do(tc.method, tc.path, hd, tc.body).refused(tc.code, tc.want)
			h.do("GET", p+h.query(), nil, nil).want(200)
		})
	}
}
