package catalog

import (
	"strings"
	"testing"
)

// withPlacement gives the Holder an optional closed object "placement" holding a
// reference member, a string-enum and a boolean, and lists immutable pointers.
func withPlacement(mutate func(placement obj), immutable ...string) *tcat {
	c := baseCatalog()
	holder := c.forms[1].def
	placement := obj{"type": "object", "additionalProperties": false, "description": "Where the holder sits.",
		"required": []any{"target", "mode"},
		"properties": obj{
			"target": refNode("Store", obj{"x-takoform-required-interface": ifaceRef()}),
			"mode":   obj{"type": "string", "enum": []any{"near", "far"}},
			"pinned": obj{"type": "boolean"},
		}}
	if mutate != nil {
		mutate(placement)
	}
	holder["desiredSchema"].(obj)["properties"].(obj)["placement"] = placement
	imm := []any{"/note", "/store", "/storeBindings", "/tags"}
	for _, p := range immutable {
		imm = append(imm, p)
	}
	holder["immutableFields"] = imm
	return c
}

// A closed object may mix a reference member with scalar members; its reference is
// a relation at the member's pointer, and immutability may name a member.
func TestObjectFieldWithReferenceMember(t *testing.T) {
	c, err := Load(mapFS(withPlacement(nil, "/placement").seal(t)))
	if err != nil {
		t.Fatal(err)
	}
	k, _ := c.Kind(tGroup, "Holder")
	f := k.DefaultCreate()
	pl, ok := f.Field("placement")
	if !ok || pl.Kind != FieldObject || pl.Required || len(pl.Members) != 3 {
		t.Fatalf("placement: %+v", pl)
	}
	want := map[string]struct {
		kind     FieldKind
		required bool
		pointer  string
	}{
		"target": {FieldReference, true, "/placement/target"},
		"mode":   {FieldStringEnum, true, "/placement/mode"},
		"pinned": {FieldBoolean, false, "/placement/pinned"},
	}
	for _, m := range pl.Members {
		w := want[m.Wire]
		if m.Kind != w.kind || m.Required != w.required || m.Pointer != w.pointer {
			t.Errorf("member %s: kind %s required %v pointer %s; want %+v", m.Wire, m.Kind, m.Required, m.Pointer, w)
		}
	}
	var rel *Relation
	for i := range f.Relations {
		if f.Relations[i].Pointer == "/placement/target" {
			rel = &f.Relations[i]
		}
	}
	if rel == nil || rel.TargetKind != "Store" || rel.RequiredInterface == nil {
		t.Errorf("no relation at /placement/target among %+v", f.Relations)
	}
}

// Immutability below the top level: a Form that can be updated may fix one member of
// an object property; the member and the pointer are marked.
func TestImmutableObjectMember(t *testing.T) {
	c := withPlacement(nil, "/placement/target")
	c.forms[1].def["role"] = "identity" // an identity Form can be updated
	c.forms[1].def["lifecycleCapabilities"] = []any{"create", "read", "update", "delete", "import", "observe"}
	c.forms[1].def["acceptedBindings"] = nil
	delete(c.forms[1].def, "acceptedBindings")
	props := c.forms[1].def["desiredSchema"].(obj)["properties"].(obj)
	delete(props, "storeBindings")
	c.forms[1].def["immutableFields"] = []any{"/note", "/placement/target", "/store", "/tags"}
	fx := c.forms[1].fixtures["fixtures/desired.json"].(obj)
	delete(fx, "storeBindings")
	cat, err := Load(mapFS(c.seal(t)))
	if err != nil {
		t.Fatal(err)
	}
	k, _ := cat.Kind(tGroup, "Holder")
	f := k.DefaultCreate()
	if !f.DeclaresUpdate || !f.Immutable["/placement/target"] || f.Immutable["/placement"] {
		t.Fatalf("update %v immutable %v", f.DeclaresUpdate, f.Immutable)
	}
	if m := f.ObjectMember("/placement/target"); m == nil || !m.Immutable {
		t.Errorf("member /placement/target not marked immutable: %+v", m)
	}
	if m := f.ObjectMember("/placement/mode"); m == nil || m.Immutable {
		t.Errorf("member /placement/mode: %+v", m)
	}
}

// What an object property may not be, each refused with the file and the pointer.
func TestObjectFieldRefusals(t *testing.T) {
	holder := "forms/" + tFamily + "/holder/definition.json"
	for name, tc := range map[string]struct {
		mutate    func(obj)
		immutable []string
		ptr, frag string
	}{
		"open object": {mutate: func(p obj) { p["additionalProperties"] = true },
			ptr: "/desiredSchema/properties/placement/additionalProperties", frag: "an object property is closed"},
		"nested object": {mutate: func(p obj) {
			p["properties"].(obj)["inner"] = obj{"type": "object", "additionalProperties": false, "properties": obj{"a": obj{"type": "string"}}}
		}, ptr: "/desiredSchema/properties/placement/properties/inner", frag: "a member of an object or object-list item is a string"},
		"required names no member": {mutate: func(p obj) { p["required"] = []any{"target", "ghost"} },
			ptr: "/desiredSchema/properties/placement/required/1", frag: `"required" names "ghost"`},
		"no members": {mutate: func(p obj) { p["properties"] = obj{} },
			ptr: "/desiredSchema/properties/placement/properties", frag: "declares one or more members"},
		"nested default": {mutate: func(p obj) { p["properties"].(obj)["pinned"].(obj)["default"] = true },
			ptr: "/desiredSchema/properties/placement/properties/pinned/default", frag: "only on a top-level optional desired property"},
		"immutable pointer to no member": {immutable: []string{"/placement/ghost"},
			ptr: "/immutableFields/4", frag: "is not a member of a closed object property"},
	} {
		_, err := Load(mapFS(withPlacement(tc.mutate, tc.immutable...).seal(t)))
		want := "catalog: " + holder + ": " + tc.ptr + ": "
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), tc.frag) {
			t.Errorf("%s: got %v\nwant a line starting %q containing %q", name, err, want, tc.frag)
		}
	}
}
