package takoform

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/takokit/takokit/provider/internal/lazyre"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/takokit/takokit/catalog/model"
	"github.com/takokit/takokit/catalog/wire"
)

// check is one attribute validator usable on every attribute type. fn only sees
// known, non-null values.
type check struct {
	desc string
	fn   func(p path.Path, v attr.Value, d *diag.Diagnostics)
}

func (c check) Description(context.Context) string         { return c.desc }
func (c check) MarkdownDescription(context.Context) string { return c.desc }

func (c check) run(p path.Path, v attr.Value, d *diag.Diagnostics) {
	if v == nil || v.IsNull() || v.IsUnknown() {
		return
	}
	c.fn(p, v, d)
}
func (c check) ValidateString(_ context.Context, r validator.StringRequest, w *validator.StringResponse) {
	c.run(r.Path, r.ConfigValue, &w.Diagnostics)
}
func (c check) ValidateInt64(_ context.Context, r validator.Int64Request, w *validator.Int64Response) {
	c.run(r.Path, r.ConfigValue, &w.Diagnostics)
}
func (c check) ValidateSet(_ context.Context, r validator.SetRequest, w *validator.SetResponse) {
	c.run(r.Path, r.ConfigValue, &w.Diagnostics)
}
func (c check) ValidateList(_ context.Context, r validator.ListRequest, w *validator.ListResponse) {
	c.run(r.Path, r.ConfigValue, &w.Diagnostics)
}

// stringRules checks one string value (attribute or element).
type stringRules struct {
	pattern        *lazyre.Regexp
	minLen, maxLen *int64
	enum           []string
	// about is the field's description, said after a pattern it does not match: a
	// pattern alone tells few users what to write (a cron line's, a hostname's)
	about string
}

func (s stringRules) empty() bool {
	return s.pattern == nil && s.minLen == nil && s.maxLen == nil && len(s.enum) == 0
}

func (s stringRules) check(p path.Path, v string, d *diag.Diagnostics) {
	if len(s.enum) > 0 && !contains(s.enum, v) {
		attrErr(d, p, "Value not allowed", fmt.Sprintf("%q is not one of %s.", v, strings.Join(quoteAll(s.enum), ", ")))
		return
	}
	n := int64(utf8.RuneCountInString(v))
	if s.minLen != nil && n < *s.minLen {
		attrErr(d, p, "Value too short", fmt.Sprintf("The value has %d characters; at least %d are required.", n, *s.minLen))
	}
	if s.maxLen != nil && n > *s.maxLen {
		attrErr(d, p, "Value too long", fmt.Sprintf("The value has %d characters; at most %d are allowed.", n, *s.maxLen))
	}
	if s.pattern != nil && !s.pattern.MatchString(v) {
		var detail string
		if s.about != "" {
			detail = fmt.Sprintf("%q must match %s. %s", v, s.pattern, s.about)
		} else { // no description says what to write: the pattern in words does
			detail = fmt.Sprintf("%q must match %s.", v, model.PatternSaid(s.pattern.String()))
		}
		attrErr(d, p, "Value does not match the required pattern", detail)
	}
}

func stringCheck(s stringRules) check {
	return check{desc: "string constraints from the Form's desired schema", fn: func(p path.Path, v attr.Value, d *diag.Diagnostics) {
		s.check(p, v.(types.String).ValueString(), d)
	}}
}

func rangeCheck(min, max *int64) check {
	return check{desc: "integer range from the Form's desired schema", fn: func(p path.Path, v attr.Value, d *diag.Diagnostics) {
		n := v.(types.Int64).ValueInt64()
		if (min != nil && n < *min) || (max != nil && n > *max) {
			attrErr(d, p, "Value out of range", fmt.Sprintf("%d is outside the allowed range %s.", n, rangeText(min, max)))
		}
	}}
}

func rangeText(min, max *int64) string {
	switch {
	case min != nil && max != nil:
		return fmt.Sprintf("%d to %d", *min, *max)
	case min != nil:
		return fmt.Sprintf("%d or more", *min)
	case max != nil:
		return fmt.Sprintf("%d or less", *max)
	}
	return "(unbounded)"
}

