package client

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/takokit/takokit/catalog/wire"
)

// Form transitions, client side (docs/provider-design.md#transitions).

// TxForm is {formRef, packageDigest}.
type TxForm struct {
	FormRef       wire.FormRef `json:"formRef"`
	PackageDigest string       `json:"packageDigest"`
}

// TxExpected are the fences of the request.
type TxExpected struct {
	UID        string `json:"uid"`
	Generation string `json:"generation"`
	Revision   string `json:"revision"`
}

// TxEvidence is the transitionEvidence member.
type TxEvidence struct {
	Format string `json:"format"`
	Marker string `json:"marker"`
	Digest string `json:"digest"`
}

// TxRequest is a built transition: its canonical body and the digests it binds.
type TxRequest struct {
	OperationID   string
	RequestDigest string
	SpecDigest    string
	Body          []byte
	From, To      TxForm
	Expected      TxExpected
	Evidence      TxEvidence
	Name, Space   string
}

// TxInput is what a transition request is computed from.
type TxInput struct {
	Marker      string
	From, To    TxForm
	Name, Space string
	Expected    TxExpected
	Spec        map[string]any // materialized under To
}

// BuildTransition computes the request body and its digests (a pure function of content).
func BuildTransition(in TxInput) (*TxRequest, error) {
	specDigest, err := wire.DigestValue(in.Spec)
	if err != nil {
		return nil, err
	}
	evDigest, err := wire.DomainDigest(wire.DomainTransitionEvidence, map[string]any{"marker": in.Marker, "fromForm": in.From, "toForm": in.To})
	if err != nil {
		return nil, err
	}
	ev := TxEvidence{Format: wire.DomainTransitionEvidence, Marker: in.Marker, Digest: evDigest}
	opHex, err := wire.DomainHex(wire.DomainTransitionOperation, map[string]any{
		"resource": map[string]any{"space": in.Space, "apiVersion": in.To.FormRef.APIVersion, "kind": in.To.FormRef.Kind, "name": in.Name},
		"fromForm": in.From, "toForm": in.To, "desiredSpecDigest": specDigest, "expected": in.Expected, "transitionEvidence": ev})
	if err != nil {
		return nil, err
	}
	opID := "formtx_" + opHex
	reqDigest, err := wire.DomainDigest(wire.DomainTransitionRequest, map[string]any{"operationId": opID,
		"fromForm": in.From, "toForm": in.To, "desiredSpecDigest": specDigest, "expected": in.Expected, "transitionEvidence": ev})
	if err != nil {
		return nil, err
	}
	body, err := wire.CanonicalValue(map[string]any{
		"operationId": opID, "fromForm": in.From, "toForm": in.To,
		"resource": map[string]any{"apiVersion": in.To.FormRef.APIVersion, "kind": in.To.FormRef.Kind,
			"form":     in.To,
			"metadata": map[string]any{"name": in.Name, "space": in.Space, "uid": in.Expected.UID, "generation": in.Expected.Generation},
			"spec":     in.Spec},
		"expected": in.Expected, "transitionEvidence": ev})
	if err != nil {
		return nil, err
	}
	return &TxRequest{OperationID: opID, RequestDigest: reqDigest, SpecDigest: specDigest, Body: body, From: in.From, To: in.To,
		Expected: in.Expected, Evidence: ev, Name: in.Name, Space: in.Space}, nil
}

// ParseKept rebuilds a TxRequest from kept request bytes (the unresolved-transition case).
func ParseKept(body []byte) (*TxRequest, error) {
	var doc struct {
		OperationID string     `json:"operationId"`
		FromForm    TxForm     `json:"fromForm"`
		ToForm      TxForm     `json:"toForm"`
		Expected    TxExpected `json:"expected"`
		Evidence    TxEvidence `json:"transitionEvidence"`
		Resource    struct {
			Metadata Metadata        `json:"metadata"`
			Spec     json.RawMessage `json:"spec"`
		} `json:"resource"`
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		return nil, err
	}
	specDigest, err := wire.Digest(doc.Resource.Spec)
	if err != nil {
		return nil, err
	}
	reqDigest, err := wire.DomainDigest(wire.DomainTransitionRequest, map[string]any{"operationId": doc.OperationID,
		"fromForm": doc.FromForm, "toForm": doc.ToForm, "desiredSpecDigest": specDigest, "expected": doc.Expected, "transitionEvidence": doc.Evidence})
	if err != nil {
		return nil, err
	}
	return &TxRequest{OperationID: doc.OperationID, RequestDigest: reqDigest, SpecDigest: specDigest, Body: body,
		From: doc.FromForm, To: doc.ToForm, Expected: doc.Expected, Evidence: doc.Evidence,
		Name: doc.Resource.Metadata.Name, Space: doc.Resource.Metadata.Space}, nil
}

