package decide

import (
	"time"
	"unicode/utf8"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/stored"
)

// PrepareBinding is the prepareDigest hostsim mints over a request
// (docs/protocol.md#prepare): the digest of the JCS form of the binding object.
func PrepareBinding(specDigest string, ref wire.FormRef, name, tenant, space, uid, generation string) string {
	// The members in canonical (sorted) order.
	vals := [...]string{ref.DefinitionVersion, generation, ref.APIVersion, ref.Kind, name, bindingPlan,
		ref.SchemaDigest, space, specDigest, tenant, uid}
	if b, ok := plainBinding(&vals); ok {
		return wire.RawDigest(b)
	}
	return bindingDigest(&vals)
}

const bindingPlan = "takokit-hostsim/v1"

// bindingKeys are the binding's member names, sorted as JCS sorts them.
var bindingKeys = [...]string{"definitionVersion", "generation", "group", "kind", "name", "plan",
	"schemaDigest", "space", "specDigest", "tenant", "uid"}

// plainBinding writes the JCS bytes of the binding directly when no value
// needs an escape (valid UTF-8 without control characters, quotes or
// backslashes: JCS writes such a string as it is); ok is false otherwise.
func plainBinding(vals *[len(bindingKeys)]string) (b []byte, ok bool) {
	n := 2
	for i, v := range vals {
		if !utf8.ValidString(v) {
			return nil, false
		}
		for j := 0; j < len(v); j++ {
			if c := v[j]; c < 0x20 || c == '"' || c == '\\' {
				return nil, false
			}
		}
		n += len(bindingKeys[i]) + len(v) + 6
	}
	b = make([]byte, 0, n)
	b = append(b, '{')
	for i, v := range vals {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '"')
		b = append(b, bindingKeys[i]...)
		b = append(b, `":"`...)
		b = append(b, v...)
		b = append(b, '"')
	}
	return append(b, '}'), true
}

// bindingDigest is the digest of the binding by the general canonical form.
func bindingDigest(vals *[len(bindingKeys)]string) string {
	m := make(map[string]string, len(bindingKeys))
	for i, k := range bindingKeys {
		m[k] = vals[i]
	}
	d, _ := wire.DigestValue(m)
	return d
}

// PrepareTenant is the tenant a prepareDigest binds.
func PrepareTenant(tenant string, a *Acts) string {
	if a.On(PrepareHostWide) {
		return ""
	}
	return tenant
}

// PrepareTarget is prepare's target resolution: a resource under the exact
// FormRef needs the current generation fence and binds its uid and
// generation; none binds the create markers "" and "0", and a fence then
// names nothing. cur is what holds the name, or nil.
func PrepareTarget(cur *stored.Resource, ref wire.FormRef, fence int64, what string, a *Acts) (uid, generation string, e *wire.Error) {
	if cur == nil || Ref(cur) != ref {
		if fence != 0 {
			return "", "", NotFound("fence %d names no %s under %s; drop the fence to prepare a create", fence, what, ref)
		}
		return "", "0", nil
	}
	if fence == 0 {
		if !a.On(PrepareNoFence) {
			return "", "", Invalid("%s exists at generation %d; prepare of an existing resource requires Takoform-Expected-Generation", what, cur.Generation)
		}
	} else if fence != cur.Generation {
		if !a.On(FenceIgnore) {
			return "", "", Refuse(wire.CodeGenerationConflict, "fence %d is stale: %s is at generation %d; read it again and re-plan", fence, what, cur.Generation)
		}
	}
	return cur.UID, wire.FormatDecimal(cur.Generation), nil
}

// Minted is what the store knows of a prepareDigest for a tenant.
type Minted struct {
	Found bool
	At    int64 // Unix seconds of the last minting
}

// CheckPrepareSpend is step 14 (apply only): review.prepareDigest binds this
// request as resolved (cur: the target, nil on a create), was minted by this
// host for the caller's tenant, and is younger than life.
func CheckPrepareSpend(m *Mutation, cur *stored.Resource, g *Gated, tenant string, minted Minted, now time.Time, life time.Duration, a *Acts) *wire.Error {
	uid, gen := "", "0"
	if cur != nil && !m.IfNoneMatch {
		uid, gen = cur.UID, wire.FormatDecimal(cur.Generation)
	}
	want := PrepareBinding(g.Digest, m.Ref, m.Name, tenant, m.Space, uid, gen)
	if m.PrepareDigest != want {
		if !a.On(PrepareUnbound) {
			return Invalid("review.prepareDigest does not bind this request (spec, FormRef, name, space, uid %q and generation %s); prepare it again", uid, gen)
		}
	}
	if !minted.Found {
		return Invalid("review.prepareDigest was not minted by this host for your tenant; prepare the request first")
	}
	if now.Sub(time.Unix(minted.At, 0)) > life {
		return Invalid("review.prepareDigest was last minted more than %s ago; prepare the request again", life)
	}
	return nil
}
