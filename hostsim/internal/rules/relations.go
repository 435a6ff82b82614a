package rules

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
)

// Reference is one reference node present in a materialized spec (docs/protocol.md#relations):
// the concrete pointer, the derived relation it instantiates and the target it names.
type Reference struct {
	Pointer    string           // concrete JSON Pointer, e.g. "/kvBindings/0/resource"
	Relation   catalog.Relation // the relation of the source Form; Relation.Pointer uses "*"
	APIVersion string           // the node's apiVersion as written
	Kind       string           // the node's kind as written
	Name       string           // the target resource name
	// Binding is the accepted binding of the binding list holding the node; nil when
	// the node is not the reference member of a binding-list entry.
	Binding *wire.BindingRef
	// EntryPointer and EntryName locate the binding-list entry and its name member
	// ("" outside a binding list).
	EntryPointer, EntryName string
}

// ExtractReferences enumerates every reference present in spec (a materialized desired
// spec that passed the spec gate) in the order of form.Relations, array elements in
// index order. Relations come only from form.Relations and form.Fields; nothing names a
// kind. An optional reference that is absent yields nothing; a node that is present but
// not an object with string apiVersion, kind and name is refused (invalid_argument).
func ExtractReferences(form *catalog.Form, spec map[string]any) ([]Reference, *Refusal) {
	var out []Reference
	for _, rel := range form.Relations {
		tokens := splitPointer(rel.Pointer)
		var r *Refusal
		walkPattern(spec, tokens, "", func(ptr string, node any) {
			if r != nil {
				return
			}
			ref, bad := referenceAt(form, rel, ptr, node, spec)
			if bad != nil {
				r = bad
				return
			}
			out = append(out, ref)
		})
		if r != nil {
			return nil, r
		}
	}
	return out, nil
}

func referenceAt(form *catalog.Form, rel catalog.Relation, ptr string, node any, spec map[string]any) (Reference, *Refusal) {
	obj, ok := node.(map[string]any)
	if !ok {
		return Reference{}, invalid(ptr, "%s: a reference is an object {apiVersion, kind, name} naming a %s %s; got %s",
			ptr, rel.TargetAPIVersion, rel.TargetKind, jsonType(node))
	}
	ref := Reference{Pointer: ptr, Relation: rel}
	for _, m := range []struct {
		key string
		dst *string
	}{{"apiVersion", &ref.APIVersion}, {"kind", &ref.Kind}, {"name", &ref.Name}} {
		s, ok := obj[m.key].(string)
		if !ok {
			return Reference{}, invalid(ptr+"/"+m.key, "%s/%s: a reference needs a string %q naming the %s %s target; got %s",
				ptr, m.key, m.key, rel.TargetAPIVersion, rel.TargetKind, jsonType(obj[m.key]))
		}
		*m.dst = s
	}
	ref.Binding = rel.Binding
	top, _ := form.Field(firstToken(rel.Pointer))
	if top != nil && top.Kind == catalog.FieldBindingList {
		if ref.Binding == nil {
			ref.Binding = top.Binding
		}
		ref.EntryPointer = ptr[:strings.LastIndex(ptr, "/")]
		if entry, ok := lookup(spec, splitPointer(ref.EntryPointer)).(map[string]any); ok {
			ref.EntryName, _ = entry[entryNameMember(top)].(string)
		}
	}
	return ref, nil
}

// entryNameMember is the wire name of a binding-list item's name member: the member
// that is not the reference member (docs/protocol.md#relations), "name" when the model is silent.
func entryNameMember(f *catalog.Field) string {
	for _, m := range f.Members {
		if m.Wire != f.RefMember && m.Kind != catalog.FieldReference {
			return m.Wire
		}
	}
	return "name"
}

// walkPattern visits every value addressed by tokens below v, where "*" stands for
// every element of an array. Absent members and non-containers end the walk quietly.
func walkPattern(v any, tokens []string, ptr string, visit func(ptr string, node any)) {
	if len(tokens) == 0 {
		visit(ptr, v)
		return
	}
	tok, rest := tokens[0], tokens[1:]
	if tok == "*" {
		arr, ok := v.([]any)
		if !ok {
			return
		}
		for i, e := range arr {
			walkPattern(e, rest, ptr+"/"+strconv.Itoa(i), visit)
		}
		return
	}
	obj, _ := v.(map[string]any) // nil for a non-object, where every member is absent
	child := obj[tok]
	if child == nil { // absent, or JSON null
		return
	}
	walkPattern(child, rest, ptr+"/"+wire.EscapePointerToken(tok), visit)
}

func lookup(v any, tokens []string) any {
	for _, tok := range tokens {
		switch c := v.(type) {
		case map[string]any:
			v = c[tok]
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(c) {
				return nil
			}
			v = c[i]
		default:
			return nil
		}
	}
	return v
}

// splitPointer splits a JSON Pointer into unescaped tokens ("" → none).
func splitPointer(p string) []string {
	if p == "" {
		return nil
	}
	parts := strings.Split(strings.TrimPrefix(p, "/"), "/")
	for i, t := range parts {
		parts[i] = strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~")
	}
	return parts
}

func firstToken(p string) string {
	if t := splitPointer(p); len(t) > 0 {
		return t[0]
	}
	return ""
}

func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null or nothing"
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case float64, json.Number, int, int64:
		return "a number"
	default:
		return fmt.Sprintf("a %T", v)
	}
}
