package rules

import (
	"github.com/takokit/takokit/catalog"
)

// The string grammars that carry host semantics beyond their pattern. A field is
// recognized by its schema pattern being exactly one of these (the catalog definitions), so no
// Go code names the kind or field that carries it.
const (
	// HostnamePattern marks a custom-domain hostname field (docs/protocol.md#aggregate).
	HostnamePattern = `^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+\.?$`
	// CronPattern marks a cron schedule field (docs/protocol.md#aggregate).
	CronPattern = `^(?:\*(?:/[0-9]{1,2})?|[0-9]{1,2}(?:-[0-9]{1,2}(?:/[0-9]{1,2})?)?)(?:,(?:\*(?:/[0-9]{1,2})?|[0-9]{1,2}(?:-[0-9]{1,2}(?:/[0-9]{1,2})?)?))*(?: (?:\*(?:/[0-9]{1,2})?|[0-9]{1,2}(?:-[0-9]{1,2}(?:/[0-9]{1,2})?)?)(?:,(?:\*(?:/[0-9]{1,2})?|[0-9]{1,2}(?:-[0-9]{1,2}(?:/[0-9]{1,2})?)?))*){4}$`
)

// Semantic names what a top-level string field means to the host.
type Semantic string

const (
	SemanticNone     Semantic = ""
	SemanticHostname Semantic = "hostname"
	SemanticCron     Semantic = "cron"
)

// FieldSemantic classifies a field by its pattern.
func FieldSemantic(f *catalog.Field) Semantic {
	if f.Kind != catalog.FieldString {
		return SemanticNone
	}
	switch f.Pattern {
	case HostnamePattern:
		return SemanticHostname
	case CronPattern:
		return SemanticCron
	}
	return SemanticNone
}

// CanonicalizeSpec applies the materialization of docs/protocol.md#aggregate to spec in place:
// every hostname field's value is replaced by CanonicalHostname. Call it together with
// Form.Materialize, before the spec gate and the specDigest, so `API.Example.com`,
// `api.example.com.` and `api.example.com` are one desired state.
func CanonicalizeSpec(form *catalog.Form, spec map[string]any) {
	for i := range form.Fields {
		f := &form.Fields[i]
		if FieldSemantic(f) != SemanticHostname {
			continue
		}
		if s, ok := spec[f.Wire].(string); ok {
			spec[f.Wire] = CanonicalHostname(s)
		}
	}
}

// Claim is a tenant-wide unique value a resource holds (a canonical custom-domain
// hostname): one live resource per (tenant, Key) across every space and kind.
type Claim struct {
	Pointer string // "/hostname"
	Key     string // canonical value
}

// CheckSemanticFields parses every cron field (docs/protocol.md#aggregate) and checks every hostname field
// (docs/protocol.md#aggregate) of a materialized spec, returning the first refusal and, when none, the
// hostname claims the resource would hold. Run on validate, prepare, apply, import and
// every 202 commit.
func CheckSemanticFields(form *catalog.Form, spec map[string]any) ([]Claim, *Refusal) {
	return CheckSemanticFieldsLax(form, spec, nil)
}

// CheckSemanticFieldsLax is CheckSemanticFields where patternOnly, asked when a cron
// field fails its parse, may let it pass on its schema pattern alone (the fault
// cron.pattern-only); nil never does.
func CheckSemanticFieldsLax(form *catalog.Form, spec map[string]any, patternOnly func() bool) ([]Claim, *Refusal) {
	var claims []Claim
	for i := range form.Fields {
		f := &form.Fields[i]
		s, ok := spec[f.Wire].(string)
		if !ok {
			continue
		}
		switch FieldSemantic(f) {
		case SemanticCron:
			if r := CheckCron(f.Pointer, s); r != nil {
				if patternOnly == nil || !patternOnly() {
					return nil, r
				}
			}
		case SemanticHostname:
			key, r := HostnameClaimKey(f.Pointer, s)
			if r != nil {
				return nil, r
			}
			claims = append(claims, Claim{Pointer: f.Pointer, Key: key})
		}
	}
	return claims, nil
}
