package conformance

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
)

// Resource is a resourceResponse, decoded strictly.
type Resource struct {
	APIVersion string `json:"apiVersion,required"`
	Kind       string `json:"kind,required"`
	Form       struct {
		FormRef       wire.FormRef `json:"formRef,required"`
		PackageDigest string       `json:"packageDigest,omitempty"`
	} `json:"form,required"`
	Metadata struct {
		Name       string `json:"name,required"`
		Space      string `json:"space,required"`
		UID        string `json:"uid,required"`
		Generation string `json:"generation,required"`
		Revision   string `json:"revision,required"`
	} `json:"metadata,required"`
	Spec   json.RawMessage `json:"spec,required"`
	Status struct {
		ObservedGeneration string          `json:"observedGeneration,required"`
		Conditions         []Condition     `json:"conditions,required"`
		Outputs            json.RawMessage `json:"outputs,omitempty"`
		Observed           json.RawMessage `json:"observed,omitempty"`
	} `json:"status,required"`
	ETag string `json:"-"`
}

// Condition is one status condition.
type Condition struct {
	Type               string `json:"type,required"`
	Status             string `json:"status,required"`
	Reason             string `json:"reason,required"`
	LastTransitionTime string `json:"lastTransitionTime,required"`
	HostReason         string `json:"hostReason,omitempty"`
	Message            string `json:"message,omitempty"`
}

// Ref is the recorded FormRef.
func (r *Resource) Ref() wire.FormRef { return r.Form.FormRef }

// RuleETag is the check measuring the ETag rule every decoded representation is
// held to (docs/protocol.md#headers): a setup step broken by it is that rule's
// failure, reported once there.
const RuleETag = "revision-etag-exact"

// decodeResource decodes a 200/201 answer strictly and checks its ETag.
func decodeResource(r *Resp) (*Resource, error) {
	var res Resource
	if err := wire.DecodeStrict(r.Body, &res); err != nil {
		return nil, &Failure{Msg: fmt.Sprintf("%s: answer is not a valid resource representation: %v", r.What(), err), Resp: r}
	}
	res.ETag = r.Header.Get(wire.HeaderETag)
	if res.ETag != `"`+res.Metadata.Revision+`"` {
		detail := fmt.Sprintf("ETag %q does not equal the quoted revision %q", res.ETag, res.Metadata.Revision)
		return nil, &Failure{Msg: r.What() + ": " + detail, Rule: RuleETag, Detail: detail, Resp: r}
	}
	return &res, nil
}

// body builds a resourceRequest (plus extra members for apply or import).
func body(ref wire.FormRef, name, space string, spec any, extra map[string]any) []byte {
	m := map[string]any{
		"apiVersion": ref.APIVersion,
		"kind":       ref.Kind,
		"form":       map[string]any{"formRef": ref},
		"metadata":   map[string]any{"name": name, "space": space},
		"spec":       spec,
	}
	for k, v := range extra {
		m[k] = v
	}
	b, err := json.Marshal(m)
	if err != nil {
		panic(err) // only maps, strings and decoded JSON values reach here
	}
	return b
}

// prepare sends prepare and returns the answer and, on 200, the prepareDigest.
func (p *Probe) prepare(ctx context.Context, c *Client, ref wire.FormRef, name string, spec any, fence string) (*Resp, string, error) {
	h := map[string]string{}
	if fence != "" {
		h[wire.HeaderExpectedGeneration] = fence
	}
	r, err := c.Do(ctx, Req{Method: http.MethodPost, Target: API + "/resources/prepare", Header: h,
		Body: body(ref, name, p.Space, spec, nil)})
	if err != nil || r.Status != http.StatusOK {
		return r, "", err
	}
	var ans struct {
		Review struct {
			PrepareDigest string `json:"prepareDigest"`
		} `json:"review"`
	}
	if err := json.Unmarshal(r.Body, &ans); err != nil || !wire.ValidDigest(ans.Review.PrepareDigest) {
		return r, "", failf("%s: prepare answer carries no valid review.prepareDigest: %s", r.What(), snippet(r.Body))
	}
	return r, ans.Review.PrepareDigest, nil
}

