package model

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/takokit/takokit/catalog/wire"
)

// Validate checks v (a decoded JSON value, numbers as json.Number, float64 or any Go
// integer; any other JSON-encodable value is encoded first) and returns every problem,
// sorted by instance pointer. A closed object's unexpected member and a missing
// required member each get their own pointer, as catalog's JSON Schema engine reports
// them; a value of the wrong type, or outside const or enum, reports only that.
func (s *Schema) Validate(v any) ([]SchemaProblem, error) {
	inst, err := genericJSON(v)
	if err != nil {
		return nil, err
	}
	var out []SchemaProblem
	s.root.check(inst, "", &out)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Pointer < out[j].Pointer })
	return dedupProblems(out), nil
}

func dedupProblems(ps []SchemaProblem) []SchemaProblem {
	if len(ps) < 2 {
		return ps
	}
	seen := make(map[SchemaProblem]bool, len(ps))
	out := ps[:0]
	for _, p := range ps {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}

func (n *schemaNode) check(v any, at string, out *[]SchemaProblem) {
	add := func(format string, args ...any) {
		*out = append(*out, SchemaProblem{Pointer: at, Message: fmt.Sprintf(format, args...)})
	}
	if n.never {
		add("no value is allowed here")
		return
	}
	if len(n.types) > 0 && !typeMatches(n.types, v) {
		add("got %s, want %s", jsonTypeOf(v), strings.Join(n.types, " or "))
		return
	}
	if n.hasConst && !jsonEqual(v, n.constant) {
		add("value must be %s", display(n.constant))
		return
	}
	if n.enum != nil && !slices.ContainsFunc(n.enum, func(e any) bool { return jsonEqual(v, e) }) {
		shown := make([]string, len(n.enum))
		for i, e := range n.enum {
			shown[i] = display(e)
		}
		add("value must be one of %s", strings.Join(shown, ", "))
		return
	}
	if n.ref != nil {
		n.ref.check(v, at, out)
	}
	switch x := v.(type) {
	case map[string]any:
		n.checkObject(x, at, out)
	case []any:
		n.checkArray(x, at, out)
	case string:
		n.checkString(x, at, out)
	case nil, bool:
	default:
		n.checkNumber(v, at, out)
	}
}

func (n *schemaNode) checkObject(obj map[string]any, at string, out *[]SchemaProblem) {
	add := func(ptr, format string, args ...any) {
		*out = append(*out, SchemaProblem{Pointer: ptr, Message: fmt.Sprintf(format, args...)})
	}
	if n.minProps != nil && len(obj) < *n.minProps {
		add(at, "%d members; at least %d are required", len(obj), *n.minProps)
	}
	if n.maxProps != nil && len(obj) > *n.maxProps {
		add(at, "%d members; at most %d are allowed", len(obj), *n.maxProps)
	}
	for _, r := range n.required {
		if _, ok := obj[r]; !ok {
			add(at+"/"+wire.EscapePointerToken(r), "required member %q is missing; add it", r)
		}
	}
	for name, mv := range obj {
		mp := at + "/" + wire.EscapePointerToken(name)
		if p, ok := n.properties[name]; ok {
			p.check(mv, mp, out)
			continue
		}
		if n.additional == nil {
			continue
		}
		if n.additional.never {
			add(mp, "member %q is not allowed here; the object is closed, so remove it", name)
			continue
		}
		n.additional.check(mv, mp, out)
	}
	if n.propNames != nil {
		for name := range obj {
			var inner []SchemaProblem
			n.propNames.check(name, "", &inner)
			for _, p := range inner {
				add(at, "member name %q is not allowed: %s", name, p.Message)
			}
		}
	}
}

func (n *schemaNode) checkArray(arr []any, at string, out *[]SchemaProblem) {
	add := func(format string, args ...any) {
		*out = append(*out, SchemaProblem{Pointer: at, Message: fmt.Sprintf(format, args...)})
	}
	if n.minItems != nil && len(arr) < *n.minItems {
		add("%d entries; at least %d are required", len(arr), *n.minItems)
	}
	if n.maxItems != nil && len(arr) > *n.maxItems {
		add("%d entries; at most %d are allowed", len(arr), *n.maxItems)
	}
	if n.unique {
	dup:
		for i := 1; i < len(arr); i++ {
			for j := 0; j < i; j++ {
				if jsonEqual(arr[i], arr[j]) {
					add("entries %d and %d are equal; entries must be distinct", j, i)
					break dup
				}
			}
		}
	}
	if n.items != nil {
		for i, e := range arr {
			n.items.check(e, at+"/"+strconv.Itoa(i), out)
		}
	}
}

func (n *schemaNode) checkString(s string, at string, out *[]SchemaProblem) {
	add := func(format string, args ...any) {
		*out = append(*out, SchemaProblem{Pointer: at, Message: fmt.Sprintf(format, args...)})
	}
	if n.minLen != nil || n.maxLen != nil {
		l := utf8.RuneCountInString(s)
		if n.minLen != nil && l < *n.minLen {
			add("%d characters; at least %d are required", l, *n.minLen)
		}
		if n.maxLen != nil && l > *n.maxLen {
			add("%d characters; at most %d are allowed", l, *n.maxLen)
		}
	}
	if n.pattern != nil && !n.pattern.MatchString(s) {
		add("%q does not match the pattern %s", s, PatternSaid(n.pattern.String()))
	}
}

func (n *schemaNode) checkNumber(v any, at string, out *[]SchemaProblem) {
	if n.minimum == nil && n.maximum == nil && n.exclMin == nil && n.exclMax == nil {
		return
	}
	x, ok := ratOf(v)
	if !ok {
		return
	}
	add := func(format string, args ...any) {
		*out = append(*out, SchemaProblem{Pointer: at, Message: fmt.Sprintf(format, args...)})
	}
	if n.minimum != nil && x.Cmp(n.minimum) < 0 {
		add("%s is less than the minimum %s", x.RatString(), n.minimum.RatString())
	}
	if n.maximum != nil && x.Cmp(n.maximum) > 0 {
		add("%s is more than the maximum %s", x.RatString(), n.maximum.RatString())
	}
	if n.exclMin != nil && x.Cmp(n.exclMin) <= 0 {
		add("%s is not more than %s", x.RatString(), n.exclMin.RatString())
	}
	if n.exclMax != nil && x.Cmp(n.exclMax) >= 0 {
		add("%s is not less than %s", x.RatString(), n.exclMax.RatString())
	}
}

// typeMatches applies "type": an integer is a number whose value has no fraction.
func typeMatches(types []string, v any) bool {
	t := jsonTypeOf(v)
	for _, want := range types {
		if want == t {
			return true
		}
		if want == "integer" && t == "number" {
			if r, ok := ratOf(v); ok && r.IsInt() {
				return true
			}
		}
	}
	return false
}

func jsonTypeOf(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case map[string]any:
		return "object"
	case []any:
		return "array"
	}
	return "number"
}

