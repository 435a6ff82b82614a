package conformance

import (
	"bytes"
	"context"
	"net/http"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
)

var asyncProbe = map[string]string{ProbeHeader: "async"}

// asyncCreate sends a create under the async probe and returns the 202's Operation.
func (p *Probe) asyncCreate(ctx context.Context, c *Client, prefix string) (*catalog.Form, string, *Operation, error) {
	f, err := p.simpleForm()
	if err != nil {
		return nil, "", nil, err
	}
	spec, err := p.specFor(ctx, f)
	if err != nil {
		return nil, "", nil, err
	}
	name := p.Name(prefix)
	digest, err := p.prepared(ctx, c, f.Ref, name, spec, "")
	if err != nil {
		return nil, "", nil, err
	}
	req := p.applyReq(f.Ref, name, spec, digest, "")
	req.Header[ProbeHeader] = "async"
	r, err := c.Do(ctx, req)
	if err != nil {
		return nil, "", nil, err
	}
	if err := expectStatus(r, http.StatusAccepted); err != nil {
		return nil, "", nil, err
	}
	if r.Header.Get(wire.HeaderETag) != "" {
		return nil, "", nil, failf("%s: a 202 answer carries an ETag", r.What())
	}
	op, err := accepted(r)
	if err != nil {
		return nil, "", nil, err
	}
	if op.Done {
		return nil, "", nil, failf("%s: the 202 Operation %s is already done", r.What(), op.ID)
	}
	return f, name, op, nil
}

// settleOp polls until done and returns the final answer's bytes.
func (p *Probe) settleOp(ctx context.Context, c *Client, id string) (*Resp, *Operation, error) {
	for i := 0; i < 20; i++ {
		r, op, err := p.poll(ctx, c, id)
		if err != nil {
			return nil, nil, err
		}
		if op.Done {
			return r, op, nil
		}
	}
	return nil, nil, failf("GET %s/operations/%s: still pending after 20 polls", API, id)
}

func checkAsyncFlow(ctx context.Context, p *Probe) error {
	f, name, op, err := p.asyncCreate(ctx, p.P, "async")
	if err != nil {
		return err
	}
	r, done, err := p.settleOp(ctx, p.P, op.ID)
	if err != nil {
		return err
	}
	if done.Error != nil || done.Result["resource"] == nil {
		return failf("%s: the create operation ended without result.resource: %s", r.What(), snippet(r.Body))
	}
	var res Resource
	if err := wire.DecodeStrict(done.Result["resource"], &res); err != nil {
		return failf("%s: result.resource is not a resource representation: %v", r.What(), err)
	}
	// target is optional in the lane; when the host sends target.uid it must be the committed uid.
	if done.Target != nil && done.Target.UID != "" && done.Target.UID != res.Metadata.UID {
		return failf("%s: target.uid %q must name the committed uid %q", r.What(), done.Target.UID, res.Metadata.UID)
	}
	now, err := p.readResource(ctx, f.Ref, name)
	if err != nil {
		return err
	}
	if now.Metadata.UID != res.Metadata.UID {
		return failf("GET %s: uid %q, expected the operation's %q", ResourcePath(f.Ref, name), now.Metadata.UID, res.Metadata.UID)
	}
	return nil
}

func checkOperationReplayTerminal(ctx context.Context, p *Probe) error {
	f, name, op, err := p.asyncCreate(ctx, p.P, "opterm")
	if err != nil {
		return err
	}
	first, _, err := p.settleOp(ctx, p.P, op.ID)
	if err != nil {
		return err
	}
	if err := p.moveStore(ctx, f.Ref, name); err != nil {
		return err
	}
	for i := 0; i < 2; i++ {
		again, _, err := p.poll(ctx, p.P, op.ID)
		if err != nil {
			return err
		}
		if !bytes.Equal(first.Body, again.Body) {
			return failf("%s: a terminal operation answered %s, expected the same document byte for byte %s", again.What(), snippet(again.Body), snippet(first.Body))
		}
	}
	return nil
}

