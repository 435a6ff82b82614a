package conformance

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
)

// receiptCase builds a transition request from the embedded catalog's first
// transition, for a resource at generation 19 revision 30, and the exact 200
// receipt a conforming host answers for it (as a JSON tree to break).
func receiptCase(t *testing.T) (*txRequest, map[string]any) {
	t.Helper()
	cat, err := catalog.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	var tr *catalog.Transition
	var from *catalog.Form
	for _, x := range cat.Transitions() {
		if f, ok := cat.Form(x.From); ok && len(f.Fixtures) > 0 {
			tr, from = x, f
			break
		}
	}
	if tr == nil {
		t.Fatal("the embedded catalog declares no transition whose from-Form has a fixture")
	}
	res := &Resource{APIVersion: from.Ref.APIVersion, Kind: from.Ref.Kind, Spec: from.Fixtures[0].Desired}
	res.Form.FormRef = from.Ref
	res.Metadata.Name, res.Metadata.Space, res.Metadata.UID = "orders", "prod", "u-1"
	res.Metadata.Generation, res.Metadata.Revision = "19", "30"
	tx, err := (&Probe{Cat: cat}).newTx(tr, res, tr.Marker)
	if err != nil {
		t.Fatal(err)
	}
	specDigest, err := wire.DigestValue(tx.Resource.Spec)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	raw, _ := json.Marshal(map[string]any{
		"operation": map[string]any{"operationId": tx.OperationID, "status": "committed", "dispatchAttempted": true,
			"requestDigest": tx.requestDigest, "reconcilePath": expand(wire.DefaultLane, tx.readbackPath(tx.OperationID))},
		"resource": map[string]any{"apiVersion": tx.to.Ref.APIVersion, "kind": tx.to.Ref.Kind,
			"form":     map[string]any{"formRef": tx.to.Ref, "packageDigest": tx.to.PackageDigest},
			"metadata": map[string]any{"name": "orders", "space": "prod", "uid": "u-1", "generation": "20", "revision": "32"},
			"spec":     tx.Resource.Spec, "status": map[string]any{"observedGeneration": "20", "conditions": []any{}}},
		"transitionProof": map[string]any{"operationId": tx.OperationID, "fromForm": tx.FromForm, "toForm": tx.ToForm,
			"transitionEvidenceDigest": tx.TransitionEvidence.Digest, "observedSpecDigest": specDigest,
			"uid": "u-1", "generation": "20", "nativeIdentityDigest": "sha256:" + strings.Repeat("ab", 32), "committed": true},
	})
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	return tx, doc
}

func receiptResp(doc map[string]any, status int, etag string) *Resp {
	h := http.Header{}
	if etag != "" {
		h.Set("ETag", etag)
	}
	return &Resp{Req: Req{Method: http.MethodPost, Target: "/form-transitions"}, Lane: wire.DefaultLane, Status: status, Header: h, Body: mustJSON(doc)}
}

func set(doc map[string]any, path string, v any) {
	parts := strings.Split(path, ".")
	m := doc
	for _, p := range parts[:len(parts)-1] {
		m = m[p].(map[string]any)
	}
	m[parts[len(parts)-1]] = v
}

// TestVerifyReceipt: the exact receipt is accepted and names generation N+1; every
// member a host could get wrong makes the check fail, naming what was wrong.
func TestVerifyReceipt(t *testing.T) {
	tx, good := receiptCase(t)
	res, err := tx.verifyReceipt(receiptResp(good, http.StatusOK, `"32"`))
	if err != nil {
		t.Fatalf("the exact receipt was refused: %v", err)
	}
	if res.Metadata.Generation != "20" || res.Metadata.UID != "u-1" {
		t.Fatalf("verifyReceipt returned generation %s uid %s", res.Metadata.Generation, res.Metadata.UID)
	}
	if _, err := tx.verifyReceipt(receiptResp(good, http.StatusOK, "")); err != nil {
		t.Fatalf("a receipt without ETag is acceptable: %v", err)
	}
	otherRef := tx.from.Ref
	cases := []struct {
		name, path string
		value      any
		want       string
	}{
		{"another operationId", "operation.operationId", "formtx_other", "operation"},
		{"not committed", "operation.status", "prepared", "operation"},
		{"not dispatched", "operation.dispatchAttempted", false, "operation"},
		{"another requestDigest", "operation.requestDigest", "sha256:" + strings.Repeat("0", 64), "operation"},
		{"another reconcilePath", "operation.reconcilePath", "/apis/forms.takoform.com/v1beta1/resources/x", "reconcilePath"},
		{"proof of another operation", "transitionProof.operationId", "formtx_other", "does not name this request"},
		{"proof from another form", "transitionProof.fromForm", map[string]any{"formRef": tx.to.Ref, "packageDigest": tx.to.PackageDigest}, "does not name this request"},
		{"proof to another form", "transitionProof.toForm", map[string]any{"formRef": tx.from.Ref, "packageDigest": tx.from.PackageDigest}, "does not name this request"},
		{"proof of other evidence", "transitionProof.transitionEvidenceDigest", "sha256:" + strings.Repeat("1", 64), "does not name this request"},
		{"proof of another spec", "transitionProof.observedSpecDigest", "sha256:" + strings.Repeat("2", 64), "observedSpecDigest"},
		{"proof of another uid", "transitionProof.uid", "u-2", "observedSpecDigest"},
		{"proof at the old generation", "transitionProof.generation", "19", "generation 19"},
		{"proof two generations on", "transitionProof.generation", "21", "generation 21"},
		{"proof not committed", "transitionProof.committed", false, "committed false"},
		{"proof with a malformed native identity", "transitionProof.nativeIdentityDigest", "sha256:xyz", "observedSpecDigest"},
		{"resource under the from-Form", "resource.form.formRef", otherRef, "receipt's resource"},
		{"resource of another uid", "resource.metadata.uid", "u-9", "receipt's resource"},
		{"resource at the old generation", "resource.metadata.generation", "19", "receipt's resource"},
		{"a receipt missing its proof", "transitionProof", nil, "not a committed transition receipt"},
		{"a resource with a member no representation has", "resource.surprise", 1, "embedded resource is not a valid representation"},
	}
	for _, c := range cases {
		_, doc := receiptCase(t)
		set(doc, c.path, c.value)
		if c.value == nil {
			delete(doc, c.path)
		}
		_, err := tx.verifyReceipt(receiptResp(doc, http.StatusOK, ""))
		if err == nil || classify(err) != StatusFail || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want a failure naming %q", c.name, err, c.want)
		}
	}
	if _, err := tx.verifyReceipt(receiptResp(good, http.StatusOK, `"31"`)); err == nil || !strings.Contains(err.Error(), "ETag") {
		t.Errorf("an ETag other than the receipt resource's revision: %v", err)
	}
	if _, err := tx.verifyReceipt(receiptResp(good, http.StatusAccepted, "")); err == nil {
		t.Error("a 202 was accepted as a committed receipt")
	}
}

func TestNextDecimal(t *testing.T) {
	for in, want := range map[string]string{"1": "2", "9": "10", "19": "20", "109": "110", "9223372036854775806": "9223372036854775807"} {
		if got := nextDecimal(in); got != want {
			t.Errorf("nextDecimal(%s) = %s, want %s", in, got, want)
		}
	}
}
