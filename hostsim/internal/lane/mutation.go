package lane

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// mutation is an apply or import after every stateless check passed. It is
// stored with an accepted 202 Operation and decided again at commit.
type mutation struct {
	Action        string         `json:"action"` // apply | import
	Tenant        string         `json:"tenant"`
	Principal     string         `json:"principal"`
	Ref           wire.FormRef   `json:"ref"`
	Space         string         `json:"space"`
	Name          string         `json:"name"`
	Spec          map[string]any `json:"spec"`
	IfNoneMatch   bool           `json:"ifNoneMatch"`
	Fence         int64          `json:"fence"`
	IfMatch       int64          `json:"ifMatch"`
	ExpectedUID   *string        `json:"expectedUid"`
	PrepareDigest string         `json:"prepareDigest"`
	NativeID      string         `json:"nativeId"`
	// TargetUID is the incarnation recorded when a 202 was accepted.
	TargetUID string `json:"targetUid"`
}

// outcome is what deciding a mutation produced.
type outcome struct {
	next    *store.Resource
	created bool
	changed bool // stored state moved (counts as a mutation)
	pins    []store.Pin
	// keepPins leaves the stored pins in place (fault relations.no-repin).
	keepPins bool
}

// decide runs §5.4 steps 12–15 against the store as it is now and computes the
// next state. atCommit skips the prepareDigest step (§10.3: a 202 commit relies
// on the identity and fence re-check).
func (c *call) decide(q store.Q, m *mutation, atCommit bool) (*outcome, *apiError) {
	f, ok := c.s.Host.Form(m.Ref)
	if !ok {
		return nil, fail(wire.CodeFormUnknown, "Form %s is no longer installed on this host", m.Ref)
	}
	g, err := gateOrRefuse(f, m.Spec)
	if err != nil && m.Action == "import" && c.faultOn("import.unchecked") {
		g, err = ungated(f, m.Spec)
	}
	if err != nil {
		return nil, err
	}
	cur, serr := store.GetResource(q, m.Tenant, m.Space, m.Ref.APIVersion, m.Ref.Kind, m.Name)
	if serr != nil {
		return nil, internal(serr)
	}
	what := fmt.Sprintf("%s %q in space %q", m.Ref.Kind, m.Name, m.Space)
	if !m.IfNoneMatch { // a Form transition claim fences lifecycle mutations (transitions.md §5)
		if e := c.claimRefusal(q, cur); e != nil {
			return nil, e
		}
	}
	if atCommit && m.TargetUID != "" && !c.faultOn("commit.skip-identity") {
		switch {
		case cur == nil:
			return nil, notFound("%s no longer exists; the accepted operation bound uid %s", what, m.TargetUID)
		case cur.UID != m.TargetUID || ref(cur) != m.Ref:
			return nil, fail(wire.CodeUIDMismatch, "%s is now uid %s under %s; the accepted operation bound uid %s under %s",
				what, cur.UID, ref(cur), m.TargetUID, m.Ref)
		}
	}
	// Step 12: target and fences.
	if m.IfNoneMatch {
		if m.ExpectedUID != nil && !c.faultOn("uid.ignore-expected") {
			return nil, fail(wire.CodeUIDMismatch, "expectedUid %q was sent with a create (If-None-Match: *); a create has no uid yet, so drop expectedUid", *m.ExpectedUID)
		}
		if cur != nil && !c.faultOn("create.overwrite") {
			return nil, fail(wire.CodeGenerationConflict, "%s already exists (uid %s, %s %s, generation %d); import or update it instead of creating",
				what, cur.UID, cur.Kind, cur.DefVersion, cur.Generation)
		}
	} else {
		if cur == nil || ref(cur) != m.Ref {
			return nil, notFound("%s does not exist under %s; nothing to fence (create it with If-None-Match: *)", what, m.Ref)
		}
		if m.ExpectedUID != nil && *m.ExpectedUID != cur.UID && !c.faultOn("uid.ignore-expected") {
			return nil, fail(wire.CodeUIDMismatch, "expectedUid %s does not match %s, which is uid %s (it was replaced); read it again",
				*m.ExpectedUID, what, cur.UID)
		}
		if m.Fence != cur.Generation && !c.skipFences(atCommit, "fence.ignore") {
			return nil, fail(wire.CodeGenerationConflict, "fence %d is stale: %s is at generation %d; read it again and re-plan",
				m.Fence, what, cur.Generation)
		}
		if m.IfMatch != 0 && m.IfMatch != cur.Revision && !c.skipFences(atCommit, "ifmatch.ignore") {
			return nil, fail(wire.CodeRevisionConflict, "If-Match \"%d\" is stale: %s is at revision %d; read it again", m.IfMatch, what, cur.Revision)
		}
	}
	// Step 13: capability rules on an existing resource.
	// The profile operation this request exercises: create, import, or update
	// for an apply that changes the spec (a spec-identical re-apply is none).
	op := ""
	switch {
	case m.Action == "import":
		op = "import"
	case cur == nil:
		op = "create"
	}
	specChanged := cur != nil && cur.SpecDigest != g.digest
	if cur != nil {
		if e := c.capability(f, m, cur, g, what); e != nil {
			return nil, e
		}
		if specChanged && m.Action == "apply" {
			op = "update"
		}
	}
	// Step 14: the prepareDigest binding.
	if m.Action == "apply" && !atCommit {
		if e := c.spendPrepare(q, m, cur, g); e != nil {
			return nil, e
		}
	}
	// Step 15: what this host offers, relations, claims.
	if v := c.s.Host.CheckOperation(f, op); op != "" && v != nil && !c.faultOn("support.unenforced") {
		return nil, fail(wire.CodeUnsupportedCapability, "%s: %s", what, v.Message)
	}
	if v := c.s.Host.CheckSpec(f, g.spec); v != nil && !c.faultOn("support.unenforced") {
		return nil, fail(wire.CodeUnsupportedCapability, "%s: %s", what, v.Message).at(v.Field)
	}
	pins, e := c.resolveRelations(q, f, m, g)
	if e != nil {
		return nil, e
	}
	curUID := ""
	if cur != nil {
		curUID = cur.UID
	}
	if e := c.semantic(q, f, m, g, pins, curUID); e != nil {
		return nil, e
	}
	if m.Action == "import" {
		if c.faultOn("import.no-claim") {
			m.NativeID = "" // nothing is claimed, nothing is checked
		} else if e := nativeClaim(q, m, cur, what); e != nil {
			return nil, e
		}
	}
	return c.nextState(f, m, cur, g, pins, specChanged)
}