func checkOperationResumable(ctx context.Context, p *Probe) error {
	_, _, a, err := p.asyncCreate(ctx, p.P, "resume")
	if err != nil {
		return err
	}
	_, _, b, err := p.asyncCreate(ctx, p.P, "resume")
	if err != nil {
		return err
	}
	if _, _, err := p.settleOp(ctx, p.P, b.ID); err != nil {
		return err
	}
	ra, opA, err := p.settleOp(ctx, p.P, a.ID)
	if err != nil {
		return err
	}
	if opA.Error != nil {
		return failf("%s: the first operation ended with %s after another settled", ra.What(), opA.Error.Code)
	}
	again, _, err := p.poll(ctx, p.P, a.ID)
	if err != nil {
		return err
	}
	if !bytes.Equal(again.Body, ra.Body) {
		return failf("%s: the settled operation answered differently on a later poll", again.What())
	}
	return nil
}

func (p *Probe) cancel(ctx context.Context, c *Client, id string) (*Resp, error) {
	return c.Do(ctx, Req{Method: http.MethodPost, Target: API + "/operations/" + id + "/cancel",
		Header: map[string]string{wire.HeaderIdempotencyKey: newKey()}})
}

func checkOperationCancel(ctx context.Context, p *Probe) error {
	f, name, op, err := p.asyncCreate(ctx, p.P, "cancel")
	if err != nil {
		return err
	}
	r, err := p.cancel(ctx, p.P, op.ID)
	if err != nil {
		return err
	}
	if err := expectStatus(r, http.StatusOK); err != nil {
		return err
	}
	c, err := decodeOperation(r, r.Body)
	if err != nil {
		return err
	}
	if !c.Done || c.Error == nil || c.Error.Code != wire.CodeOperationCancelled || c.Error.Retryable {
		return failf("%s: a cancelled operation is done with error operation_cancelled, retryable false; got %s", r.What(), snippet(r.Body))
	}
	if err := p.notCreated(ctx, f.Ref, name, "a cancelled create"); err != nil {
		return err
	}
	again, err := p.cancel(ctx, p.P, op.ID)
	if err != nil {
		return err
	}
	if again.Status != r.Status || !bytes.Equal(again.Body, r.Body) {
		return failf("%s: cancelling a terminal operation must answer it unchanged: got %s, expected %d %s", again.What(), again.Got(), r.Status, snippet(r.Body))
	}
	unknown, err := p.cancel(ctx, p.P, "op_conformance"+p.run)
	if err != nil {
		return err
	}
	return expectCode(unknown, wire.CodeOperationNotFound)
}

func checkOperationBoundToPrincipal(ctx context.Context, p *Probe) error {
	_, _, op, err := p.asyncCreate(ctx, p.P, "opown")
	if err != nil {
		return err
	}
	others := []*Client{p.Alt}
	if p.Other != nil {
		others = append(others, p.Other)
	}
	for _, c := range others {
		r, err := c.Do(ctx, Req{Method: http.MethodGet, Target: API + "/operations/" + op.ID})
		if err != nil {
			return err
		}
		if err := expectCode(r, wire.CodeOperationNotFound); err != nil {
			return failf("%s (read by the %s principal)", err, c.Label)
		}
		r, err = p.cancel(ctx, c, op.ID)
		if err != nil {
			return err
		}
		if err := expectCode(r, wire.CodeOperationNotFound); err != nil {
			return failf("%s (cancel by the %s principal)", err, c.Label)
		}
	}
	_, done, err := p.settleOp(ctx, p.P, op.ID)
	if err != nil {
		return err
	}
	if done.Error != nil {
		return failf("operation %s ended with %s after strangers were refused", op.ID, done.Error.Code)
	}
	return nil
}

func checkAsyncCommitBindsIdentity(ctx context.Context, p *Probe) error {
	f, spec, a, err := p.simpleResource(ctx, "bind")
	if err != nil {
		return err
	}
	name := a.Metadata.Name
	r, err := p.del(ctx, p.P, f.Ref, name, "1", asyncProbe)
	if err != nil {
		return err
	}
	if err := expectStatus(r, http.StatusAccepted); err != nil {
		return err
	}
	op, err := accepted(r)
	if err != nil {
		return err
	}
	if err := p.deleted(ctx, a); err != nil {
		return err
	}
	b, err := p.create(ctx, f, name, spec)
	if err != nil {
		return err
	}
	pr, done, err := p.settleOp(ctx, p.P, op.ID)
	if err != nil {
		return err
	}
	if done.Error == nil || done.Error.Code != wire.CodeUIDMismatch || done.Error.Retryable {
		return failf("%s: a delete accepted for uid %s, committing after the name passed to uid %s, must end with uid_mismatch (not retryable); got %s", pr.What(), a.Metadata.UID, b.Metadata.UID, snippet(pr.Body))
	}
	return p.unchanged(ctx, b)
}
