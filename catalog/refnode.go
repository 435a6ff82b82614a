package catalog

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/takokit/takokit/catalog/wire"
)

// Reference nodes (docs/catalog-rules.md#loader-rules).

const (
	annTargetFormRefs    = "x-takoform-target-formrefs"
	annRequiredInterface = "x-takoform-required-interface"
	annBinding           = "x-takoform-binding"
	refNamePattern       = "^[a-z][a-z0-9-]{0,62}$"
)

var refNodeKeywords = []string{"type", "additionalProperties", "properties", "required", "description", "title", annTargetFormRefs, annRequiredInterface}

// isReferenceShaped reports whether node's properties hold apiVersion and kind, both
// carrying const, plus name.
func isReferenceShaped(node map[string]any) bool {
	props, _ := node["properties"].(map[string]any) // nil when absent: it then has no name
	av, _ := props["apiVersion"].(map[string]any)   // nil when absent: it then has no const
	k, _ := props["kind"].(map[string]any)
	if _, hasName := props["name"]; !hasName {
		return false
	}
	_, c1 := av["const"]
	_, c2 := k["const"]
	return c1 && c2
}

// isReferenceIntended reports whether node is judged as a reference node: one
// shaped as one, or one carrying a contract annotation over properties that
// hold apiVersion and kind. Its author meant a reference node, so a const or
// the name member it lacks is that member's one line, not a closed object's
// lines (docs/catalog-rules.md#loader-rules).
func isReferenceIntended(node map[string]any) bool {
	if isReferenceShaped(node) {
		return true
	}
	_, hasT := node[annTargetFormRefs]
	_, hasI := node[annRequiredInterface]
	props, _ := node["properties"].(map[string]any)
	_, av := props["apiVersion"]
	_, k := props["kind"]
	return (hasT || hasI) && av && k
}

// parseReferenceNode checks the exact reference-node shape and returns its target,
// nil when its contract annotation cannot be read. What else it breaks is recorded
// as problems (a Form with one never loads, so its relations are never read).
func parseReferenceNode(file, ptr string, node map[string]any, ps *problems) *RefTarget {
	for _, k := range sortedKeys(node) {
		if !slices.Contains(refNodeKeywords, k) {
			ps.add(file, ptrJoin(ptr, k), "keyword %q is not allowed on a reference node; a reference node carries only type, additionalProperties, properties, required, description and one contract annotation", k)
		}
	}
	if node["type"] != "object" {
		ps.add(file, ptrJoin(ptr, "type"), "a reference node has \"type\": \"object\"")
	}
	if node["additionalProperties"] != false {
		ps.add(file, ptrJoin(ptr, "additionalProperties"), "a reference node is closed: set \"additionalProperties\": false")
	}
	if !sameSet(stringList(node["required"]), []string{"apiVersion", "kind", "name"}) {
		ps.add(file, ptrJoin(ptr, "required"), "a reference node requires exactly apiVersion, kind and name")
	}
	props, _ := node["properties"].(map[string]any) // isReferenceIntended: it holds apiVersion and kind
	for _, k := range sortedKeys(props) {
		if k != "apiVersion" && k != "kind" && k != "name" {
			ps.add(file, ptrJoin(ptr, "properties", k), "a reference node has exactly the properties apiVersion, kind and name; remove %q", k)
		}
	}
	group, groupOK := constString(file, ptrJoin(ptr, "properties", "apiVersion"), props["apiVersion"], ps)
	kind, kindOK := constString(file, ptrJoin(ptr, "properties", "kind"), props["kind"], ps)
	if groupOK && !wire.ValidGroup(group) {
		ps.add(file, ptrJoin(ptr, "properties", "apiVersion", "const"), "%q is not a Form group", group)
	}
	if kindOK && !wire.ValidKind(kind) {
		ps.add(file, ptrJoin(ptr, "properties", "kind", "const"), "%q is not a Form kind", kind)
	}
	checkRefName(file, ptrJoin(ptr, "properties", "name"), props["name"], ps)

	_, hasT := node[annTargetFormRefs]
	_, hasI := node[annRequiredInterface]
	switch {
	case hasT && hasI:
		ps.add(file, ptr, "reference node carries both %s and %s; keep exactly one contract annotation", annTargetFormRefs, annRequiredInterface)
		return nil
	case !hasT && !hasI:
		ps.add(file, ptr, "reference node carries no contract annotation; add exactly one of %s or %s", annTargetFormRefs, annRequiredInterface)
		return nil
	}
	t := &RefTarget{APIVersion: group, Kind: kind}
	if hasT {
		refs, good := decodeAnnotation[[]formRefDoc](file, ptrJoin(ptr, annTargetFormRefs), node[annTargetFormRefs], ps)
		if !good || len(refs) == 0 {
			if good {
				ps.add(file, ptrJoin(ptr, annTargetFormRefs), "%s must list at least one FormRef", annTargetFormRefs)
			}
			return nil
		}
		for _, r := range refs {
			t.TargetFormRefs = append(t.TargetFormRefs, r.ref())
		}
	} else {
		ref, good := decodeAnnotation[contractRefDoc](file, ptrJoin(ptr, annRequiredInterface), node[annRequiredInterface], ps)
		if !good {
			return nil
		}
		ir := ref.iface()
		t.RequiredInterface = &ir
	}
	return t
}