// collectionCheck checks item counts, distinctness and string elements of a set or list.
func collectionCheck(minItems, maxItems *int64, distinct bool, elem stringRules) check {
	return check{desc: "collection constraints from the Form's desired schema", fn: func(p path.Path, v attr.Value, d *diag.Diagnostics) {
		var elems []attr.Value
		isSet := false
		switch c := v.(type) {
		case types.Set:
			elems, isSet = c.Elements(), true
		case types.List:
			elems = c.Elements()
		}
		n := int64(len(elems))
		if minItems != nil && n < *minItems {
			attrErr(d, p, "Too few entries", fmt.Sprintf("%d entries given; at least %d are required.", n, *minItems))
		}
		if maxItems != nil && n > *maxItems {
			attrErr(d, p, "Too many entries", fmt.Sprintf("%d entries given; at most %d are allowed.", n, *maxItems))
		}
		seen := map[string]int{}
		for i, e := range elems {
			if e.IsNull() || e.IsUnknown() {
				continue
			}
			ep := p.AtListIndex(i)
			if isSet {
				ep = p.AtSetValue(e)
			}
			if s, ok := e.(types.String); ok && !elem.empty() {
				elem.check(ep, s.ValueString(), d)
			}
			if distinct && !isSet {
				k := e.String()
				if j, dup := seen[k]; dup {
					attrErr(d, ep, "Duplicate entry", fmt.Sprintf("Entry %d repeats entry %d; entries must be distinct.", i, j))
				}
				seen[k] = i
			}
		}
	}}
}

// jsonObjectCheck: exactly one JSON object (not null, not an array), at most maxProps members.
func jsonObjectCheck(maxProps *int64) check {
	return check{desc: "one JSON object", fn: func(p path.Path, v attr.Value, d *diag.Diagnostics) {
		raw := v.(types.String).ValueString()
		if err := wire.CheckIJSON([]byte(raw)); err != nil {
			attrErr(d, p, "Invalid JSON", "The value must be one JSON object: "+err.Error())
			return
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal([]byte(raw), &m); err != nil || m == nil {
			attrErr(d, p, "Not a JSON object", "The value must be one JSON object such as {\"KEY\": \"value\"}; null and arrays are not allowed.")
			return
		}
		if maxProps != nil && int64(len(m)) > *maxProps {
			attrErr(d, p, "Too many members", fmt.Sprintf("The object has %d members; at most %d are allowed.", len(m), *maxProps))
		}
	}}
}

var durationValidator = check{desc: "a Go duration such as 20m, greater than zero", fn: func(p path.Path, v attr.Value, d *diag.Diagnostics) {
	s := v.(types.String).ValueString()
	if dur, err := time.ParseDuration(s); err != nil || dur <= 0 {
		attrErr(d, p, "Invalid timeout", fmt.Sprintf("%q is not a positive Go duration such as \"30s\", \"20m\" or \"1h\".", s))
	}
}}

var spaceValidator = check{desc: "a SpaceID", fn: func(p path.Path, v attr.Value, d *diag.Diagnostics) {
	if err := wire.ValidateSpaceID(v.(types.String).ValueString()); err != nil {
		attrErr(d, p, "Invalid space", err.Error())
	}
}}

func oneOf(what string, allowed []string) check {
	return check{desc: what, fn: func(p path.Path, v attr.Value, d *diag.Diagnostics) {
		s := v.(types.String).ValueString()
		if !contains(allowed, s) {
			attrErr(d, p, "Value not allowed", fmt.Sprintf("%q is not %s; allowed: %s.", s, what, strings.Join(quoteAll(allowed), ", ")))
		}
	}}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func quoteAll(v []string) []string {
	out := make([]string, len(v))
	for i, s := range v {
		out[i] = fmt.Sprintf("%q", s)
	}
	return out
}

// markerCheck accepts only a transition marker the catalog declares for the kind.
func markerCheck(kind string, markers []string) check {
	return check{desc: "a Form transition marker declared for " + kind, fn: func(p path.Path, v attr.Value, d *diag.Diagnostics) {
		got := v.(types.String).ValueString()
		if contains(markers, got) {
			return
		}
		what := fmt.Sprintf("%q is not a Form transition the catalog declares for %s.", got, kind)
		if len(markers) > 0 {
			what += " Declared: " + strings.Join(quoteAll(markers), ", ") + "."
		} else {
			what += " None is declared for this kind."
		}
		(&report{summary: "Invalid form_transition", what: what, code: codeFormTransitionInvalid, attr: &p,
			repair: "Use a declared marker, or remove form_transition."}).add(d)
	}}
}
