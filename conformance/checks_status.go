package conformance

import (
	"context"
	"net/http"
	"time"

	"github.com/takokit/takokit/catalog/wire"
)

// conditionProblem checks a representation's conditions against the closed
// vocabularies of wire (docs/protocol.md#status).
func conditionProblem(res *Resource) string {
	if len(res.Status.Conditions) > 16 {
		return "more than 16 conditions"
	}
	ready := false
	for _, c := range res.Status.Conditions {
		switch {
		case !wire.KnownConditionType(c.Type):
			return "condition type " + c.Type + " is outside the closed vocabulary"
		case !wire.KnownConditionStatus(c.Status):
			return "condition " + c.Type + " status " + c.Status + " is not True, False or Unknown"
		case !wire.KnownConditionReason(c.Reason):
			return "condition " + c.Type + " reason " + c.Reason + " is outside the closed vocabulary"
		case len(c.HostReason) > 256 || len(c.Message) > 4096:
			return "condition " + c.Type + " hostReason or message is too long"
		}
		if _, err := time.Parse(time.RFC3339, c.LastTransitionTime); err != nil {
			return "condition " + c.Type + " lastTransitionTime " + c.LastTransitionTime + " is not RFC 3339"
		}
		ready = ready || c.Type == wire.ConditionReady
	}
	if !ready {
		return "no Ready condition"
	}
	return ""
}

func checkConditionReasonClosed(ctx context.Context, p *Probe) error {
	f, _, a, err := p.simpleResource(ctx, "cond")
	if err != nil {
		return err
	}
	what := "PUT " + ResourcePath(f.Ref, a.Metadata.Name)
	if msg := conditionProblem(a); msg != "" {
		return failf("%s: %s", what, msg)
	}
	h := map[string]string{}
	if p.S.Probes {
		h[ProbeHeader] = "touch-status"
	}
	r, err := p.observe(ctx, p.P, f.Ref, a.Metadata.Name, "1", h)
	if err != nil {
		return err
	}
	o, err := observed(r)
	if err != nil {
		return err
	}
	if msg := conditionProblem(o); msg != "" {
		return failf("%s: %s", r.What(), msg)
	}
	return nil
}

func checkStaleRevision(ctx context.Context, p *Probe) error {
	f, spec, a, err := p.simpleResource(ctx, "stalerev")
	if err != nil {
		return err
	}
	name := a.Metadata.Name
	digest, err := p.prepared(ctx, p.P, f.Ref, name, spec, "1")
	if err != nil {
		return err
	}
	stale := map[string]string{wire.HeaderIfMatch: `"99"`}
	apply := p.applyReq(f.Ref, name, spec, digest, "1")
	apply.Header[wire.HeaderIfMatch] = `"99"`
	r, err := p.P.Do(ctx, apply)
	if err != nil {
		return err
	}
	if err := expectCode(r, wire.CodeRevisionConflict); err != nil {
		return failf("%s (apply with a stale If-Match)", err)
	}
	r, err = p.observe(ctx, p.P, f.Ref, name, "1", stale)
	if err != nil {
		return err
	}
	if err := expectCode(r, wire.CodeRevisionConflict); err != nil {
		return failf("%s (observe with a stale If-Match)", err)
	}
	if err := p.unchanged(ctx, a); err != nil {
		return err
	}
	apply = p.applyReq(f.Ref, name, spec, digest, "1")
	apply.Header[wire.HeaderIfMatch] = `"` + a.Metadata.Revision + `"`
	r, err = p.P.Do(ctx, apply)
	if err != nil {
		return err
	}
	_, err = p.settle(ctx, p.P, r, http.StatusOK)
	return err
}
