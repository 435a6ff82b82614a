package profile

import (
	"encoding/json"
	"fmt"
	"math/big"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/takokit/takokit/catalog"
)

// Violation is a request outside what the profile offers (unsupported_capability).
type Violation struct {
	Field   string // JSON Pointer into spec, "" when not about a field
	Message string
}

func (v *Violation) Error() string { return v.Message }

// CheckOperation refuses an operation the profile does not offer for f.
func (h *Host) CheckOperation(f *catalog.Form, op string) *Violation {
	ops := h.Operations(f)
	if slices.Contains(ops, op) {
		return nil
	}
	return &Violation{Message: fmt.Sprintf("this host (profile %q) does not offer %q for %s %s; it offers %s",
		h.P.Name, op, f.Ref.Kind, f.Ref.DefinitionVersion, strings.Join(ops, ", "))}
}

// CheckSpec enforces supportedEnums, supportedRanges and collection limits on a
// materialized spec (numbers as json.Number), exactly as the FormSupport profile
// advertises them (docs/protocol.md#support).
func (h *Host) CheckSpec(f *catalog.Form, spec map[string]any) *Violation {
	subject := fmt.Sprintf("%s %s", f.Ref.Kind, f.Ref.DefinitionVersion)
	if enums, ok := keyed(h.P.SupportedEnums, f); ok {
		for _, key := range sortedKeys(enums) {
			for _, at := range valuesAt(spec, key) {
				for _, s := range stringsOf(at.v) {
					if !slices.Contains(enums[key], s) {
						return &Violation{Field: at.ptr, Message: fmt.Sprintf("%s field %s value %q is not supported by this host (profile %q); it accepts %s",
							subject, key, s, h.P.Name, strings.Join(enums[key], ", "))}
					}
				}
			}
		}
	}
	if ranges, ok := keyed(h.P.SupportedRanges, f); ok {
		for _, key := range sortedKeys(ranges) {
			r := ranges[key]
			for _, at := range valuesAt(spec, key) {
				if v := checkRange(at.v, r); v != "" {
					return &Violation{Field: at.ptr, Message: fmt.Sprintf("%s field %s value %s is outside what this host (profile %q) supports: %s",
						subject, key, jsonText(at.v), h.P.Name, v)}
				}
			}
		}
	}
	if limits, ok := keyed(h.P.Limits, f); ok {
		for _, key := range sortedKeys(limits) {
			field, ok := limitField(f, key)
			if !ok {
				continue // a limit on something other than a collection field (e.g. bundle bytes)
			}
			for _, at := range valuesAt(spec, field) {
				n := countOf(at.v)
				if n > limits[key] {
					return &Violation{Field: at.ptr, Message: fmt.Sprintf("%s field %s has %d entries; this host (profile %q) accepts at most %d (%s)",
						subject, field, n, h.P.Name, limits[key], key)}
				}
			}
		}
	}
	return nil
}

// limitField maps "maximum" + UpperFirst(field) to the field's dotted wire path;
// a nested member joins the UpperFirst of each path element (maximumVersionsWeight).
func limitField(f *catalog.Form, key string) (string, bool) {
	rest, ok := strings.CutPrefix(key, "maximum")
	if !ok || rest == "" {
		return "", false
	}
	var walk func(fields []catalog.Field, prefix, joined string) (string, bool)
	walk = func(fields []catalog.Field, prefix, joined string) (string, bool) {
		for _, fl := range fields {
			path, name := prefix+fl.Wire, joined+upperFirst(fl.Wire)
			if name == rest {
				return path, true
			}
			if p, ok := walk(fl.Members, path+".", name); ok {
				return p, true
			}
		}
		return "", false
	}
	return walk(f.Fields, "", "")
}

func upperFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}

type located struct {
	ptr string
	v   any
}

// valuesAt finds every value at a dotted wire path, flattening arrays on the way.
func valuesAt(spec map[string]any, dotted string) []located {
	cur := []located{{"", spec}}
	for _, part := range strings.Split(dotted, ".") {
		var next []located
		for _, c := range cur {
			for _, item := range expand(c) {
				m, ok := item.v.(map[string]any)
				if !ok {
					continue
				}
				if v, ok := m[part]; ok {
					next = append(next, located{item.ptr + "/" + part, v})
				}
			}
		}
		cur = next
	}
	return cur
}

// expand yields the elements of an array inside a path, or the value itself.
func expand(l located) []located {
	a, ok := l.v.([]any)
	if !ok {
		return []located{l}
	}
	out := make([]located, len(a))
	for i, v := range a {
		out[i] = located{fmt.Sprintf("%s/%d", l.ptr, i), v}
	}
	return out
}

func stringsOf(v any) []string {
	switch t := v.(type) {
	case string:
		return []string{t}
	case []any:
		var out []string
		for _, e := range t {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

func countOf(v any) int64 {
	switch t := v.(type) {
	case []any:
		return int64(len(t))
	case map[string]any:
		return int64(len(t))
	}
	return 0
}

func checkRange(v any, r Range) string {
	for _, b := range []struct {
		raw  json.RawMessage
		name string
		sign int
	}{{r.Minimum, "minimum", -1}, {r.Maximum, "maximum", 1}} {
		bound, ok := rangeBound(b.raw)
		if !ok {
			continue
		}
		if c, ok := compare(v, bound); ok && c == b.sign {
			return fmt.Sprintf("%s is %s", b.name, jsonText(bound))
		}
	}
	return ""
}

// compare orders two numbers or two strings; ok is false for mixed types.
func compare(a, b any) (int, bool) {
	an, aok := a.(json.Number)
	bn, bok := b.(json.Number)
	if aok && bok {
		x, ok1 := new(big.Float).SetString(string(an))
		y, ok2 := new(big.Float).SetString(string(bn))
		if !ok1 || !ok2 {
			return 0, false
		}
		return x.Cmp(y), true
	}
	as, aok := a.(string)
	bs, bok := b.(string)
	if aok && bok {
		return strings.Compare(as, bs), true
	}
	return 0, false
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
