package decide

import (
	"encoding/json"
	"sort"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/stored"
)

// CheckCapability is step 13 of the order of checks, on an existing resource
// (docs/protocol.md#capabilities): a revision-role resource is never changed
// (a spec-identical import re-adopts it); a Form without update takes only a
// spec-identical apply; with update, no immutable field may change.
func CheckCapability(f *catalog.Form, action string, cur *stored.Resource, g *Gated, what string, a *Acts) *wire.Error {
	identical := cur.SpecDigest == g.Digest
	if f.Role == "revision" {
		if action == "import" && identical {
			return nil
		}
		if a.On(CapabilityIgnore) {
			return nil // the whole change is accepted, immutable fields included
		}
		return Invalid("%s has role revision and is never updated; create a new %s instead", what, f.Ref.Kind)
	}
	if identical {
		return nil
	}
	if !f.HasCapability("update") {
		if a.On(CapabilityIgnore) {
			return nil
		}
		return Invalid("%s cannot be updated (%s %s has no update capability); plan a replacement", what, f.Ref.Kind, f.Ref.DefinitionVersion)
	}
	var old map[string]any
	_ = json.Unmarshal(cur.Spec, &old)
	ptrs := make([]string, 0, len(f.Immutable))
	for ptr := range f.Immutable {
		ptrs = append(ptrs, ptr)
	}
	sort.Strings(ptrs)
	for _, ptr := range ptrs {
		key := ptr[1:]
		was, wasOK := old[key]
		is, isOK := g.Spec[key]
		if wasOK == isOK && (!wasOK || sameCanonical(was, is)) {
			continue
		}
		if !a.On(ImmutableIgnore) {
			return AtField(Invalid("%s: field %s is immutable and cannot change; plan a replacement", what, ptr), ptr)
		}
	}
	return nil
}

func sameCanonical(a, b any) bool {
	x, err1 := wire.CanonicalValue(a)
	y, err2 := wire.CanonicalValue(b)
	return err1 == nil && err2 == nil && string(x) == string(y)
}

// ProfileOperation is the profile operation an apply or import exercises:
// import, create, update for an apply that changes the spec, or "" for a
// spec-identical re-apply (docs/protocol.md#support).
func ProfileOperation(action string, exists, specChanged bool) string {
	switch {
	case action == "import":
		return "import"
	case !exists:
		return "create"
	case specChanged:
		return "update"
	}
	return ""
}
