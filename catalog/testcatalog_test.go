package catalog

import (
	"strings"

	"github.com/takokit/takokit/catalog/wire"
)

// A small test catalog built from Go values and sealed here, so every bad catalog
// under testdata/bad/<rule>/ differs from a valid one by exactly one broken rule.
// The committed trees are regenerated with TAKOKIT_UPDATE_TESTDATA=1; otherwise
// TestTestdataIsCurrent fails when they are stale.

type obj = map[string]any

const (
	tGroup  = "example.forms.takokit.dev/v1alpha1"
	tFamily = "example-v1alpha1"
	zeroDig = "sha256:0000000000000000000000000000000000000000000000000000000000000000"
	draft   = "https://json-schema.org/draft/2020-12/schema"
)

// tcat is a catalog under construction: documents as generic values keyed by role.
type tcat struct {
	iface       obj
	binding     obj
	forms       []*tform
	transitions obj
	post        []func(files map[string][]byte) // raw edits after sealing
}

type tform struct {
	family        string // "" means tFamily
	slug, version string
	versioned     bool
	def           obj
	fixtures      map[string]any // package path -> document
	extraFiles    map[string][]byte
}

func refNode(kind string, ann obj) obj {
	n := obj{
		"type": "object", "additionalProperties": false, "required": []any{"apiVersion", "kind", "name"},
		"properties": obj{
			"apiVersion": obj{"type": "string", "const": tGroup},
			"kind":       obj{"type": "string", "const": kind},
			"name":       obj{"type": "string", "minLength": 1, "maxLength": 63, "pattern": "^[a-z][a-z0-9-]{0,62}$"},
		},
	}
	for k, v := range ann {
		n[k] = v
	}
	return n
}

func ifaceRef() obj {
	return obj{"apiVersion": wire.InterfaceAPIVersion, "name": "example.store", "version": "1.0.0", "schemaDigest": zeroDig}
}

func formRefOf(kind, version string) obj {
	return obj{"apiVersion": tGroup, "kind": kind, "definitionVersion": version, "schemaDigest": zeroDig}
}

func fixtureDecls(extra ...obj) (any, any) {
	pos := []any{obj{"name": "canonical", "desiredPath": "fixtures/desired.json"}}
	for _, e := range extra {
		pos[0].(obj)["outputPath"] = e["outputPath"]
	}
	neg := []any{obj{"name": "reject-unexpected-property", "stage": "desired", "inputPath": "fixtures/negative-unexpected-property.json", "expectedFailure": "schema_validation_failed"}}
	return pos, neg
}

func baseCatalog() *tcat {
	c := &tcat{}
	c.iface = obj{
		"apiVersion": wire.InterfaceAPIVersion, "kind": "InterfaceDefinition", "name": "example.store", "version": "1.0.0",
		"title": "Example store", "description": "A test contract.",
		"operations": []any{obj{"name": "get", "idempotent": true, "errors": []any{"not_found"},
			"inputSchema":  obj{"$schema": draft, "type": "object", "additionalProperties": false, "properties": obj{"key": obj{"type": "string", "maxLength": 64}}, "required": []any{"key"}},
			"outputSchema": obj{"$schema": draft, "type": "object"}}},
		"semantics": obj{"consistency": "eventual"},
		"limits":    obj{"maxKeyBytes": 512},
	}
	c.binding = obj{
		"apiVersion": wire.BindingAPIVersion, "kind": "BindingDefinition", "name": "holder.store", "version": "1.0.0",
		"title": "Holder store binding", "sourceRole": "revision", "targetInterface": ifaceRef(),
		"allowedTargetForms": []any{obj{"apiVersion": tGroup, "kind": "Store"}},
		"bindingNameGrammar": "^[A-Z][A-Z0-9_]*$", "runtimeProjection": obj{"operations": []any{"get"}},
		"lifecycle": obj{"targetDeletion": "refuse_while_bound"},
	}
	pos, neg := fixtureDecls()
	store := &tform{slug: "store", version: "0.1.0", def: obj{
		"apiVersion": tGroup, "kind": "Store", "definitionVersion": "0.1.0", "title": "Store", "role": "identity",
		"desiredSchema":         obj{"$schema": draft, "type": "object", "additionalProperties": false, "properties": obj{}, "title": "Store", "description": "An empty store."},
		"lifecycleCapabilities": []any{"create", "read", "delete", "import", "observe"},
		"providedInterfaces":    []any{ifaceRef()},
		"conformanceFixtures":   pos, "negativeConformanceFixtures": neg,
	}, fixtures: map[string]any{"fixtures/desired.json": obj{}, "fixtures/negative-unexpected-property.json": obj{"unexpected": true}}}

	pos, neg = fixtureDecls()
	holder := &tform{slug: "holder", version: "0.1.0", def: obj{
		"apiVersion": tGroup, "kind": "Holder", "definitionVersion": "0.1.0", "title": "Holder", "role": "revision",
		"desiredSchema": obj{"$schema": draft, "type": "object", "additionalProperties": false, "required": []any{"store"},
			"properties": obj{
				"store": func() obj {
					n := refNode("Store", obj{"x-takoform-required-interface": ifaceRef()})
					n["description"] = "The store."
					return n
				}(),
				"storeBindings": obj{"type": "array", "description": "Bindings.", "default": []any{}, "maxItems": 8, "uniqueItems": true,
					"x-takoform-binding": "holder.store",
					"items": obj{"type": "object", "additionalProperties": false, "required": []any{"name", "resource"},
						"properties": obj{"name": obj{"type": "string", "pattern": "^[A-Z][A-Z0-9_]*$"},
							"resource": refNode("Store", obj{"x-takoform-required-interface": ifaceRef()})}}},
				"tags": obj{"type": "array", "description": "Tags.", "uniqueItems": true, "default": []any{}, "items": obj{"type": "string", "pattern": "^[a-z]+$"}},
				"note": obj{"type": "string", "description": "A note.", "maxLength": 40},
			}},
		"immutableFields":       []any{"/note", "/store", "/storeBindings", "/tags"},
		"lifecycleCapabilities": []any{"create", "read", "delete", "import", "observe"},
		"acceptedBindings":      []any{obj{"apiVersion": wire.BindingAPIVersion, "name": "holder.store", "version": "1.0.0", "schemaDigest": zeroDig}},
		"conformanceFixtures":   pos, "negativeConformanceFixtures": neg,
	}, fixtures: map[string]any{
		"fixtures/desired.json":                      obj{"store": obj{"apiVersion": tGroup, "kind": "Store", "name": "main"}, "storeBindings": []any{obj{"name": "DATA", "resource": obj{"apiVersion": tGroup, "kind": "Store", "name": "main"}}}},
		"fixtures/negative-unexpected-property.json": obj{"store": obj{"apiVersion": tGroup, "kind": "Store", "name": "main"}, "unexpected": true},
	}}
	c.forms = []*tform{store, holder, gadget("0.1.0", false), gadget("0.2.0", true)}
	c.transitions = obj{"format": "takokit.form-transitions@v1", "transitions": []any{
		obj{"marker": "gadget-0.1-to-0.2", "from": formRefOf("Gadget", "0.1.0"), "to": formRefOf("Gadget", "0.2.0")}}}
	return c
}