// KeptSpec is the spec inside kept request bytes.
func KeptSpec(body []byte) (json.RawMessage, error) {
	var doc struct {
		Resource struct {
			Spec json.RawMessage `json:"spec"`
		} `json:"resource"`
	}
	err := json.Unmarshal(body, &doc)
	return doc.Resource.Spec, err
}

// TxOperation is the transition's closed operation object.
type TxOperation struct {
	OperationID       string `json:"operationId"`
	Status            string `json:"status"`
	DispatchAttempted bool   `json:"dispatchAttempted"`
	RequestDigest     string `json:"requestDigest"`
	ReconcilePath     string `json:"reconcilePath"`
}

// TxProof is the commit proof.
type TxProof struct {
	OperationID              string `json:"operationId"`
	FromForm                 TxForm `json:"fromForm"`
	ToForm                   TxForm `json:"toForm"`
	TransitionEvidenceDigest string `json:"transitionEvidenceDigest"`
	ObservedSpecDigest       string `json:"observedSpecDigest"`
	UID                      string `json:"uid"`
	Generation               string `json:"generation"`
	NativeIdentityDigest     string `json:"nativeIdentityDigest"`
	Committed                bool   `json:"committed"`
}

// TxAnswer is a 200 (committed) or 202 (unresolved) answer.
type TxAnswer struct {
	Status    int
	Operation TxOperation
	Resource  *Resource
	Proof     *TxProof
	ETag      []string
}

// ReadbackPath is the readback route (absolute path with its space query).
func ReadbackPath(api string, ref wire.FormRef, name, space, opID string) string {
	return ResourcePath(api, ref, name) + "/form-transitions/" + opID + "?" + url.Values{"space": {space}}.Encode()
}

// TransitionReadback reads the operation once (never dispatches). Refusals are *HostError.
func (c *Client) TransitionReadback(ctx context.Context, req *TxRequest) (*TxAnswer, error) {
	d, err := c.Discover(ctx)
	if err != nil {
		return nil, err
	}
	resp, err := c.do(ctx, Request{Method: http.MethodGet, URL: ReadbackPath(d.API, req.To.FormRef, req.Name, req.Space, req.OperationID)})
	if err != nil {
		return nil, err
	}
	return c.txAnswer(resp)
}

// TransitionPost sends the request exactly once: no retry, no resend.
func (c *Client) TransitionPost(ctx context.Context, req *TxRequest) (*TxAnswer, error) {
	d, err := c.Discover(ctx)
	if err != nil {
		return nil, err
	}
	h := http.Header{}
	h.Set(wire.HeaderIdempotencyKey, req.OperationID)
	h.Set(wire.HeaderExpectedGeneration, req.Expected.Generation)
	h.Set(wire.HeaderIfMatch, `"`+req.Expected.Revision+`"`)
	u := ResourcePath(d.API, req.To.FormRef, req.Name) + "/form-transitions?" + url.Values{"space": {req.Space}}.Encode()
	resp, err := c.do(ctx, Request{Method: http.MethodPost, URL: u, Header: h, Body: req.Body})
	if err != nil {
		return nil, err
	}
	return c.txAnswer(resp)
}

func (c *Client) txAnswer(resp *Response) (*TxAnswer, error) {
	switch resp.Status {
	case http.StatusOK, http.StatusAccepted:
	default:
		if resp.Status >= 200 && resp.Status < 300 {
			return nil, &ProtocolError{Status: resp.Status, Reason: "unexpected transition status"}
		}
		return nil, refusal(resp)
	}
	var doc struct {
		Operation *TxOperation    `json:"operation"`
		Resource  json.RawMessage `json:"resource,omitempty"`
		Proof     *TxProof        `json:"transitionProof,omitempty"`
	}
	if err := wire.DecodeStrict(resp.Body, &doc); err != nil || doc.Operation == nil {
		return nil, &ProtocolError{Status: resp.Status, Reason: fmt.Sprintf("transition answer: %v", err)}
	}
	a := &TxAnswer{Status: resp.Status, Operation: *doc.Operation, Proof: doc.Proof, ETag: resp.Header.Values(wire.HeaderETag)}
	if !strings.HasPrefix(a.Operation.ReconcilePath, c.lane.APIRoot+"/resources/") {
		return nil, &ProtocolError{Status: resp.Status, Reason: "reconcilePath is not a readback path of the lane"}
	}
	if resp.Status == http.StatusAccepted {
		if doc.Resource != nil || doc.Proof != nil || (a.Operation.Status != "prepared" && a.Operation.Status != "indeterminate") {
			return nil, &ProtocolError{Status: resp.Status, Reason: "a 202 transition answer carries only a prepared or indeterminate operation"}
		}
		return a, nil
	}
	if a.Operation.Status != "committed" || doc.Resource == nil || doc.Proof == nil {
		return nil, &ProtocolError{Status: resp.Status, Reason: "a 200 transition answer carries a committed operation, the resource and the proof"}
	}
	r, err := DecodeResource(doc.Resource)
	if err != nil {
		return nil, &ProtocolError{Status: resp.Status, Reason: "transition resource: " + err.Error()}
	}
	a.Resource = r
	return a, nil
}