// constString reads a {"type": "string", "const": …} node, reporting any other shape
// (then not ok: its const is not also judged as a group or kind).
func constString(file, ptr string, v any, ps *problems) (string, bool) {
	m, _ := v.(map[string]any)
	c, isStr := m["const"].(string)
	if m == nil || m["type"] != "string" || !isStr || len(m) > 3 || (len(m) == 3 && m["description"] == nil) {
		ps.add(file, ptr, "must be exactly {\"type\": \"string\", \"const\": \"…\"} (a description may be added)")
		return c, false
	}
	return c, true
}

func checkRefName(file, ptr string, v any, ps *problems) {
	if v == nil {
		ps.add(file, ptr, "a reference node has the member name: add {\"type\": \"string\", \"minLength\": 1, \"maxLength\": 63, \"pattern\": %q}", refNamePattern)
		return
	}
	m, _ := v.(map[string]any)
	good := m != nil && m["type"] == "string" && m["pattern"] == refNamePattern
	if good {
		lo, _ := safeInt(m["minLength"])
		hi, _ := safeInt(m["maxLength"])
		good = lo == 1 && hi == 63
		for k := range m {
			if !slices.Contains([]string{"type", "pattern", "minLength", "maxLength", "description", "title"}, k) {
				good = false
			}
		}
	}
	if !good {
		ps.add(file, ptr, "reference name must be exactly {\"type\": \"string\", \"minLength\": 1, \"maxLength\": 63, \"pattern\": %q}", refNamePattern)
	}
}

// decodeAnnotation strictly decodes an annotation value into T.
func decodeAnnotation[T any](file, ptr string, v any, ps *problems) (T, bool) {
	var out T
	raw, err := json.Marshal(v)
	if err == nil {
		err = wire.DecodeStrict(raw, &out)
	}
	if err != nil {
		ps.addJSON(file, ptr, err)
		return out, false
	}
	return out, true
}

func stringList(v any) []string {
	arr, _ := v.([]any)
	out := make([]string, 0, len(arr))
	for _, x := range arr {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	if len(out) != len(arr) {
		return nil
	}
	return out
}

func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	for _, x := range b {
		if !slices.Contains(a, x) {
			return false
		}
	}
	return true
}

// checkStrayAnnotations refuses reference-shaped nodes and contract annotations
// outside the positions the field classifier accepted (legit holds those pointers).
func checkStrayAnnotations(file, base string, root any, legit map[string]bool, ps *problems) {
	visitSchemas(root, base, func(obj map[string]any, ptr string) {
		if legit[ptr] {
			return
		}
		_, hasT := obj[annTargetFormRefs]
		_, hasI := obj[annRequiredInterface]
		ref := isReferenceIntended(obj)
		switch {
		case ref && hasT && hasI:
			ps.add(file, ptr, "reference node carries both %s and %s; keep exactly one contract annotation", annTargetFormRefs, annRequiredInterface)
		case ref && !hasT && !hasI:
			ps.add(file, ptr, "reference node carries no contract annotation; add exactly one of %s or %s", annTargetFormRefs, annRequiredInterface)
		case ref:
			ps.add(file, ptr, "reference node is not allowed here; a reference may be a top-level field, a member of a closed object property, the reference member of a binding-list item or a member of an object-list item")
		case hasT || hasI:
			ps.add(file, ptr, "contract annotation on a node that is not a reference node; put %s or %s only on a reference node", annTargetFormRefs, annRequiredInterface)
		}
		if _, ok := obj[annBinding]; ok && !legit[ptr+"#binding"] {
			ps.add(file, ptrJoin(ptr, annBinding), "%s is allowed only on a top-level binding-list property", annBinding)
		}
	})
}

func fmtPtr(base string, i int) string { return fmt.Sprintf("%s/%d", base, i) }
