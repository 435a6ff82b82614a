package transition

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/decide"
	"github.com/takokit/takokit/hostsim/internal/fault"
	"github.com/takokit/takokit/hostsim/internal/journal"
	"github.com/takokit/takokit/hostsim/internal/store"
	"github.com/takokit/takokit/hostsim/internal/transition/backend"
)

// write runs one step in its own serialized transaction, with the request's
// fault firings (a crash point's included) recorded in it, so a firing is as
// durable as the write it follows. A *wire.Error returned by fn rolls back
// and is the answer, a decision; any other error is the host failing and
// comes back as err. A store read that fails inside a decision is never a
// *wire.Error here: the decisions a step calls (related.Resolve) return it
// apart from their refusals, so no step can take it for one and go on.
func (s *Service) write(c *Call, fn func(q store.Q) error) (*wire.Error, error) {
	err := c.Faults.Write(context.WithoutCancel(c.Ctx), s.st, s.Now, fn)
	var we *wire.Error
	if errors.As(err, &we) {
		return we, nil
	}
	return nil, err
}

// log journals one step of an operation.
func (s *Service) log(q store.Q, step string, r *opRow, extra map[string]any) {
	data := map[string]any{"step": step, "operationId": r.OperationID, "tenant": r.Tenant, "space": r.Space,
		"kind": r.Kind, "name": r.Name, "uid": r.PreUID}
	for k, v := range extra {
		data[k] = v
	}
	journal.Append(q, s.Now(), "transition", data)
}

// post runs the algorithm for a validated request: the existing operation,
// or a new claim (point A), then the dispatch. A row this request did not
// claim itself (known before, or claimed by a concurrent identical POST) is
// answered from the ledger: a replay.
func (s *Service) post(c *Call, p *parsed) answer {
	row, err := s.op(c.Ctx, c.Tenant, p.OperationID)
	if err != nil {
		return fail(internal(err))
	}
	if row == nil {
		var cr *crash
		var e *wire.Error
		row, cr, e, err = s.claim(c, p)
		switch {
		case err != nil:
			return fail(internal(err))
		case e != nil:
			return fail(e)
		case cr != nil:
			return answer{crash: cr}
		}
		if row.Status == statusPrepared && !row.DispatchAttempted && c.Probe == "transition-hold" {
			return s.pending(row, statusPrepared)
		}
	}
	if row.RequestDigest != p.requestDigest {
		if !c.Faults.On(fault.TransitionRequestUnchecked) {
			return fail(refuse(wire.CodeFormIdentityConflict, "form_transition_request_mismatch",
				"Form transition operation %s of %s was recorded with another request (requestDigest %s, this request %s); rebuild the request from the resource's current state",
				row.OperationID, row.what(), row.RequestDigest, p.requestDigest))
		}
	}
	if row.Status == statusCommitted { // only a replay: a row claimed just now is prepared
		if c.Faults.On(fault.TransitionReDispatch) {
			if err := s.redispatch(c, row); err != nil {
				return fail(internal(err))
			}
		}
	}
	if row.Status != statusPrepared || row.DispatchAttempted { // only a replay, as above
		a := s.resolve(c, row.Tenant, row.OperationID, false)
		if a.err == nil && a.crash == nil {
			if c.Faults.On(fault.TransitionReRender) {
				a.body = reencoded(a.body)
			}
		}
		return a
	}
	return s.dispatch(c, row)
}

// claim is the new operation's claim (point A). It returns the existing row
// instead when a concurrent request created the operation first.
func (s *Service) claim(c *Call, p *parsed) (row *opRow, cr *crash, e *wire.Error, err error) {
	now := s.Now()
	e, err = s.write(c, func(q store.Q) error {
		var err error
		if row, err = getOp(q, c.Tenant, p.OperationID); err != nil || row != nil {
			return err
		}
		cur, err := store.GetResource(q, c.Tenant, p.space, p.Resource.APIVersion, p.Resource.Kind, p.Resource.Metadata.Name)
		if err != nil {
			return err
		}
		var e *wire.Error
		c.Faults.Decide(func(a *decide.Acts) { e = p.fences(cur, a) })
		if e != nil {
			return e
		}
		// the references must resolve under toForm
		if _, e, err := s.Relations.Resolve(q, p.to, c.Tenant, p.space, p.spec, c.Faults); err != nil {
			return err
		} else if e != nil {
			return e
		}
		typ, id, err := backend.Identity(q, cur)
		if err != nil {
			return err
		}
		nd, err := backend.IdentityDigest(typ, id)
		if err != nil {
			return err
		}
		row = &opRow{Tenant: c.Tenant, OperationID: p.OperationID, Space: p.space, APIVersion: cur.APIVersion,
			Kind: cur.Kind, Name: cur.Name, Status: statusPrepared, RequestDigest: p.requestDigest, Request: p.raw,
			PreUID: cur.UID, PreGeneration: cur.Generation, PreRevision: cur.Revision, NativeIdentityDigest: nd,
			DesiredSpecDigest: p.specDigest, CreatedAt: now.UnixNano()}
		if err := insertOp(q, row); err != nil {
			return err
		}
		cur.Revision++
		cur.ClaimOp, cur.ClaimSince = row.OperationID, now.UTC().Truncate(time.Second).Format(time.RFC3339)
		cur.ClaimPath = s.readbackPath(row)
		if err := store.UpdateResource(q, cur); err != nil {
			return err
		}
		s.log(q, "A:claim", row, map[string]any{"revision": cur.Revision})
		cr = crashAt(c, "A", row.OperationID)
		return nil
	})
	return row, cr, e, err
}