// jsonEqual is JSON equality: numbers by value (1 equals 1.0), objects by members,
// arrays element by element.
func jsonEqual(a, b any) bool {
	switch x := a.(type) {
	case nil:
		return b == nil
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case string:
		y, ok := b.(string)
		return ok && x == y
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !jsonEqual(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, xv := range x {
			yv, ok := y[k]
			if !ok || !jsonEqual(xv, yv) {
				return false
			}
		}
		return true
	}
	if jsonTypeOf(b) != "number" {
		return false
	}
	r1, ok1 := ratOf(a)
	r2, ok2 := ratOf(b)
	return ok1 && ok2 && r1.Cmp(r2) == 0
}

// ratOf is the exact value of a JSON number in any of its Go forms.
func ratOf(v any) (*big.Rat, bool) {
	switch n := v.(type) {
	case json.Number:
		return new(big.Rat).SetString(string(n))
	case float64:
		// the number as JSON spells it (the shortest digits that read back as n), as the
		// engine sees it after encoding: 0.1 is 1/10, not the binary fraction nearest it.
		// NaN and the infinities, which JSON cannot spell, come out as NaN, +Inf and -Inf,
		// which SetString refuses: no number, without a guard of their own
		return new(big.Rat).SetString(strconv.FormatFloat(n, 'g', -1, 64))
	case float32:
		return new(big.Rat).SetString(strconv.FormatFloat(float64(n), 'g', -1, 32))
	case int:
		return new(big.Rat).SetInt64(int64(n)), true
	case int8:
		return new(big.Rat).SetInt64(int64(n)), true
	case int16:
		return new(big.Rat).SetInt64(int64(n)), true
	case int32:
		return new(big.Rat).SetInt64(int64(n)), true
	case int64:
		return new(big.Rat).SetInt64(n), true
	case uint:
		return new(big.Rat).SetUint64(uint64(n)), true
	case uint8:
		return new(big.Rat).SetUint64(uint64(n)), true
	case uint16:
		return new(big.Rat).SetUint64(uint64(n)), true
	case uint32:
		return new(big.Rat).SetUint64(uint64(n)), true
	case uint64:
		return new(big.Rat).SetUint64(n), true
	}
	return nil, false
}

// display renders a const or enum value in messages.
func display(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// genericJSON returns v as a decoded JSON value the checks read directly: raw bytes are
// decoded, a value already made of maps, slices and scalars is used as it is, anything
// else goes through encoding/json.
func genericJSON(v any) (any, error) {
	switch x := v.(type) {
	case json.RawMessage:
		return decodeJSON(x)
	case []byte:
		return decodeJSON(x)
	}
	if isGeneric(v) {
		return v, nil
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("value is not JSON: %w", err)
	}
	return decodeJSON(raw)
}

func isGeneric(v any) bool {
	switch x := v.(type) {
	case nil, bool, json.Number, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		return true
	case string: // encoding/json spells a byte that is not UTF-8 as U+FFFD, as the engine reads it
		return utf8.ValidString(x)
	case float32:
		return !math.IsNaN(float64(x)) && !math.IsInf(float64(x), 0)
	case float64:
		return !math.IsNaN(x) && !math.IsInf(x, 0)
	case []any:
		for _, e := range x {
			if !isGeneric(e) {
				return false
			}
		}
		return true
	case map[string]any:
		for k, e := range x {
			if !utf8.ValidString(k) || !isGeneric(e) {
				return false
			}
		}
		return true
	}
	return false
}
