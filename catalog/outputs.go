package catalog

import (
	"encoding/json"
	"slices"
	"strings"
)

// Declared outputs (docs/catalog-rules.md#loader-rules, decision 0025).

var (
	outputRootKeywords = []string{"$schema", "type", "additionalProperties", "properties", "required", "title", "description"}
	outputTypeKeywords = map[string][]string{
		"string":  {"pattern", "minLength", "maxLength", "enum"},
		"integer": {"minimum", "maximum", "enum"},
		"boolean": {"enum"},
	}
)

// parseOutputs checks outputSchema and derives the Output list.
func parseOutputs(file string, root any, ps *problems) []Output {
	const base = "/outputSchema"
	obj, _ := root.(map[string]any)
	if obj == nil {
		ps.add(file, base, "outputSchema must be a JSON Schema object")
		return nil
	}
	for _, k := range sortedKeys(obj) {
		if !slices.Contains(outputRootKeywords, k) {
			ps.add(file, ptrJoin(base, k), "keyword %q is not allowed at the outputSchema root; outputs are a closed object of scalar members", k)
		}
	}
	if obj["type"] != "object" {
		ps.add(file, ptrJoin(base, "type"), "outputSchema must have \"type\": \"object\"")
	}
	if obj["additionalProperties"] != false {
		ps.add(file, base, "outputSchema is open; outputs are a closed contract, so set \"additionalProperties\": false")
	}
	props, _ := obj["properties"].(map[string]any)
	if len(props) == 0 {
		ps.add(file, ptrJoin(base, "properties"), "outputSchema declares no outputs; list them under \"properties\" or drop outputSchema")
		return nil
	}
	req := stringList(obj["required"])
	for _, name := range sortedKeys(props) {
		if !slices.Contains(req, name) {
			ps.add(file, ptrJoin(base, "properties", name), "output %q is optional; a host returns every declared output, so list it in \"required\"", name)
		}
	}
	for _, r := range req {
		if _, ok := props[r]; !ok {
			ps.add(file, ptrJoin(base, "required"), "\"required\" names %q, which is not a declared output", r)
		}
	}
	var outs []Output
	for _, name := range sortedKeys(props) {
		outs = append(outs, parseOutput(file, ptrJoin(base, "properties", name), name, props[name], ps))
	}
	return outs
}

// parseOutput derives one declared output, recording each rule it breaks. It
// answers the output as declared either way: a Form with a problem never loads,
// and until then the output's name is what the immutableFields and name checks
// look up (so a broken output is not also reported as missing).
func parseOutput(file, ptr, name string, v any, ps *problems) Output {
	o := Output{Wire: name, Attr: Snake(name)}
	node, _ := v.(map[string]any)
	if node == nil {
		ps.add(file, ptr, "an output member is a schema object")
		return o
	}
	if !propertyNameRe.MatchString(name) {
		ps.add(file, ptr, "output name %q must match ^[a-z][a-zA-Z0-9]{0,63}$", name)
	}
	if _, has := node["default"]; has {
		ps.add(file, ptrJoin(ptr, "default"), "output member declares \"default\"; outputs are host answers and carry no default")
	}
	typ, _ := node["type"].(string)
	allowed, scalar := outputTypeKeywords[typ]
	if !scalar {
		ps.add(file, ptrJoin(ptr, "type"), "output member must have a single \"type\" of string, integer or boolean; arrays, objects and null are not outputs")
		return o
	}
	o.Type = typ
	for _, k := range sortedKeys(node) {
		if k == "type" || k == "default" || k == "description" || k == "title" || slices.Contains(allowed, k) {
			continue
		}
		switch {
		case strings.HasPrefix(k, "x-takoform-"):
			ps.add(file, ptrJoin(ptr, k), "output member carries annotation %q; an output is never a reference", k)
		default:
			ps.add(file, ptrJoin(ptr, k), "keyword %q is not allowed on a %s output; use only description, title and the constraints of its type (%s)", k, typ, strings.Join(allowed, ", "))
		}
	}
	o.Description = str(node["description"])
	o.Pattern = str(node["pattern"])
	// a pattern that does not compile is checkSchemaBasics' problem; the Form then
	// does not load, so a loaded output's pattern is always enforceable
	if o.Pattern != "" && (!strings.HasPrefix(o.Pattern, "^") || !strings.HasSuffix(o.Pattern, "$")) {
		ps.add(file, ptrJoin(ptr, "pattern"), "output pattern must be anchored: start with ^ and end with $")
	}
	o.MinLength, o.MaxLength = intPtr(node["minLength"]), intPtr(node["maxLength"])
	o.Min, o.Max = intPtr(node["minimum"]), intPtr(node["maximum"])
	for _, k := range []string{"minimum", "maximum"} {
		if v, has := node[k]; has {
			if _, good := safeInt(v); !good {
				ps.add(file, ptrJoin(ptr, k), "%q of an integer output must be an integer within ±(2^53−1)", k)
			}
		}
	}
	if e, has := node["enum"]; has {
		arr, _ := e.([]any)
		for i, x := range arr {
			if !jsonTypeIs(x, typ) {
				ps.add(file, fmtPtr(ptrJoin(ptr, "enum"), i), "enum value is not a %s", typ)
				continue
			}
			if s, isStr := x.(string); isStr {
				o.Enum = append(o.Enum, s)
			} else {
				b, _ := json.Marshal(x)
				o.Enum = append(o.Enum, string(b))
			}
		}
	}
	return o
}

// jsonTypeIs reports whether v is a JSON value of typ, one of the output types.
func jsonTypeIs(v any, typ string) bool {
	switch typ {
	case "string":
		_, ok := v.(string)
		return ok
	case "boolean":
		_, ok := v.(bool)
		return ok
	}
	_, ok := safeInt(v) // integer, the one type left
	return ok
}
