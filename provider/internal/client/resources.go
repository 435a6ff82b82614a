package client

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"

	"github.com/takokit/takokit/catalog/wire"
)

// Availability is one entry of the forms probe.
type Availability struct {
	Identity struct {
		FormRef       wire.FormRef `json:"formRef"`
		PackageDigest string       `json:"packageDigest"`
	} `json:"identity"`
	DefinitionKnown      bool     `json:"definitionKnown"`
	Installed            bool     `json:"installed"`
	Executable           bool     `json:"executable"`
	Activated            bool     `json:"activated"`
	AvailableToPrincipal bool     `json:"availableToPrincipal"`
	Operations           []string `json:"operations"`
	Deprecated           *bool    `json:"deprecated,omitempty"`
}

// Probe runs the availability probe GET {api}/forms?<exact query> and requires the
// Form to be fully available with operation op ("" = only the five booleans).
func (c *Client) Probe(ctx context.Context, ref wire.FormRef, space, op string) error {
	d, err := c.Discover(ctx)
	if err != nil {
		return err
	}
	resp, err := c.get(ctx, d.API+"/forms?"+wire.ExactQuery(space, ref).Encode())
	if err != nil {
		return err
	}
	var doc struct {
		Forms []Availability `json:"forms"`
	}
	if err := wire.DecodeStrict(resp.Body, &doc); err != nil {
		return &ProtocolError{Status: resp.Status, Reason: "forms probe answer: " + err.Error()}
	}
	if len(doc.Forms) != 1 || doc.Forms[0].Identity.FormRef != ref {
		return &ProtocolError{Status: resp.Status, Reason: fmt.Sprintf("forms probe must answer exactly one entry for %s", ref)}
	}
	a := doc.Forms[0]
	if !(a.DefinitionKnown && a.Installed && a.Executable && a.Activated && a.AvailableToPrincipal) {
		return &UnavailableError{Ref: ref, Reason: "the host reports the Form as not known, installed, executable, activated or available to this credential"}
	}
	if op != "" && !slices.Contains(a.Operations, op) {
		return &UnavailableError{Ref: ref, Reason: fmt.Sprintf("the host does not offer the %q operation for it (offers %v)", op, a.Operations)}
	}
	return nil
}

// UnavailableError is a probe that answered but does not allow the operation.
type UnavailableError struct {
	Ref    wire.FormRef
	Reason string
}

func (e *UnavailableError) Error() string {
	return fmt.Sprintf("Form %s is not available: %s", e.Ref, e.Reason)
}

// PrepareResult is a verified prepare answer.
type PrepareResult struct {
	PrepareDigest string
	SpecDigest    string
}

// Prepare posts the resource request body (already canonical) and verifies the echo.
// generation is the fence for an existing resource ("" on create).
func (c *Client) Prepare(ctx context.Context, body []byte, want Expect, generation string) (*PrepareResult, error) {
	d, err := c.Discover(ctx)
	if err != nil {
		return nil, err
	}
	h := http.Header{}
	if generation != "" {
		h.Set(wire.HeaderExpectedGeneration, generation)
	}
	resp, err := c.exchange(ctx, Request{Method: http.MethodPost, URL: d.API + "/resources/prepare", Header: h, Body: body}, false)
	if err != nil {
		return nil, err
	}
	var doc struct {
		Resource struct {
			APIVersion string          `json:"apiVersion"`
			Kind       string          `json:"kind"`
			Form       FormBlock       `json:"form"`
			Metadata   Metadata        `json:"metadata"`
			Spec       json.RawMessage `json:"spec"`
		} `json:"resource"`
		Review struct {
			PrepareDigest string `json:"prepareDigest"`
			SpecDigest    string `json:"specDigest"`
		} `json:"review"`
	}
	bad := func(why string) error { return &ProtocolError{Status: resp.Status, Reason: "prepare answer: " + why} }
	if err := wire.DecodeStrict(resp.Body, &doc); err != nil {
		return nil, bad(err.Error())
	}
	r := doc.Resource
	for _, m := range []struct{ member, echoed, sent string }{
		{"resource.apiVersion", r.APIVersion, want.Ref.APIVersion},
		{"resource.kind", r.Kind, want.Ref.Kind},
		{"resource.form.formRef", r.Form.FormRef.String(), want.Ref.String()},
		{"resource.metadata.name", r.Metadata.Name, want.Name},
		{"resource.metadata.space", r.Metadata.Space, want.Space},
	} {
		if m.echoed != m.sent {
			return nil, bad(fmt.Sprintf("%s echoes %q, not the %q sent", m.member, m.echoed, m.sent))
		}
	}
	var sent struct {
		Spec json.RawMessage `json:"spec"`
	}
	if err := json.Unmarshal(body, &sent); err != nil {
		return nil, fmt.Errorf("prepare request body: %w", err)
	}
	if r.Spec == nil {
		return nil, bad("resource.spec is missing")
	}
	echoDigest, err := wire.Digest(r.Spec)
	if err != nil {
		return nil, bad("echoed spec: " + err.Error())
	}
	sentDigest, err := wire.Digest(sent.Spec)
	if err != nil {
		return nil, fmt.Errorf("prepare request spec: %w", err)
	}
	if echoDigest != sentDigest || echoDigest != doc.Review.SpecDigest {
		return nil, bad(fmt.Sprintf("spec digests disagree: sent %s, echoed %s, review.specDigest %s", sentDigest, echoDigest, doc.Review.SpecDigest))
	}
	if !wire.ValidDigest(doc.Review.PrepareDigest) {
		return nil, bad("review.prepareDigest is not a sha256 digest")
	}
	return &PrepareResult{PrepareDigest: doc.Review.PrepareDigest, SpecDigest: doc.Review.SpecDigest}, nil
}

