package takoform

import (
	"encoding/json"
	"fmt"
	"math/big"
	"strings"
	"unicode/utf8"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/takokit/takokit/catalog/model"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/provider/internal/client"
)

// outputNull is the null value of an output attribute.
func outputNull(o model.Output) attr.Value {
	switch o.Type {
	case "integer":
		return types.Int64Null()
	case "boolean":
		return types.BoolNull()
	}
	return types.StringNull()
}

// setOutputsUnfinished writes the accepted-unfinished outputs: every output null and
// outputs_json "{}" (decision 0025 rule 6).
func (m *kindModel) setOutputsUnfinished(v values) {
	for _, o := range m.outputs {
		v[o.Attr] = outputNull(o)
	}
	v[aOutputsJSON] = types.StringValue("{}")
}

// setOutputs writes every output from a representation under the recorded ref
// (decision 0025 rules 6–8). A declared output that is missing, null, mistyped or
// out of its declared constraints is an error diagnostic and is written as null.
func (m *kindModel) setOutputs(v values, form *model.Form, st *client.Status, space, name string, d *diag.Diagnostics) {
	var doc map[string]json.RawMessage
	outJSON := "{}"
	if st != nil && st.Outputs != nil {
		canon, err := wire.Canonicalize(st.Outputs)
		if err == nil {
			outJSON = string(canon)
		}
		// a value that is no JSON object (null included) leaves doc nil: the
		// decoder refuses it before it makes the map
		_ = json.Unmarshal(st.Outputs, &doc)
	}
	v[aOutputsJSON] = types.StringValue(outJSON)
	if st == nil && len(form.Outputs) == 0 {
		(&report{summary: fmt.Sprintf("Host response for %s %s is not usable", form.Ref.Kind, name),
			what:     "The representation has no status, so neither its conditions nor its observed generation can be read. This is a fault of the host's answer, not of the configuration.",
			typeName: m.typeName, space: space, name: name, ref: &form.Ref, pointer: "/status", code: codeHostResponseInvalid,
			repair: protocolInvalidRepair}).add(d)
	}
	for _, o := range m.outputs {
		v[o.Attr] = outputNull(o)
		decl, ok := form.Output(o.Wire)
		if !ok {
			continue // the recorded ref does not declare it (rule 7)
		}
		var problem string
		switch {
		case st == nil:
			problem = "cannot be read because the representation has no status"
		case st.Outputs == nil:
			problem = "is missing: the representation has no status.outputs"
		case doc == nil:
			problem = "cannot be read because status.outputs is not a JSON object"
		default:
			raw, present := doc[o.Wire]
			if !present {
				problem = "is missing from status.outputs"
				break
			}
			val, p := decodeOutput(decl, raw)
			if p != "" {
				problem = p
				break
			}
			v[o.Attr] = val
		}
		if problem != "" {
			p := path.Root(o.Attr)
			(&report{summary: fmt.Sprintf("%s %s: host returned an unusable output %q", form.Ref.Kind, name, o.Wire),
				what: fmt.Sprintf("Output %q %s. The attribute is written null and the write fails, so the null does not read as \"not assigned yet\". "+
					"This is a fault of the host's answer, not of the configuration.", o.Wire, problem),
				typeName: m.typeName, space: space, name: name, ref: &form.Ref, pointer: "/status/outputs/" + o.Wire,
				code: codeOutputContractViolated, attr: &p,
				repair: "Report the answer to the host operator; refresh or apply again once the host returns the declared output."}).add(d)
		}
	}
}

// decodeOutput checks one declared output member; problem is "" when usable.
func decodeOutput(o *model.Output, raw json.RawMessage) (attr.Value, string) {
	v, err := decodeJSON(raw)
	if err != nil {
		return nil, "is not valid JSON"
	}
	if v == nil {
		return nil, "is null"
	}
	switch o.Type {
	case "integer":
		n, ok := v.(json.Number)
		if !ok {
			return nil, fmt.Sprintf("was declared integer and the host sent %s", jsonKind(v, raw))
		}
		i, whole := wholeNumber(n)
		if !whole {
			return nil, fmt.Sprintf("was declared integer and the host sent the number %s, which is not a whole number a 64-bit integer holds", n)
		}
		if (o.Min != nil && i < *o.Min) || (o.Max != nil && i > *o.Max) {
			return nil, fmt.Sprintf("is %d, outside the declared range %s", i, rangeText(o.Min, o.Max))
		}
		if len(o.Enum) > 0 && !contains(o.Enum, n.String()) {
			return nil, fmt.Sprintf("is %d, not one of the declared values %s", i, strings.Join(o.Enum, ", "))
		}
		return types.Int64Value(i), ""
	case "boolean":
		b, ok := v.(bool)
		if !ok {
			return nil, fmt.Sprintf("was declared boolean and the host sent %s", jsonKind(v, raw))
		}
		if len(o.Enum) > 0 && !contains(o.Enum, fmt.Sprint(b)) {
			return nil, fmt.Sprintf("is %t, not one of the declared values", b)
		}
		return types.BoolValue(b), ""
	}
	s, ok := v.(string)
	if !ok {
		return nil, fmt.Sprintf("was declared string and the host sent %s", jsonKind(v, raw))
	}
	// lengths count characters (code points), as JSON Schema does, never bytes or UTF-16
	// units (docs/provider-design.md#outputs); decoding made s valid UTF-8
	n := int64(utf8.RuneCountInString(s))
	switch {
	case o.MinLength != nil && n < *o.MinLength:
		return nil, fmt.Sprintf("has %d characters, fewer than the declared minimum %d", n, *o.MinLength)
	case o.MaxLength != nil && n > *o.MaxLength:
		return nil, fmt.Sprintf("has %d characters, more than the declared maximum %d", n, *o.MaxLength)
	case len(o.Enum) > 0 && !contains(o.Enum, s):
		return nil, fmt.Sprintf("is %q, not one of the declared values", s)
	}
	// a pattern that does not compile (the catalog refuses one at load) refuses every value
	if re := o.Regexp(); o.Pattern != "" && (re == nil || !re.MatchString(s)) {
		return nil, fmt.Sprintf("is %q, which does not match the declared pattern %s", s, o.Pattern)
	}
	return types.StringValue(s), ""
}

// wholeNumber is the value of a JSON number that is a whole number within int64, however
// it is written: "integer" in an outputSchema is a value, so 443, 443.0 and 4.43e2 are
// all the integer 443 (JSON Schema, and the host validates its answer against that
// schema), while 443.5 and 1e19 are not integers a Computed Int64 can hold. big.Rat reads
// the literal exactly; it refuses an exponent beyond a million, so a hostile spelling
// costs bounded work.
func wholeNumber(n json.Number) (int64, bool) {
	r, ok := new(big.Rat).SetString(n.String())
	if !ok || !r.IsInt() || !r.Num().IsInt64() {
		return 0, false
	}
	return r.Num().Int64(), true
}

func jsonKind(v any, raw json.RawMessage) string {
	switch v.(type) {
	case string:
		return "the string " + string(raw)
	case json.Number:
		return "the number " + string(raw)
	case bool:
		return "the boolean " + string(raw)
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return string(raw)
}