// applyReq builds the PUT of an apply. fence "" means create intent.
func (p *Probe) applyReq(ref wire.FormRef, name string, spec any, digest, fence string) Req {
	h := map[string]string{wire.HeaderIdempotencyKey: newKey()}
	if fence == "" {
		h[wire.HeaderIfNoneMatch] = "*"
	} else {
		h[wire.HeaderExpectedGeneration] = fence
	}
	return Req{Method: http.MethodPut, Target: ResourcePath(ref, name), Header: h,
		Body: body(ref, name, p.Space, spec, map[string]any{"review": map[string]any{"prepareDigest": digest}})}
}

// apply prepares and applies spec with client c; fence "" creates. It returns the
// raw answer of the PUT; setup failures (prepare refused) fail the check.
func (p *Probe) apply(ctx context.Context, c *Client, ref wire.FormRef, name string, spec any, fence string) (*Resp, error) {
	pr, digest, err := p.prepare(ctx, c, ref, name, spec, fence)
	if err != nil {
		return nil, err
	}
	if pr.Status != http.StatusOK {
		return nil, failf("%s: prepare of %s %q expected 200, got %s", pr.What(), ref.Kind, name, pr.Got())
	}
	return c.Do(ctx, p.applyReq(ref, name, spec, digest, fence))
}

// settle turns a 200/201 answer, or a 202 whose Operation completes, into a resource.
func (p *Probe) settle(ctx context.Context, c *Client, r *Resp, want ...int) (*Resource, error) {
	if r.Status == http.StatusAccepted {
		op, err := p.await(ctx, c, r)
		if err != nil {
			return nil, err
		}
		if op.Error != nil {
			return nil, failf("%s: operation %s ended with %s: %s", r.What(), op.ID, op.Error.Code, op.Error.Message)
		}
		var res Resource
		if err := wire.DecodeStrict(op.Result["resource"], &res); err != nil {
			return nil, failf("%s: operation %s result is not a resource: %v", r.What(), op.ID, err)
		}
		res.ETag = `"` + res.Metadata.Revision + `"`
		return &res, nil
	}
	if err := expectStatus(r, want...); err != nil {
		return nil, err
	}
	return decodeResource(r)
}

// create prepares and creates a resource of f named name, expecting 201 (or a
// completing 202).
func (p *Probe) create(ctx context.Context, f *catalog.Form, name string, spec any) (*Resource, error) {
	if !p.S.Offers(f, "create") { // a partial host that says so is not to be blamed for refusing it
		return nil, notApplicable("this check needs a %s made, and the host does not offer create of %s (its support profile)", f.Ref.Kind, f.Ref)
	}
	if err := p.declinedWhatever(f); err != nil {
		return nil, err
	}
	r, err := p.apply(ctx, p.P, f.Ref, name, spec, "")
	if err != nil {
		return nil, err
	}
	return p.settle(ctx, p.P, r, http.StatusCreated)
}

// update prepares and applies spec over res under its current generation.
func (p *Probe) update(ctx context.Context, res *Resource, spec any) (*Resource, error) {
	r, err := p.apply(ctx, p.P, res.Ref(), res.Metadata.Name, spec, res.Metadata.Generation)
	if err != nil {
		return nil, err
	}
	return p.settle(ctx, p.P, r, http.StatusOK)
}

// read GETs a resource under ref with client c.
func (p *Probe) read(ctx context.Context, c *Client, ref wire.FormRef, name string) (*Resp, error) {
	return c.Do(ctx, Req{Method: http.MethodGet, Target: ResourcePath(ref, name) + exactQuery(p.Space, ref)})
}

// readResource GETs and decodes a resource, failing unless it answers 200.
func (p *Probe) readResource(ctx context.Context, ref wire.FormRef, name string) (*Resource, error) {
	r, err := p.read(ctx, p.P, ref, name)
	if err != nil {
		return nil, err
	}
	if err := expectStatus(r, http.StatusOK); err != nil {
		return nil, err
	}
	return decodeResource(r)
}

