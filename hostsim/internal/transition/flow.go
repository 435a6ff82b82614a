package transition

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/fault"
	"github.com/takokit/takokit/hostsim/internal/lane"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// write runs one step in its own serialized transaction. A *wire.Error
// returned by fn rolls back and is the answer.
func (s *Service) write(x *lane.Exchange, fn func(q store.Q, fired *[]*fault.Armed) error) (*wire.Error, error) {
	var fired []*fault.Armed
	err := s.st.Write(context.WithoutCancel(x.Context()), func(q store.Q) error {
		fired = fired[:0]
		return fn(q, &fired)
	})
	if len(fired) > 0 {
		x.FaultsChanged()
	}
	var we *wire.Error
	if errors.As(err, &we) {
		return we, nil
	}
	return nil, err
}

func journal(x *lane.Exchange, q store.Q, step string, r *opRow, extra map[string]any) error {
	data := map[string]any{"step": step, "operationId": r.OperationID, "tenant": r.Tenant, "space": r.Space,
		"kind": r.Kind, "name": r.Name, "uid": r.PreUID}
	for k, v := range extra {
		data[k] = v
	}
	return lane.Append(q, x.Now(), "transition", data)
}

// post runs §5 for a validated request.
func (s *Service) post(x *lane.Exchange, p *parsed) answer {
	row, err := getOp(s.st.DB(), x.Tenant(), p.OperationID)
	if err != nil {
		return fail(internal(err))
	}
	replay := row != nil
	if row == nil {
		var c *crash
		var e *wire.Error
		row, c, e, err = s.claim(x, p)
		switch {
		case err != nil:
			return fail(internal(err))
		case e != nil:
			return fail(e)
		case c != nil:
			return answer{crash: c}
		}
		if row.Status == statusPrepared && !row.DispatchAttempted && x.Probe() == "transition-hold" {
			return pending(row, statusPrepared)
		}
	}
	if row.RequestDigest != p.requestDigest && !x.Lapse("transition.request-unchecked") {
		return fail(refuse(wire.CodeFormIdentityConflict, "form_transition_request_mismatch",
			"Form transition operation %s of %s was recorded with another request (requestDigest %s, this request %s); rebuild the request from the resource's current state",
			row.OperationID, row.what(), row.RequestDigest, p.requestDigest))
	}
	if replay && row.Status == statusCommitted && x.Lapse("transition.re-dispatch") {
		if err := s.redispatch(x, row); err != nil {
			return fail(internal(err))
		}
	}
	if row.Status != statusPrepared || row.DispatchAttempted {
		a := s.resolve(x, row.Tenant, row.OperationID, false)
		if replay && a.err == nil && a.crash == nil && x.Lapse("transition.re-render") {
			a.body = reencoded(a.body)
		}
		return a
	}
	return s.dispatch(x, row)
}

// claim is §5 step 3 (point A). It returns the existing row instead when a
// concurrent request created the operation first.
func (s *Service) claim(x *lane.Exchange, p *parsed) (row *opRow, c *crash, e *wire.Error, err error) {
	now := x.Now()
	e, err = s.write(x, func(q store.Q, fired *[]*fault.Armed) error {
		var err error
		if row, err = getOp(q, x.Tenant(), p.OperationID); err != nil || row != nil {
			return err
		}
		cur, err := store.GetResource(q, x.Tenant(), p.space, p.Resource.APIVersion, p.Resource.Kind, p.Resource.Metadata.Name)
		if err != nil {
			return err
		}
		if e := p.fences(q, cur); e != nil {
			return e
		}
		if _, e := x.Relations(q, p.to, p.space, cur.Name, p.spec); e != nil { // the references must resolve under toForm
			return e
		}
		typ, id, err := nativeIdentity(q, cur)
		if err != nil {
			return err
		}
		nd, err := nativeIdentityDigest(typ, id)
		if err != nil {
			return err
		}
		row = &opRow{Tenant: x.Tenant(), OperationID: p.OperationID, Space: p.space, APIVersion: cur.APIVersion,
			Kind: cur.Kind, Name: cur.Name, Status: statusPrepared, RequestDigest: p.requestDigest, Request: p.raw,
			PreUID: cur.UID, PreGeneration: cur.Generation, PreRevision: cur.Revision, NativeIdentityDigest: nd,
			DesiredSpecDigest: p.specDigest, CreatedAt: now.UnixNano()}
		if err := insertOp(q, row); err != nil {
			return err
		}
		cur.Revision++
		if err := store.UpdateResource(q, cur); err != nil {
			return err
		}
		path := ReadbackPath(row.APIVersion, row.Kind, row.Name, row.Space, row.OperationID)
		m, err := getMark(q, cur.UID)
		if err != nil {
			return err
		}
		m.ClaimOp, m.ClaimSince, m.ClaimPath = row.OperationID, now.UTC().Truncate(time.Second).Format(time.RFC3339), path
		if err := putMark(q, m); err != nil {
			return err
		}
		if err := journal(x, q, "A:claim", row, map[string]any{"revision": cur.Revision}); err != nil {
			return err
		}
		c, err = crashAt(x, q, "A", row.OperationID, fired)
		return err
	})
	return row, c, e, err
}

