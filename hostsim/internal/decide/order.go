package decide

import (
	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/stored"
)

// The order of checks (docs/protocol.md#order) of each route that meets
// stored state, as far as it is decided on the resource that holds the name.
// The caller loads what the store holds, asks the decision, and goes on
// with the checks that read other resources (package related) only when it
// passed. The first refusal decides the answer.

// CheckMutation decides an apply or import of form f against cur, the
// resource holding the name under its kind (nil: none): a Form transition's
// claim, the identity an accepted operation bound (atCommit), the target and
// fences (step 12) and the capabilities of an existing resource (13). g is
// the gated spec; route names the request in a claim refusal, what names the
// resource in every refusal (m.What()). Step 14, the
// prepareDigest of an apply answered now, follows once the caller loaded
// its minting (PrepareTenant, CheckPrepareSpend).
func CheckMutation(m *Mutation, f *catalog.Form, g *Gated, cur *stored.Resource, atCommit bool, route, what string, a *Acts) *wire.Error {
	if !m.IfNoneMatch {
		if e := CheckClaim(cur, route, a); e != nil {
			return e
		}
	}
	if atCommit {
		if e := CheckCommitIdentity(cur, m.TargetUID, m.Ref, what, a); e != nil {
			return e
		}
	}
	if m.IfNoneMatch {
		if e := CheckCreate(cur, m.ExpectedUID, what, a); e != nil {
			return e
		}
	} else {
		in := Intent{Fence: m.Fence, IfMatch: m.IfMatch}
		if e := CheckChange(cur, m.Ref, in, m.ExpectedUID, atCommit, what, a); e != nil {
			return e
		}
	}
	if cur != nil {
		return CheckCapability(f, m.Action, cur, g, what, a)
	}
	return nil
}

// CheckDeletion decides a delete against cur, the resource holding the name
// under its kind (nil: none): recorded under exactly the FormRef, no Form
// transition's claim, at commit the uid the 202 bound, then the fences. what
// names the resource (d.What()).
func CheckDeletion(d *Deletion, cur *stored.Resource, atCommit bool, route, what string, a *Acts) *wire.Error {
	if e := CheckRecorded(cur, d.Ref, what, a); e != nil {
		return e
	}
	if e := CheckClaim(cur, route, a); e != nil {
		return e
	}
	if atCommit {
		if e := CheckDeleteIdentity(cur, d.TargetUID, what, a); e != nil {
			return e
		}
	}
	return CheckDeleteFences(cur, d, atCommit, what, a)
}

// CheckObserve decides a fenced re-read of cur (recorded under the FormRef
// asked): no Form transition's claim, then the generation fence and If-Match.
// what names the resource.
func CheckObserve(cur *stored.Resource, pre Preconditions, what string, a *Acts) *wire.Error {
	if e := CheckClaim(cur, "observe", a); e != nil {
		return e
	}
	if e := CheckGeneration(cur, pre.Fence, false, what, "; read it again", a); e != nil {
		return e
	}
	return CheckRevision(cur, pre.IfMatch, false, what, "; read it again", a)
}
