package catalog

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/takokit/takokit/catalog/wire"
)

// Classification of desired properties into field kinds (docs/catalog-rules.md#documents).

const unsupportedShape = "desired property shape is not one the catalog model supports"

var (
	propertyNameRe = lazyRegexp(`^[a-z][a-zA-Z0-9]{0,63}$`)
	prose          = []string{"description", "title"}
	stringKeywords = []string{"type", "pattern", "minLength", "maxLength", "default"}
	enumKeywords   = []string{"type", "enum", "default"}
	intKeywords    = []string{"type", "minimum", "maximum", "default"}
	boolKeywords   = []string{"type", "default"}
	arrayKeywords  = []string{"type", "items", "uniqueItems", "minItems", "maxItems", "default"}
	mapKeywords    = []string{"type", "additionalProperties", "maxProperties", "minProperties", "propertyNames", "default"}
	bindKeywords   = []string{"type", "items", "uniqueItems", "minItems", "maxItems", "default", annBinding}
	itemKeywords   = []string{"type", "additionalProperties", "properties", "required"}
	objectKeywords = []string{"type", "additionalProperties", "properties", "required"}
	itemStrKeys    = []string{"type", "pattern", "minLength", "maxLength", "enum"}
)

// desiredCtx carries what classification produces for one definition.
type desiredCtx struct {
	file      string
	ps        *problems
	legit     map[string]bool // schema pointers of accepted reference nodes and binding lists
	relations []Relation
	bindings  []bindingList
	projected []string // the Binding each binding-list property names, refused lists included
}

// bindingList remembers a binding-list field for the cross checks of docs/catalog-rules.md#loader-rules.
type bindingList struct {
	ptr      string // schema pointer of the property
	wire     string // wire name of the property
	relIdx   int    // index of its relation in desiredCtx.relations
	name     string // x-takoform-binding value
	itemName map[string]any
}

func (c *desiredCtx) unsupported(ptr, why string) {
	c.ps.add(c.file, ptr, "%s: %s", unsupportedShape, why)
}

// onlyKeywords refuses keywords outside allowed (prose is always allowed).
func (c *desiredCtx) onlyKeywords(ptr string, node map[string]any, allowed []string, shape string) {
	for _, k := range sortedKeys(node) {
		if !slices.Contains(allowed, k) && !slices.Contains(prose, k) {
			c.unsupported(ptrJoin(ptr, k), "keyword \""+k+"\" is not part of the "+shape+" shape")
		}
	}
}

// classify turns one property schema into a Field. wirePtr is the instance pointer
// ("/worker", "/versions/*/weight"); ptr is the schema pointer in the file. What
// the shape breaks is recorded as problems, and a Form with any never loads; a
// shape stops early only where going on would report what it already did (a
// broken reference node adds no relation).
func (c *desiredCtx) classify(ptr, wireName, wirePtr string, node map[string]any, member bool) Field {
	f := Field{Wire: wireName, Attr: Snake(wireName), Pointer: wirePtr, Description: str(node["description"])}
	if d, ok := node["default"]; ok {
		f.Default, _ = json.Marshal(d)
	}
	if isReferenceIntended(node) {
		t := parseReferenceNode(c.file, ptr, node, c.ps)
		c.legit[ptr] = true
		if t == nil {
			return f
		}
		f.Kind, f.Ref = FieldReference, t
		// the attribute holds the target's name, so it carries the name's constraints
		props, _ := node["properties"].(map[string]any)
		nameNode, _ := props["name"].(map[string]any)
		c.readString(&f, nameNode)
		c.relations = append(c.relations, Relation{Pointer: wirePtr, TargetAPIVersion: t.APIVersion, TargetKind: t.Kind,
			TargetFormRefs: t.TargetFormRefs, RequiredInterface: t.RequiredInterface})
		return f
	}
	typ, _ := node["type"].(string)
	switch typ {
	case "string":
		if enum, has := node["enum"]; has {
			f.Kind = FieldStringEnum
			f.Enum = stringList(enum)
			if len(f.Enum) == 0 {
				c.unsupported(ptrJoin(ptr, "enum"), "a string enum lists one or more strings")
			}
			c.onlyKeywords(ptr, node, enumKeywords, "string-enum")
			return f
		}
		f.Kind = FieldString
		c.readString(&f, node)
		c.onlyKeywords(ptr, node, stringKeywords, "string")
		return f
	case "integer":
		f.Kind = FieldInteger
		c.intKeyword(ptr, node, "minimum", &f.Min)
		c.intKeyword(ptr, node, "maximum", &f.Max)
		c.onlyKeywords(ptr, node, intKeywords, "integer")
		return f
	case "boolean":
		f.Kind = FieldBoolean
		c.onlyKeywords(ptr, node, boolKeywords, "boolean")
		return f
	case "object":
		if member {
			c.unsupported(ptr, "a member of an object or object-list item is a string, string-enum, integer, boolean or reference")
			return f
		}
		if _, hasProps := node["properties"]; hasProps {
			return c.object(ptr, f, node)
		}
		return c.jsonMap(ptr, f, node)
	case "array":
		if member {
			c.unsupported(ptr, "a member of an object or object-list item is a string, string-enum, integer, boolean or reference")
			return f
		}
		return c.array(ptr, f, node)
	}
	c.unsupported(ptr, "use one of the shapes string, string-enum, integer, boolean, string-set, string-list, json-map, object, reference, binding-list or object-list (a single \"type\", no composition keywords)")
	return f
}