// Outcome is a mutation's direct answer: a representation (200/201), an accepted
// Operation (202) or nothing (204).
type Outcome struct {
	Status    int
	Resource  *Resource
	Operation *Operation
}

// ApplyInput is one PUT.
type ApplyInput struct {
	Want       Expect
	Body       []byte // canonical applyRequest bytes
	Key        string
	Generation string // "" = create (If-None-Match: *)
}

// Apply PUTs the resource: retries retryable refusals and resends the identical bytes
// once after a transport failure, so a committed-but-lost answer replays.
func (c *Client) Apply(ctx context.Context, in ApplyInput) (*Outcome, error) {
	d, err := c.Discover(ctx)
	if err != nil {
		return nil, err
	}
	h := http.Header{}
	h.Set(wire.HeaderIdempotencyKey, in.Key)
	if in.Generation == "" {
		h.Set(wire.HeaderIfNoneMatch, "*")
	} else {
		h.Set(wire.HeaderExpectedGeneration, in.Generation)
	}
	resp, err := c.exchange(ctx, Request{Method: http.MethodPut, URL: ResourcePath(d.API, in.Want.Ref, in.Want.Name), Header: h, Body: in.Body}, true)
	if err != nil {
		return nil, err
	}
	return c.outcome(resp, in.Want, http.StatusOK, http.StatusCreated, http.StatusAccepted)
}

// Get reads the resource under the exact ref. 404 resource_not_found is IsNotFound.
func (c *Client) Get(ctx context.Context, want Expect) (*Resource, error) {
	d, err := c.Discover(ctx)
	if err != nil {
		return nil, err
	}
	resp, err := c.get(ctx, ResourcePath(d.API, want.Ref, want.Name)+"?"+wire.ExactQuery(want.Space, want.Ref).Encode())
	if err != nil {
		return nil, err
	}
	out, err := c.outcome(resp, want, http.StatusOK)
	if err != nil {
		return nil, err
	}
	return out.Resource, nil
}

// Delete sends the fenced DELETE (one resend after a transport failure).
func (c *Client) Delete(ctx context.Context, want Expect, generation, key string) (*Outcome, error) {
	d, err := c.Discover(ctx)
	if err != nil {
		return nil, err
	}
	h := http.Header{}
	h.Set(wire.HeaderIdempotencyKey, key)
	h.Set(wire.HeaderExpectedGeneration, generation)
	u := ResourcePath(d.API, want.Ref, want.Name) + "?" + wire.ExactQuery(want.Space, want.Ref).Encode()
	resp, err := c.exchange(ctx, Request{Method: http.MethodDelete, URL: u, Header: h}, true)
	if err != nil {
		return nil, err
	}
	if resp.Status == http.StatusNoContent {
		// no body to check: Go's transport reads none after a 204 (bytes a host sent anyway
		// would be read as the next answer on the connection, and fail there)
		return &Outcome{Status: resp.Status}, nil
	}
	return c.outcome(resp, want, http.StatusNoContent, http.StatusAccepted) // 204 is answered above; listed so a refusal names every status of the route
}

// outcome decodes a 2xx answer with one of the allowed statuses.
func (c *Client) outcome(resp *Response, want Expect, allowed ...int) (*Outcome, error) {
	if !slices.Contains(allowed, resp.Status) {
		return nil, &ProtocolError{Status: resp.Status, Reason: fmt.Sprintf("answered %d; this request is answered only with %s", resp.Status, statusList(allowed))}
	}
	if resp.Status == http.StatusAccepted {
		op, err := decodeAccepted(resp.Body)
		if err != nil {
			return nil, &ProtocolError{Status: resp.Status, Reason: err.Error()}
		}
		return &Outcome{Status: resp.Status, Operation: op}, nil
	}
	r, err := DecodeResource(resp.Body)
	if err != nil {
		return nil, &ProtocolError{Status: resp.Status, Reason: "representation: " + err.Error()}
	}
	if err := Verify(r, want); err != nil {
		return nil, NewVerifyError(resp.Status, err)
	}
	if err := VerifyETag(r, resp.Header.Values(wire.HeaderETag)); err != nil {
		return nil, NewVerifyError(resp.Status, err)
	}
	return &Outcome{Status: resp.Status, Resource: r}, nil
}

// statusList writes statuses as "200", "200 or 201", "200, 201 or 202".
func statusList(statuses []int) string {
	out := ""
	for i, st := range statuses {
		switch {
		case i == 0:
		case i == len(statuses)-1:
			out += " or "
		default:
			out += ", "
		}
		out += strconv.Itoa(st)
	}
	return out
}

// VerifyError is a representation that fails response verification.
type VerifyError struct {
	Status int
	Reason string
	err    error // the rule broken: a *Violation names its member
}

// NewVerifyError is the VerifyError of an answer of status whose verification failed
// with err.
func NewVerifyError(status int, err error) *VerifyError {
	return &VerifyError{Status: status, Reason: err.Error(), err: err}
}

// Unwrap is the rule broken (a *Violation when it names a member).
func (e *VerifyError) Unwrap() error { return e.err }

func (e *VerifyError) Error() string { return "the host's representation is not usable: " + e.Reason }