func gadget(version string, ready bool) *tform {
	outProps := obj{
		"address": obj{"type": "string", "description": "Address.", "pattern": "^[a-z]+$", "maxLength": 20},
		"port":    obj{"type": "integer", "description": "Port.", "minimum": 1, "maximum": 65535},
	}
	out := obj{"address": "here", "port": 443}
	if ready {
		outProps["healthy"] = obj{"type": "boolean", "description": "Healthy."}
		out["healthy"] = true
	}
	pos, neg := fixtureDecls(obj{"outputPath": "fixtures/outputs.json"})
	neg = append(neg.([]any), obj{"name": "output-port", "stage": "output", "inputPath": "fixtures/negative-output-port.json", "expectedFailure": "schema_validation_failed"})
	badOut := obj{"address": "here", "port": 0}
	if ready {
		badOut["healthy"] = true
	}
	holder := refNode("Holder", obj{"x-takoform-target-formrefs": []any{formRefOf("Holder", "0.1.0")}})
	holder["description"] = "The holder."
	return &tform{slug: "gadget", version: version, versioned: true, def: obj{
		"apiVersion": tGroup, "kind": "Gadget", "definitionVersion": version, "title": "Gadget", "role": "attachment",
		"desiredSchema": obj{"$schema": draft, "type": "object", "additionalProperties": false, "required": []any{"holder"},
			"properties": obj{
				"holder": holder,
				"size":   obj{"type": "integer", "description": "Size.", "minimum": 1, "maximum": 10, "default": 5},
				"mode":   obj{"type": "string", "description": "Mode.", "enum": []any{"fast", "slow"}, "default": "fast"},
				"items": obj{"type": "array", "description": "Items.", "maxItems": 4, "items": obj{"type": "object", "additionalProperties": false,
					"required": []any{"weight", "target"}, "properties": obj{
						"weight": obj{"type": "integer", "minimum": 1, "maximum": 100},
						"target": refNode("Store", obj{"x-takoform-required-interface": ifaceRef()})}}},
				"labels": obj{"type": "object", "description": "Labels.", "maxProperties": 8, "additionalProperties": obj{"type": "string"}, "default": obj{}},
			}},
		"outputSchema": obj{"$schema": draft, "type": "object", "additionalProperties": false, "properties": outProps,
			"required": sortedAny(outProps), "title": "Gadget outputs"},
		"immutableFields":       []any{"/holder"},
		"lifecycleCapabilities": []any{"create", "read", "update", "delete", "import", "observe"},
		"conformanceFixtures":   pos, "negativeConformanceFixtures": neg,
	}, fixtures: map[string]any{
		"fixtures/desired.json":                      obj{"holder": obj{"apiVersion": tGroup, "kind": "Holder", "name": "h"}, "size": 3},
		"fixtures/outputs.json":                      out,
		"fixtures/negative-unexpected-property.json": obj{"holder": obj{"apiVersion": tGroup, "kind": "Holder", "name": "h"}, "unexpected": true},
		"fixtures/negative-output-port.json":         badOut,
	}}
}

func sortedAny(m obj) []any {
	var out []any
	for _, k := range sortedKeys(m) {
		out = append(out, k)
	}
	return out
}

// form finds a test form by kind and version.
func (c *tcat) form(kind, version string) *tform {
	for _, f := range c.forms {
		if f.def["kind"] == kind && f.def["definitionVersion"] == version {
			return f
		}
	}
	panic("no test form " + kind + "@" + version)
}

// at walks a generic document along slash-separated keys.
func at(v any, p string) obj {
	for _, k := range strings.Split(strings.Trim(p, "/"), "/") {
		if k == "" {
			continue
		}
		v = v.(obj)[k]
	}
	return v.(obj)
}