func (c *desiredCtx) readString(f *Field, node map[string]any) {
	f.Pattern = str(node["pattern"])
	f.MinLength = intPtr(node["minLength"])
	f.MaxLength = intPtr(node["maxLength"])
}

func (c *desiredCtx) intKeyword(ptr string, node map[string]any, k string, dst **int64) {
	v, has := node[k]
	if !has {
		return
	}
	if n, ok := safeInt(v); ok {
		*dst = &n
	} else {
		c.unsupported(ptrJoin(ptr, k), "\""+k+"\" of an integer field must be an integer within ±(2^53−1)")
	}
}

// jsonMap classifies an object property without "properties" (classify sends one
// with them to object).
func (c *desiredCtx) jsonMap(ptr string, f Field, node map[string]any) Field {
	f.Kind = FieldJSONMap
	f.Attr += "_json"
	ap := node["additionalProperties"] // nil when absent
	_, isSchema := ap.(map[string]any)
	if !isSchema && ap != true {
		c.unsupported(ptr, "an object property is a reference node, a closed object (\"properties\" and \"additionalProperties\": false) or a json-map (\"additionalProperties\" a schema and no \"properties\")")
		return f
	}
	c.onlyKeywords(ptr, node, mapKeywords, "json-map")
	return f
}

// object classifies a closed object property: its members are scalars or references,
// each at the pointer below the property ("/assets/bundle"), so a relation may sit
// inside it (docs/catalog-rules.md#documents).
func (c *desiredCtx) object(ptr string, f Field, node map[string]any) Field {
	f.Kind = FieldObject
	c.onlyKeywords(ptr, node, objectKeywords, "object")
	if node["additionalProperties"] != false {
		c.unsupported(ptrJoin(ptr, "additionalProperties"), "an object property is closed: set \"additionalProperties\": false")
	}
	props, _ := node["properties"].(map[string]any)
	if len(props) == 0 {
		c.unsupported(ptrJoin(ptr, "properties"), "an object property declares one or more members under \"properties\"")
		return f
	}
	req := stringList(node["required"]) // a "required" that lists no names is the metaschema's line
	for i, r := range req {
		if _, has := props[r]; !has {
			c.unsupported(fmt.Sprintf("%s/required/%d", ptr, i), fmt.Sprintf("\"required\" names %q, which is not a declared member", r))
		}
	}
	for _, name := range sortedKeys(props) {
		mp := ptrJoin(ptr, "properties", name)
		mnode, _ := props[name].(map[string]any)
		if mnode == nil || !propertyNameRe.MatchString(name) {
			c.unsupported(mp, "a member is a schema object named by ^[a-z][a-zA-Z0-9]{0,63}$")
			continue
		}
		m := c.classify(mp, name, f.Pointer+"/"+wire.EscapePointerToken(name), mnode, true)
		m.Required = slices.Contains(req, name)
		f.Members = append(f.Members, m)
	}
	return f
}

func (c *desiredCtx) array(ptr string, f Field, node map[string]any) Field {
	f.MinItems, f.MaxItems = intPtr(node["minItems"]), intPtr(node["maxItems"])
	f.Unique = node["uniqueItems"] == true
	items, _ := node["items"].(map[string]any)
	if items == nil {
		c.unsupported(ptrJoin(ptr, "items"), "an array property needs an \"items\" schema object")
		return f
	}
	ip := ptrJoin(ptr, "items")
	if bname, has := node[annBinding]; has {
		return c.bindingList(ptr, f, node, items, bname)
	}
	switch items["type"] {
	case "string":
		f.Kind = FieldStringList
		if f.Unique {
			f.Kind = FieldStringSet
		}
		f.Enum = stringList(items["enum"])
		c.readString(&f, items)
		if _, has := items["enum"]; has && len(f.Enum) == 0 {
			c.unsupported(ptrJoin(ip, "enum"), "a string item enum lists one or more strings")
		}
		for _, k := range sortedKeys(items) {
			if !slices.Contains(itemStrKeys, k) && !slices.Contains(prose, k) {
				c.unsupported(ptrJoin(ip, k), "keyword \""+k+"\" is not part of a string item")
			}
		}
		c.onlyKeywords(ptr, node, arrayKeywords, "string-set/string-list")
		return f
	case "object":
		f.Kind = FieldObjectList
		f.Members = c.objectItem(ip, f.Pointer, items)
		c.onlyKeywords(ptr, node, arrayKeywords, "object-list")
		return f
	}
	c.unsupported(ip, "array items are a string, a string enum or a closed object")
	return f
}