// del sends a DELETE fenced at gen with client c.
func (p *Probe) del(ctx context.Context, c *Client, ref wire.FormRef, name, gen string, extra map[string]string) (*Resp, error) {
	h := map[string]string{wire.HeaderIdempotencyKey: newKey(), wire.HeaderExpectedGeneration: gen}
	for k, v := range extra {
		h[k] = v
	}
	return c.Do(ctx, Req{Method: http.MethodDelete, Target: ResourcePath(ref, name) + exactQuery(p.Space, ref), Header: h})
}

// observe sends an observe fenced at gen with client c.
func (p *Probe) observe(ctx context.Context, c *Client, ref wire.FormRef, name, gen string, extra map[string]string) (*Resp, error) {
	h := map[string]string{wire.HeaderIdempotencyKey: newKey(), wire.HeaderExpectedGeneration: gen}
	for k, v := range extra {
		h[k] = v
	}
	return c.Do(ctx, Req{Method: http.MethodPost, Target: ResourcePath(ref, name) + "/observe" + exactQuery(p.Space, ref), Header: h})
}

// moveStore observes generation 1 of the named resource so that the store moves
// (a host-side write), failing unless the observe succeeds: a check that asks
// whether an answer survives the store moving must know that it moved.
func (p *Probe) moveStore(ctx context.Context, ref wire.FormRef, name string) error {
	r, err := p.observe(ctx, p.P, ref, name, "1", nil)
	if err != nil {
		return err
	}
	if _, err := observed(r); err != nil {
		return failf("%v (the observe that moves the store)", err)
	}
	return nil
}

// deleted deletes res and waits for a 202 to settle; it fails unless the delete succeeds.
func (p *Probe) deleted(ctx context.Context, res *Resource) error {
	r, err := p.del(ctx, p.P, res.Ref(), res.Metadata.Name, res.Metadata.Generation, nil)
	if err != nil {
		return err
	}
	return p.deleteSucceeded(ctx, r)
}

// deleteSucceeded accepts a 204 with an empty body and no ETag, or a 202 whose
// Operation ends with {"deleted": true}.
func (p *Probe) deleteSucceeded(ctx context.Context, r *Resp) error {
	if r.Status == http.StatusAccepted {
		op, err := p.await(ctx, p.P, r)
		if err != nil {
			return err
		}
		if op.Error != nil {
			return failf("%s: delete operation %s ended with %s", r.What(), op.ID, op.Error.Code)
		}
		if string(op.Result["deleted"]) != "true" {
			return failf("%s: delete operation %s result must be {\"deleted\": true}", r.What(), op.ID)
		}
		return nil
	}
	if err := expectStatus(r, http.StatusNoContent); err != nil {
		return err
	}
	if len(r.Body) != 0 || r.Header.Get(wire.HeaderETag) != "" {
		return failf("%s: a 204 delete carries a body or an ETag", r.What())
	}
	return nil
}

// mustJSON marshals v; v is always a decoded JSON value or a map of them.
func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("marshal: %v", err))
	}
	return b
}

// prepared prepares and fails unless the host answers 200 with a prepareDigest.
func (p *Probe) prepared(ctx context.Context, c *Client, ref wire.FormRef, name string, spec any, fence string) (string, error) {
	r, digest, err := p.prepare(ctx, c, ref, name, spec, fence)
	if err != nil {
		return "", err
	}
	if err := expectStatus(r, http.StatusOK); err != nil {
		return "", err
	}
	return digest, nil
}

// observed decodes an observe answer ({"resource": …}) and checks its ETag.
func observed(r *Resp) (*Resource, error) {
	if err := expectStatus(r, http.StatusOK); err != nil {
		return nil, err
	}
	var env struct {
		Resource rawJSON `json:"resource,required"`
	}
	if err := wire.DecodeStrict(r.Body, &env); err != nil {
		return nil, failf("%s: observe answer is not {\"resource\": …}: %v", r.What(), err)
	}
	inner := *r
	inner.Body = env.Resource
	return decodeResource(&inner)
}