// fences are the claim's checks against the stored resource, in the spec's
// order: the resource under fromForm with the expected uid, no claim, then
// the generation fence and If-Match — the lane's own fences
// (docs/protocol.md#fences), with their faults.
func (p *parsed) fences(cur *store.Resource, a *decide.Acts) *wire.Error {
	what := p.what()
	from := p.FromForm.FormRef
	switch {
	case cur == nil:
		return refuse(wire.CodeResourceNotFound, "", "%s does not exist; there is nothing to transition from %s (create it first)", what, from)
	case decide.Ref(cur) != from:
		return refuse(wire.CodeFormIdentityConflict, "form_transition_from_mismatch",
			"%s is recorded under %s %s@%s (%s), but the request transitions from %s; refresh and re-plan",
			what, cur.APIVersion, cur.Kind, cur.DefVersion, cur.SchemaDigest, from)
	case cur.UID != p.Expected.UID:
		return refuse(wire.CodeUIDMismatch, "", "%s is uid %s, but the request expects uid %s (it was replaced); refresh and re-plan",
			what, cur.UID, p.Expected.UID)
	}
	if cur.ClaimOp != "" {
		e := refuse(wire.CodeResourceBusy, "form_transition_in_progress",
			"%s is held by Form transition %s; no other transition starts until it resolves. Read GET %s for its outcome (re-running tofu apply reconciles it)",
			what, cur.ClaimOp, cur.ClaimPath)
		e.Retryable = false
		return e
	}
	if e := decide.CheckGeneration(cur, p.gen, false, what, "; refresh and re-plan", a); e != nil {
		return e
	}
	return decide.CheckRevision(cur, p.rev, false, what, " (its representation changed); refresh and re-plan", a)
}

// dispatch is the dispatch fence (point B) and the backend call (point C),
// then the resolution.
func (s *Service) dispatch(c *Call, row *opRow) answer {
	var won bool
	var cr *crash
	_, err := s.write(c, func(q store.Q) error {
		var err error
		now := s.Now().UnixNano()
		if won, err = setDispatched(q, row.Tenant, row.OperationID, now); err != nil || !won {
			return err
		}
		// row is not updated: every later step reads the operation from the ledger
		s.log(q, "B:dispatch-fence", row, nil)
		cr = crashAt(c, "B", row.OperationID)
		return nil
	})
	switch {
	case err != nil:
		return fail(internal(err))
	case cr != nil:
		return answer{crash: cr}
	case !won:
		return s.resolve(c, row.Tenant, row.OperationID, false)
	}
	if cr, err = s.backend(c, row); err != nil {
		return fail(internal(err))
	}
	if cr != nil {
		return answer{crash: cr}
	}
	return s.resolve(c, row.Tenant, row.OperationID, false)
}

// backend is the backend call (point C): one call, recorded in the backend's
// own ledger, counted per operation. It does nothing once the core resolved
// the operation otherwise (a dispatch_not_observed rejection fences it).
func (s *Service) backend(c *Call, row *opRow) (cr *crash, err error) {
	_, err = s.write(c, func(q store.Q) error {
		r, err := getOp(q, row.Tenant, row.OperationID)
		if err != nil || r == nil || r.Status != statusPrepared || !r.DispatchAttempted {
			return err
		}
		if ev, err := backend.ReadEvidence(q, r.OperationID); err != nil || ev.Outcome != "" {
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
		failure := rejection(c)
		if err := backend.Apply(q, backend.Op{OperationID: r.OperationID, Tenant: r.Tenant, UID: r.PreUID, DesiredSpecDigest: r.DesiredSpecDigest}, res, req.ToForm.FormRef.DefinitionVersion, failure, s.Now().UnixNano()); err != nil {
			return err
		}
		if err := store.AddCounter(q, "dispatch:"+r.OperationID, 1); err != nil {
			return err
		}
		outcome := statusCommitted
		if failure != "" {
			outcome = "rejected:" + failure
		}
		s.log(q, "C:backend", r, map[string]any{"outcome": outcome})
		cr = crashAt(c, "C", r.OperationID)
		return nil
	})
	return cr, err
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
func (s *Service) redispatch(c *Call, row *opRow) error {
	_, err := s.write(c, func(q store.Q) error {
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
