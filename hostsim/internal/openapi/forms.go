package openapi

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/takokit/takokit/catalog"
)

// The schemas of each Form: its desired spec and outputs as the Definition states them
// (their $defs lifted into components, their local $refs pointed there), and the
// request and resource documents around them (docs/protocol.md#representation).

// formName is the component name prefix of a Form: group, kind and definition version.
func formName(f *catalog.Form) string {
	return strings.ReplaceAll(f.Ref.APIVersion, "/", "_") + "." + f.Ref.Kind + "-" + f.Ref.DefinitionVersion
}

func (g *gen) formSchemas() error {
	for _, f := range g.forms {
		name := formName(f)
		spec, err := g.lift(name, f.DesiredJSON)
		if err != nil {
			return fmt.Errorf("%s desiredSchema: %w", f.Ref, err)
		}
		g.schemas[name+".spec"] = spec
		formRef := obj{"type": "object", "additionalProperties": false,
			"required": arr{"apiVersion", "kind", "definitionVersion", "schemaDigest"},
			"properties": obj{
				"apiVersion": obj{"const": f.Ref.APIVersion}, "kind": obj{"const": f.Ref.Kind},
				"definitionVersion": obj{"const": f.Ref.DefinitionVersion}, "schemaDigest": obj{"const": f.Ref.SchemaDigest},
			}}
		form := obj{"type": "object", "additionalProperties": false, "required": arr{"formRef"},
			"properties": obj{"formRef": formRef, "packageDigest": ref("Digest")}}
		status := obj{"type": "object", "additionalProperties": false, "required": arr{"observedGeneration", "conditions"},
			"properties": obj{"observedGeneration": ref("Decimal"), "conditions": obj{"type": "array", "maxItems": 16, "items": ref("Condition")}}}
		if f.HasOutputs() {
			out, err := g.lift(name+".outputs", f.OutputJSON)
			if err != nil {
				return fmt.Errorf("%s outputSchema: %w", f.Ref, err)
			}
			g.schemas[name+".outputs"] = out
			// an accepted-unfinished answer aside, a Form with outputs is served with exactly them
			status["properties"].(obj)["outputs"] = ref(name + ".outputs")
		} // without outputs, the closed status names none, so an answer holding outputs is refused
		core := func(meta string, extra obj, required ...string) obj {
			props := obj{"apiVersion": obj{"const": f.Ref.APIVersion}, "kind": obj{"const": f.Ref.Kind}, "form": form,
				"metadata": ref(meta), "spec": ref(name + ".spec")}
			for k, v := range extra {
				props[k] = v
			}
			return obj{"type": "object", "additionalProperties": false,
				"required": append(arr{"apiVersion", "kind", "form", "metadata", "spec"}, toArr(required)...), "properties": props}
		}
		g.schemas[name+".request"] = core("RequestMetadata", obj{
			"review":             obj{"type": "object", "additionalProperties": false, "required": arr{"prepareDigest"}, "properties": obj{"prepareDigest": ref("Digest")}},
			"expectedUid":        ref("UID"),
			"expectedGeneration": ref("Decimal"),
			"nativeId":           obj{"type": "string", "minLength": 1, "maxLength": 4096},
		})
		g.schemas[name+".resource"] = core("ResponseMetadata", obj{"status": status}, "status")
		g.schemas[name+".prepared"] = core("RequestMetadata", nil)
		g.names = append(g.names, name)
	}
	g.schemas["FormRequest"] = g.oneOf(".request")
	g.schemas["FormResource"] = g.oneOf(".resource")
	g.schemas["FormPrepared"] = g.oneOf(".prepared")
	return nil
}

// oneOf is one of the Forms' schemas of suffix.
func (g *gen) oneOf(suffix string) obj {
	list := arr{}
	for _, n := range g.names {
		list = append(list, ref(n+suffix))
	}
	return obj{"oneOf": list}
}

// lift decodes one of a Definition's schemas, moves its $defs into components under
// name and points its local $refs at them.
func (g *gen) lift(name string, raw []byte) (obj, error) {
	var s obj
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, err
	}
	delete(s, "$schema")
	defs, _ := s["$defs"].(obj)
	delete(s, "$defs")
	for d, def := range defs {
		g.schemas[name+".defs."+d] = retarget(def, name)
	}
	return retarget(s, name).(obj), nil
}

// retarget rewrites every "#/$defs/X" reference below v to the lifted component.
func retarget(v any, name string) any {
	switch x := v.(type) {
	case obj:
		for k, e := range x {
			if s, ok := e.(string); ok && k == "$ref" && strings.HasPrefix(s, "#/$defs/") {
				x[k] = "#/components/schemas/" + name + ".defs." + strings.TrimPrefix(s, "#/$defs/")
				continue
			}
			x[k] = retarget(e, name)
		}
	case arr:
		for i, e := range x {
			x[i] = retarget(e, name)
		}
	}
	return v
}

func toArr(ss []string) arr {
	out := arr{}
	for _, s := range ss {
		out = append(out, s)
	}
	return out
}