// capability applies host-api.md §9.3.
// capability.ignore and immutable.ignore switch its refusals off.
func (c *call) capability(f *catalog.Form, m *mutation, cur *store.Resource, g *gated, what string) *apiError {
	identical := cur.SpecDigest == g.digest
	if f.Role == "revision" && !c.faultOn("capability.ignore") {
		if m.Action == "import" && identical {
			return nil
		}
		return invalid("%s has role revision and is never updated; create a new %s instead", what, f.Ref.Kind)
	}
	if identical {
		return nil
	}
	if !f.HasCapability("update") {
		if c.faultOn("capability.ignore") {
			return nil // the whole change is accepted, immutable fields included
		}
		return invalid("%s cannot be updated (%s %s has no update capability); plan a replacement", what, f.Ref.Kind, f.Ref.DefinitionVersion)
	}
	var old map[string]any
	_ = json.Unmarshal(cur.Spec, &old)
	for ptr := range f.Immutable {
		key := ptr[1:]
		a, aok := old[key]
		b, bok := g.spec[key]
		if (aok != bok || aok && !sameCanonical(a, b)) && !c.faultOn("immutable.ignore") {
			return invalid("%s: field %s is immutable and cannot change; plan a replacement", what, ptr).at(ptr)
		}
	}
	return nil
}

func sameCanonical(a, b any) bool {
	x, err1 := wire.CanonicalValue(a)
	y, err2 := wire.CanonicalValue(b)
	return err1 == nil && err2 == nil && string(x) == string(y)
}

// spendPrepare checks review.prepareDigest (host-api.md §10.3).
func (c *call) spendPrepare(q store.Q, m *mutation, cur *store.Resource, g *gated) *apiError {
	uid, gen := "", "0"
	if cur != nil && !m.IfNoneMatch {
		uid, gen = cur.UID, itoa(cur.Generation)
	}
	tenant := c.prepareTenant(m.Tenant)
	want := prepareBinding(g.digest, m.Ref, m.Name, tenant, m.Space, uid, gen)
	if m.PrepareDigest != want && !c.faultOn("prepare.unbound") {
		return invalid("review.prepareDigest does not bind this request (spec, FormRef, name, space, uid %q and generation %s); prepare it again", uid, gen)
	}
	at, ok, err := store.PrepareMintedAt(q, m.PrepareDigest, tenant)
	if err != nil {
		return internal(err)
	}
	if !ok {
		return invalid("review.prepareDigest was not minted by this host for your tenant; prepare the request first")
	}
	if c.s.Now().Sub(time.Unix(at, 0)) > c.s.PrepareLife {
		return invalid("review.prepareDigest was last minted more than %s ago; prepare the request again", c.s.PrepareLife)
	}
	return nil
}

// nativeClaim enforces host-api.md §16 nativeId claims.
func nativeClaim(q store.Q, m *mutation, cur *store.Resource, what string) *apiError {
	if cur != nil && cur.NativeID != "" && cur.NativeID != m.NativeID {
		return fail(wire.CodeImportConflict, "%s already claims another native object; a claim never changes (delete and re-import to adopt another)", what)
	}
	holder, err := store.NativeHolder(q, m.Tenant, m.NativeID)
	if err != nil {
		return internal(err)
	}
	if holder != "" && (cur == nil || holder != cur.UID) {
		return fail(wire.CodeImportConflict, "the native object is already claimed by another resource of your tenant (uid %s); delete that resource first", holder)
	}
	return nil
}