// fences are the checks of §5 step 3 against the stored resource.
func (p *parsed) fences(q store.Q, cur *store.Resource) *wire.Error {
	what := p.what()
	from := p.FromForm.FormRef
	switch {
	case cur == nil:
		return refuse(wire.CodeResourceNotFound, "", "%s does not exist; there is nothing to transition from %s (create it first)", what, from)
	case cur.DefVersion != from.DefinitionVersion || cur.SchemaDigest != from.SchemaDigest:
		return refuse(wire.CodeFormIdentityConflict, "form_transition_from_mismatch",
			"%s is recorded under %s %s@%s (%s), but the request transitions from %s; refresh and re-plan",
			what, cur.APIVersion, cur.Kind, cur.DefVersion, cur.SchemaDigest, from)
	case cur.UID != p.Expected.UID:
		return refuse(wire.CodeUIDMismatch, "", "%s is uid %s, but the request expects uid %s (it was replaced); refresh and re-plan",
			what, cur.UID, p.Expected.UID)
	}
	m, err := getMark(q, cur.UID)
	if err != nil {
		return internal(err)
	}
	if m.ClaimOp != "" {
		e := refuse(wire.CodeResourceBusy, "form_transition_in_progress",
			"%s is held by Form transition %s; no other transition starts until it resolves. Read GET %s for its outcome (re-running tofu apply reconciles it)",
			what, m.ClaimOp, m.ClaimPath)
		e.Retryable = false
		return e
	}
	switch {
	case cur.Generation != p.gen:
		return refuse(wire.CodeGenerationConflict, "", "fence %d is stale: %s is at generation %d; refresh and re-plan", p.gen, what, cur.Generation)
	case cur.Revision != p.rev:
		return refuse(wire.CodeRevisionConflict, "", "If-Match \"%d\" is stale: %s is at revision %d (its representation changed); refresh and re-plan",
			p.rev, what, cur.Revision)
	}
	return nil
}

// dispatch is §5 steps 4 (point B) and 5 (point C), then the resolution.
func (s *Service) dispatch(x *lane.Exchange, row *opRow) answer {
	var won bool
	var c *crash
	_, err := s.write(x, func(q store.Q, fired *[]*fault.Armed) error {
		var err error
		now := x.Now().UnixNano()
		if won, err = setDispatched(q, row.Tenant, row.OperationID, now); err != nil || !won {
			return err
		}
		row.DispatchAttempted, row.DispatchedAt = true, now
		if err := journal(x, q, "B:dispatch-fence", row, nil); err != nil {
			return err
		}
		c, err = crashAt(x, q, "B", row.OperationID, fired)
		return err
	})
	switch {
	case err != nil:
		return fail(internal(err))
	case c != nil:
		return answer{crash: c}
	case !won:
		return s.resolve(x, row.Tenant, row.OperationID, false)
	}
	if c, err = s.backend(x, row); err != nil {
		return fail(internal(err))
	}
	if c != nil {
		return answer{crash: c}
	}
	return s.resolve(x, row.Tenant, row.OperationID, false)
}

// backend is §5 step 5 (point C): one backend call, recorded in the backend's
// own ledger, counted per operation. It does nothing once the core resolved
// the operation otherwise (a dispatch_not_observed rejection fences it).
func (s *Service) backend(x *lane.Exchange, row *opRow) (c *crash, err error) {
	_, err = s.write(x, func(q store.Q, fired *[]*fault.Armed) error {
		r, err := getOp(q, row.Tenant, row.OperationID)
		if err != nil || r == nil || r.Status != statusPrepared || !r.DispatchAttempted {
			return err
		}
		if ev, err := backendEvidence(q, r.OperationID); err != nil || ev.Outcome != "" {
			return err
		}
		res, err := store.GetResourceByUID(q, r.PreUID)
		if err != nil || res == nil {
			return errors.Join(err, errors.New("the claimed resource "+r.PreUID+" is gone"))
		}
		req, err := r.request()
		if err != nil {
			return err
		}
		failure, err := rejection(x, q, fired)
		if err != nil {
			return err
		}
		if err := backendApply(q, r, res, req.ToForm.FormRef.DefinitionVersion, failure, x.Now().UnixNano()); err != nil {
			return err
		}
		if err := store.AddCounter(q, "dispatch:"+r.OperationID, 1); err != nil {
			return err
		}
		outcome := statusCommitted
		if failure != "" {
			outcome = "rejected:" + failure
		}
		if err := journal(x, q, "C:backend", r, map[string]any{"outcome": outcome}); err != nil {
			return err
		}
		c, err = crashAt(x, q, "C", r.OperationID, fired)
		return err
	})
	return c, err
}

// reencoded is a replayed answer rendered afresh (fault transition.re-render):
// the same JSON value, indented, so it is not the stored bytes.
func reencoded(body []byte) []byte {
	var out bytes.Buffer
	if json.Indent(&out, body, "", "  ") != nil {
		return body
	}
	return out.Bytes()
}

// redispatch applies a committed transition's change again on a replay (fault
// transition.re-dispatch): the resource's generation and revision move once more.
func (s *Service) redispatch(x *lane.Exchange, row *opRow) error {
	_, err := s.write(x, func(q store.Q, _ *[]*fault.Armed) error {
		cur, err := store.GetResourceByUID(q, row.PreUID)
		if err != nil || cur == nil {
			return err
		}
		cur.Generation++
		cur.Revision++
		return store.UpdateResource(q, cur)
	})
	return err
}
