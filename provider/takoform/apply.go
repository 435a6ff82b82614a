package takoform

import (
	"context"
	"errors"

	"github.com/takokit/takokit/catalog/model"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/provider/internal/client"
)

// applyStage names where an apply failed (docs/provider-design.md#create needs it).
type applyStage string

const (
	stageDiscovery applyStage = "discovery"
	stageProbe     applyStage = "probe"
	stagePrepare   applyStage = "prepare"
	stagePut       applyStage = "put"
	stageEncode    applyStage = "encode"
)

// applyError is a failed apply with the stage it failed in.
type applyError struct {
	stage applyStage
	err   error
}

func (e *applyError) Error() string { return string(e.stage) + ": " + e.err.Error() }
func (e *applyError) Unwrap() error { return e.err }

// fences are the identity fences of an update ("" on create).
type fences struct {
	uid, generation string
}

func (f fences) create() bool { return f.generation == "" }

// resourceRequest is the body of prepare and of the resource PUT
// (docs/provider-design.md#lifecycle): the five members always; the PUT adds the review it
// was prepared under and, on an update or re-pin, the identity it expects. Its canonical
// (JCS) bytes are what is sent, digested into the idempotency key and resent.
type resourceRequest struct {
	APIVersion string          `json:"apiVersion"`
	Kind       string          `json:"kind"`
	Form       requestForm     `json:"form"`
	Metadata   requestMetadata `json:"metadata"`
	Spec       map[string]any  `json:"spec"`
	// PUT only
	Review             *requestReview `json:"review,omitempty"`
	ExpectedUID        *string        `json:"expectedUid,omitempty"`
	ExpectedGeneration *string        `json:"expectedGeneration,omitempty"`
}

type requestForm struct {
	FormRef wire.FormRef `json:"formRef"`
}

type requestMetadata struct {
	Name  string `json:"name"`
	Space string `json:"space"`
}

type requestReview struct {
	PrepareDigest string `json:"prepareDigest"`
}

func newResourceRequest(ref wire.FormRef, name, space string, spec map[string]any) *resourceRequest {
	return &resourceRequest{APIVersion: ref.APIVersion, Kind: ref.Kind, Form: requestForm{FormRef: ref},
		Metadata: requestMetadata{Name: name, Space: space}, Spec: spec}
}

// forPut is the PUT body: the prepared request, its review and the update fences
// (none on a create, which never sends expectedUid).
func (q resourceRequest) forPut(prepareDigest string, f fences) *resourceRequest {
	q.Review = &requestReview{PrepareDigest: prepareDigest}
	if !f.create() {
		q.ExpectedUID, q.ExpectedGeneration = &f.uid, &f.generation
	}
	return &q
}

// putSpec runs probe → prepare → PUT (docs/provider-design.md#create). The PUT is
// retried on the four retryable codes and resent once, byte-identical, after a
// transport failure; the prepareDigest lives only in memory for that resend.
func (r *Resource) putSpec(ctx context.Context, form *model.Form, name, space string, spec map[string]any, f fences, probeOp string) (*client.Outcome, error) {
	c := r.configured.client
	want := client.Expect{Ref: form.Ref, Name: name, Space: space}
	if _, err := c.Discover(ctx); err != nil {
		return nil, &applyError{stageDiscovery, err}
	}
	if err := c.Probe(ctx, form.Ref, space, probeOp); err != nil {
		return nil, &applyError{stageProbe, err}
	}
	req := newResourceRequest(form.Ref, name, space, spec)
	body, err := wire.CanonicalValue(req)
	if err != nil {
		return nil, &applyError{stageEncode, err}
	}
	prep, err := c.Prepare(ctx, body, want, f.generation)
	if err != nil {
		return nil, &applyError{stagePrepare, err}
	}
	applyBody, err := wire.CanonicalValue(req.forPut(prep.PrepareDigest, f))
	if err != nil {
		return nil, &applyError{stageEncode, err}
	}
	key, err := client.IdempotencyKey("apply", form.Ref, space, name, f.uid, f.generation, applyBody)
	if err != nil {
		return nil, &applyError{stageEncode, err}
	}
	out, err := c.Apply(ctx, client.ApplyInput{Want: want, Body: applyBody, Key: key, Generation: f.generation})
	if err != nil {
		return nil, &applyError{stagePut, err}
	}
	return out, nil
}

// stoppedAtDiscovery rewrites rep for an apply whose discovery failed with an answer
// (no host answering is said elsewhere): the action was never sent, so the report says
// that, names the request that failed, and points at no field of the spec.
func (r *Resource) stoppedAtDiscovery(rep *report, err error, action, kept string) {
	var ae *applyError
	if !errors.As(err, &ae) || ae.stage != stageDiscovery || rep.unreachable != "" {
		return
	}
	rep.summary += ": host discovery failed"
	rep.route = "GET " + r.configured.client.Lane().DiscoveryPath
	rep.what = "The host's discovery document could not be used, so the " + action + " was not sent; " + kept
	rep.pointer = ""
}

// settle polls an accepted operation to its end. It returns the final representation,
// or unfinished=true when the host accepted the mutation but the outcome is not in hand
// (deadline, cancellation, unusable operation or result). A terminal error is err.
func (r *Resource) settle(ctx context.Context, op *client.Operation, want client.Expect) (res *client.Resource, last *client.Operation, unfinished bool, why error) {
	last, err := r.configured.client.Poll(ctx, op)
	if err != nil {
		return nil, last, true, err
	}
	if last.Error != nil {
		return nil, last, false, last.TerminalError()
	}
	res, err = last.ResultResource()
	if err != nil {
		return nil, last, true, err
	}
	if err := client.Verify(res, want); err != nil {
		return nil, last, true, client.NewVerifyError(0, err)
	}
	return res, last, false, nil
}