// VerifyCommitted checks the proof and resource against the request (docs/provider-design.md#transitions).
// Each member it holds to the request is named on its own when it differs, with
// what the answer says and what the request sent.
func VerifyCommitted(a *TxAnswer, req *TxRequest) error {
	p, r := a.Proof, a.Resource
	n, err := nextGeneration(req.Expected.Generation)
	if err != nil {
		return err
	}
	switch {
	case a.Operation.OperationID != req.OperationID:
		return fmt.Errorf("the answer's operation is %s, not %s", a.Operation.OperationID, req.OperationID)
	case p.OperationID != req.OperationID:
		return fmt.Errorf("the proof is for operation %s, not %s", p.OperationID, req.OperationID)
	case a.Operation.RequestDigest != req.RequestDigest:
		return fmt.Errorf("the receipt binds request %s, not %s", a.Operation.RequestDigest, req.RequestDigest)
	case p.FromForm != req.From:
		return fmt.Errorf("the proof's fromForm is %s, not %s", txFormText(p.FromForm), txFormText(req.From))
	case p.ToForm != req.To:
		return fmt.Errorf("the proof's toForm is %s, not %s", txFormText(p.ToForm), txFormText(req.To))
	case p.TransitionEvidenceDigest != req.Evidence.Digest:
		return fmt.Errorf("the proof's transition evidence digest is %s, not the request's %s", p.TransitionEvidenceDigest, req.Evidence.Digest)
	case p.ObservedSpecDigest != req.SpecDigest:
		return fmt.Errorf("the backend observed spec %s, not the requested %s", p.ObservedSpecDigest, req.SpecDigest)
	case !p.Committed:
		return fmt.Errorf("the proof is not committed")
	case p.UID != req.Expected.UID:
		return fmt.Errorf("the proof names uid %s, not the expected %s", p.UID, req.Expected.UID)
	case r.Metadata.UID != req.Expected.UID:
		return fmt.Errorf("the resource has uid %s, not the expected %s", r.Metadata.UID, req.Expected.UID)
	case p.Generation != n:
		return fmt.Errorf("the proof's generation is %s, not %s (the one after %s)", p.Generation, n, req.Expected.Generation)
	case r.Metadata.Generation != n:
		return fmt.Errorf("the resource's generation is %s, not %s (the one after %s)", r.Metadata.Generation, n, req.Expected.Generation)
	}
	if err := Verify(r, Expect{Ref: req.To.FormRef, Name: req.Name, Space: req.Space}); err != nil {
		return err
	}
	return VerifyETag(r, a.ETag)
}

// txFormText is a Form of a transition as a message names it: its ref and package.
func txFormText(f TxForm) string { return f.FormRef.String() + " package " + f.PackageDigest }

func nextGeneration(g string) (string, error) {
	n, ok := wire.ParseDecimal(g)
	if !ok || n == 1<<63-1 {
		return "", fmt.Errorf("generation %q is not canonical", g)
	}
	return wire.FormatDecimal(n + 1), nil
}

// IsRejection reports a definitive rejection: 409 form_identity_conflict whose
// details say status rejected (or a failureCode hostCode).
func IsRejection(err error) (failure string, ok bool) {
	h, isHost := AsHost(err)
	if !isHost || h.Env.Code != wire.CodeFormIdentityConflict {
		return "", false
	}
	switch h.Env.HostCode {
	case "form_transition_from_mismatch", "form_transition_request_mismatch":
		return "", false
	}
	return h.Env.HostCode, true
}
