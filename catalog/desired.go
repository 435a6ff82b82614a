package catalog

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/takokit/takokit/catalog/wire"
)

// The desired, observed and output schemas of one definition (docs/catalog-rules.md#documents,
// docs/catalog-rules.md#loader-rules).

var desiredRootKeywords = []string{"$schema", "type", "additionalProperties", "properties", "required", "title", "description", "$defs"}

func (b *formBuild) loadDesired() {
	const base = "/desiredSchema"
	c, file, ps := b.ctx, b.file, b.ctx.ps
	root, _ := decodeGeneric(b.doc.DesiredSchema) // a member of a definition that decoded
	obj, _ := root.(map[string]any)
	if obj == nil {
		ps.add(file, base, "desiredSchema must be a JSON Schema object")
		return
	}
	basicsOK := checkSchemaBasics(file, base, root, ps)
	if basicsOK {
		b.schemas.desired = ps.schema(file, base, b.doc.DesiredSchema)
	}
	for _, k := range sortedKeys(obj) {
		if !slices.Contains(desiredRootKeywords, k) {
			ps.add(file, ptrJoin(base, k), "%s: keyword %q is not allowed at the desiredSchema root", unsupportedShape, k)
		}
	}
	if obj["type"] != "object" {
		ps.add(file, ptrJoin(base, "type"), "desiredSchema must have \"type\": \"object\"")
	}
	if obj["additionalProperties"] != false {
		ps.add(file, base, "desiredSchema is open; the desired root is closed, so set \"additionalProperties\": false")
	}
	props, isObj := obj["properties"].(map[string]any)
	if !isObj {
		ps.add(file, ptrJoin(base, "properties"), "desiredSchema must have \"properties\" (possibly {})")
	}
	req := stringList(obj["required"]) // a "required" that lists no names is the metaschema's line
	for i, r := range req {
		if _, ok := props[r]; !ok {
			ps.add(file, fmt.Sprintf("%s/required/%d", base, i), "\"required\" names %q, which is not a declared property", r)
		}
	}
	for _, name := range sortedKeys(props) {
		ptr := ptrJoin(base, "properties", name)
		node, _ := props[name].(map[string]any)
		switch {
		case !propertyNameRe.MatchString(name):
			ps.add(file, ptr, "property name %q must match ^[a-z][a-zA-Z0-9]{0,63}$", name)
			continue
		case name == "name" || name == "space":
			ps.add(file, ptr, "property %q is not allowed: resource identity lives in metadata", name)
			continue
		case node == nil:
			ps.add(file, ptr, "%s: a property is a schema object", unsupportedShape)
			continue
		}
		if str(node["description"]) == "" {
			ps.add(file, ptrJoin(ptr, "description"), "top-level desired property %q has no description; describe it for the documentation and the provider schema", name)
		}
		// a property whose shape is refused is still the Form's property to the
		// immutableFields and capability checks (a Form with a problem never loads)
		f := c.classify(ptr, name, "/"+name, node, false)
		f.Required = slices.Contains(req, name)
		b.form.Fields = append(b.form.Fields, f)
	}
	checkStrayAnnotations(file, base, root, c.legit, ps)
	b.checkDefaults(base, obj, req, b.schemas.desired != nil && !ps.prechecked)
}

// checkDefaults allows "default" only on top-level optional desired properties and
// requires it to validate against the property's own schema.
func (b *formBuild) checkDefaults(base string, root map[string]any, req []string, compile bool) {
	ps, file := b.ctx.ps, b.file
	visitSchemas(root, base, func(obj map[string]any, ptr string) {
		d, has := obj["default"]
		if !has {
			return
		}
		// below a top-level property, or not under "properties" at all (ptr is then
		// left whole, and holds a /)
		name, _ := strings.CutPrefix(ptr, base+"/properties/")
		if strings.Contains(name, "/") {
			ps.add(file, ptrJoin(ptr, "default"), "\"default\" is allowed only on a top-level optional desired property; remove it here")
			return
		}
		name = strings.NewReplacer("~1", "/", "~0", "~").Replace(name)
		if slices.Contains(req, name) {
			ps.add(file, ptrJoin(ptr, "default"), "required property %q declares a default; a default belongs only on an optional property, so drop it or make the property optional", name)
			return
		}
		if !compile {
			return
		}
		if err := b.schemas.validateProperty(name, d); err != nil {
			ps.add(file, ptrJoin(ptr, "default"), "default does not validate against the property's own schema: %s", err)
		}
	})
}

// validateProperty validates v against the subschema of one top-level desired
// property, naming each failing instance pointer.
func (fs *formSchemas) validateProperty(name string, v any) error {
	s, err := fs.propertySchema(name)
	if err != nil {
		return err
	}
	err = validateWith(s, v, "default", fs.form)
	var se *SchemaError
	if errors.As(err, &se) {
		var parts []string
		for _, p := range se.Problems {
			parts = append(parts, "at "+quoteEmpty(p.Pointer)+": "+p.Message)
		}
		return errors.New(strings.Join(parts, "; "))
	}
	return err
}

// propertySchema compiles (once) the subschema of one top-level desired property.
func (fs *formSchemas) propertySchema(name string) (*jsonschema.Schema, error) {
	_, doc, prob := fs.desired.compile()
	if doc == nil {
		return nil, notCompiled("desired property "+strconv.Quote(name), fs.form, prob)
	}
	fs.mu.Lock()
	defer fs.mu.Unlock()
	if s, ok := fs.fields[name]; ok {
		return s, nil
	}
	s, err := doc.fragment("/properties/" + wire.EscapePointerToken(name))
	if err != nil {
		return nil, fmt.Errorf("compiling the schema of %q: %w", name, err)
	}
	fs.fields[name] = s
	return s, nil
}

func quoteEmpty(p string) string {
	if p == "" {
		return `""`
	}
	return p
}

func (b *formBuild) loadObservedAndOutputs() {
	ps, file := b.ctx.ps, b.file
	// each schema is a member of a definition that decoded, so it decodes too
	if raw := b.doc.ObservedSchema; raw != nil {
		root, _ := decodeGeneric(raw)
		visitSchemas(root, "/observedSchema", func(obj map[string]any, ptr string) {
			if _, has := obj["default"]; has {
				ps.add(file, ptrJoin(ptr, "default"), "\"default\" is not allowed in observedSchema; defaults belong only on top-level optional desired properties")
			}
		})
		if checkSchemaBasics(file, "/observedSchema", root, ps) {
			b.schemas.observed = ps.schema(file, "/observedSchema", raw)
		}
	}
	if raw := b.doc.OutputSchema; raw != nil {
		root, _ := decodeGeneric(raw)
		b.form.Outputs = parseOutputs(file, root, ps)
		// parseOutputs refuses a root that is not an object; compiling it would only say so again
		if _, isObj := root.(map[string]any); isObj && checkSchemaBasics(file, "/outputSchema", root, ps) {
			b.schemas.output = ps.schema(file, "/outputSchema", raw)
		}
	}
}