// objectItem classifies the closed item object of an object-list.
func (c *desiredCtx) objectItem(ip, wirePtr string, items map[string]any) []Field {
	c.onlyKeywords(ip, items, itemKeywords, "object-list item")
	if items["additionalProperties"] != false {
		c.unsupported(ptrJoin(ip, "additionalProperties"), "an object-list item is closed: set \"additionalProperties\": false")
	}
	props, _ := items["properties"].(map[string]any)
	if len(props) == 0 {
		c.unsupported(ptrJoin(ip, "properties"), "an object-list item declares its members under \"properties\"")
		return nil
	}
	req := stringList(items["required"])
	var members []Field
	for _, name := range sortedKeys(props) {
		mp := ptrJoin(ip, "properties", name)
		node, _ := props[name].(map[string]any)
		if node == nil || !propertyNameRe.MatchString(name) {
			c.unsupported(mp, "a member is a schema object named by ^[a-z][a-zA-Z0-9]{0,63}$")
			continue
		}
		m := c.classify(mp, name, wirePtr+"/*/"+name, node, true)
		m.Required = slices.Contains(req, name)
		members = append(members, m)
	}
	return members
}

func (c *desiredCtx) bindingList(ptr string, f Field, node, items map[string]any, bname any) Field {
	f.Kind = FieldBindingList
	ip := ptrJoin(ptr, "items")
	props, _ := items["properties"].(map[string]any)
	// the annotation and the item's reference sit where they belong, even when the
	// list is refused below: what is wrong is said once, not again as a stray node
	c.legit[ptr+"#binding"] = true
	for k, v := range props {
		if m, _ := v.(map[string]any); m != nil && isReferenceIntended(m) {
			c.legit[ptrJoin(ip, "properties", k)] = true
		}
	}
	c.onlyKeywords(ptr, node, bindKeywords, "binding-list")
	name, _ := bname.(string) // "" when it is no string
	if name == "" {
		c.unsupported(ptrJoin(ptr, annBinding), annBinding+" names a Binding as a string")
		return f
	}
	c.projected = append(c.projected, name)
	c.onlyKeywords(ip, items, itemKeywords, "binding-list item")
	nameNode, _ := props["name"].(map[string]any)
	var refName string
	for k := range props {
		if k != "name" {
			refName = k
		}
	}
	// two members, and one of them "name" of type string (a missing name's type is nil)
	if items["additionalProperties"] != false || len(props) != 2 || nameNode["type"] != "string" ||
		!sameSet(stringList(items["required"]), []string{"name", refName}) {
		c.unsupported(ip, "a binding-list item is a closed object with exactly two required members: \"name\" (a string) and one reference member")
		return f
	}
	refNode, _ := props[refName].(map[string]any)
	if refNode == nil || !isReferenceIntended(refNode) {
		c.unsupported(ptrJoin(ip, "properties", refName), "the second member of a binding-list item must be a reference node")
		return f
	}
	nm := Field{Wire: "name", Attr: "name", Pointer: f.Pointer + "/*/name", Kind: FieldString, Required: true, Description: str(nameNode["description"])}
	c.readString(&nm, nameNode)
	for _, k := range sortedKeys(nameNode) {
		if !slices.Contains([]string{"type", "pattern", "minLength", "maxLength"}, k) && !slices.Contains(prose, k) {
			c.unsupported(ptrJoin(ip, "properties", "name", k), "keyword \""+k+"\" is not part of a binding name")
		}
	}
	before := len(c.ps.list)
	rm := c.classify(ptrJoin(ip, "properties", refName), refName, f.Pointer+"/*/"+refName, refNode, true)
	if len(c.ps.list) > before {
		return f // a broken reference node: no list for the binding checks to hold against it
	}
	rm.Attr, rm.Required = "target_name", true
	f.Members = []Field{nm, rm}
	f.RefMember = refName
	c.bindings = append(c.bindings, bindingList{ptr: ptr, wire: f.Wire, relIdx: len(c.relations) - 1, name: name, itemName: nameNode})
	return f
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

func intPtr(v any) *int64 {
	if n, ok := safeInt(v); ok {
		return &n
	}
	return nil
}
