package conformance

import (
	"encoding/json"
	"strings"

	"github.com/takokit/takokit/catalog"
)

// variant returns a copy of spec with one top-level field changed to another value
// that still passes the desired schema, choosing among fields accepted by pick.
// ok is false when no such change exists. Reference fields are re-pointed at a
// fresh name (which exists nowhere); the caller decides whether that matters.
func variant(f *catalog.Form, spec map[string]any, fresh string, pick func(catalog.Field) bool) (out map[string]any, field string, ok bool) {
	for _, fl := range f.Fields {
		if !pick(fl) {
			continue
		}
		for _, cand := range candidates(fl, spec[fl.Wire], fresh) {
			c := cloneSpec(spec)
			c[fl.Wire] = cand
			if f.ValidateDesired(c) == nil {
				return c, fl.Wire, true
			}
		}
	}
	return nil, "", false
}

func cloneSpec(spec map[string]any) map[string]any {
	var c map[string]any
	_ = json.Unmarshal(mustJSON(spec), &c)
	return c
}

// candidates lists values to try for a field, different from cur.
func candidates(fl catalog.Field, cur any, fresh string) []any {
	var out []any
	switch fl.Kind {
	case catalog.FieldInteger:
		n, _ := cur.(float64)
		for _, b := range []*int64{fl.Min, fl.Max} {
			if b != nil && float64(*b) != n {
				out = append(out, float64(*b))
			}
		}
		out = append(out, n+1, n-1)
	case catalog.FieldStringEnum:
		for _, e := range fl.Enum {
			if e != cur {
				out = append(out, e)
			}
		}
	case catalog.FieldBoolean:
		b, _ := cur.(bool)
		out = append(out, !b)
	case catalog.FieldString:
		s, _ := cur.(string)
		if strings.HasPrefix(s, "sha256:") {
			out = append(out, flipDigest(s))
		}
		out = append(out, "x"+s, fresh+"."+s, s+"x")
		for i := 0; i < len(s); i++ {
			if s[i] >= '0' && s[i] <= '9' {
				out = append(out, s[:i]+string('0'+(s[i]-'0'+1)%10)+s[i+1:])
			}
		}
	case catalog.FieldReference:
		if m, ok := cur.(map[string]any); ok {
			c := map[string]any{}
			for k, v := range m {
				c[k] = v
			}
			c["name"] = fresh
			out = append(out, c)
		}
	case catalog.FieldStringSet, catalog.FieldStringList:
		cs, _ := cur.([]any)
		for _, e := range fl.Enum {
			has := false
			for _, x := range cs {
				if x == e {
					has = true
				}
			}
			if !has {
				out = append(out, append(append([]any{}, cs...), e))
			}
		}
		if len(cs) > 1 {
			out = append(out, cs[:1])
		}
	}
	return out
}

// mutable reports a field an update may change.
func mutable(f *catalog.Form) func(catalog.Field) bool {
	return func(fl catalog.Field) bool { return !f.Immutable["/"+fl.Wire] && fl.Kind != catalog.FieldReference }
}

// immutableField reports a field the Definition declares immutable.
func immutableField(f *catalog.Form) func(catalog.Field) bool {
	return func(fl catalog.Field) bool { return f.Immutable["/"+fl.Wire] }
}

// anyField accepts every field.
func anyField(catalog.Field) bool { return true }
