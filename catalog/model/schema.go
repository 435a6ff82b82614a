package model

import (
	"fmt"
	"math/big"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/takokit/takokit/catalog/wire"
)

// Schema is one JSON Schema document (Draft 2020-12) compiled by the model's own
// validator. It knows the keywords catalog schemas are made of (docs/catalog-rules.md):
// type, const, enum, pattern, minLength, maxLength, minimum, maximum, exclusiveMinimum,
// exclusiveMaximum, properties, required, additionalProperties, propertyNames,
// minProperties, maxProperties, items, minItems, maxItems, uniqueItems and local $ref
// into $defs, with the annotations ignored as Draft 2020-12 ignores them (format
// included: the catalog never asserts formats). CompileSchema refuses any other
// applicator or assertion, so a document it compiles means what a JSON Schema engine
// makes of it; catalog's differential test holds the two to the same verdicts.
type Schema struct {
	root *schemaNode
}

// schemaNode is one compiled (sub)schema.
type schemaNode struct {
	never bool // the boolean schema false
	types []string
	// constant and enum hold decoded JSON values (numbers as json.Number)
	hasConst   bool
	constant   any
	enum       []any
	pattern    *regexp.Regexp
	minLen     *int
	maxLen     *int
	minimum    *big.Rat
	maximum    *big.Rat
	exclMin    *big.Rat
	exclMax    *big.Rat
	properties map[string]*schemaNode
	required   []string
	additional *schemaNode // nil: any member allowed
	propNames  *schemaNode
	minProps   *int
	maxProps   *int
	items      *schemaNode
	minItems   *int
	maxItems   *int
	unique     bool
	ref        *schemaNode
}

// Keywords the compiler reads, and those it ignores because Draft 2020-12 only
// annotates with them (or holds subschemas only reachable through $ref).
var (
	nativeKeywords = []string{"type", "const", "enum", "pattern", "minLength", "maxLength", "minimum", "maximum",
		"exclusiveMinimum", "exclusiveMaximum", "properties", "required", "additionalProperties", "propertyNames",
		"minProperties", "maxProperties", "items", "minItems", "maxItems", "uniqueItems", "$ref"}
	annotationKeywords = []string{"$schema", "$defs", "definitions", "$comment", "title", "description", "default",
		"examples", "deprecated", "readOnly", "writeOnly", "format", "contentEncoding", "contentMediaType", "contentSchema"}
	// refusedKeywords are the other keywords of Draft 2020-12 (and earlier drafts'
	// spellings): a schema using one is not compiled rather than half understood.
	refusedKeywords = []string{"allOf", "anyOf", "oneOf", "not", "if", "then", "else", "dependentSchemas",
		"dependentRequired", "prefixItems", "contains", "minContains", "maxContains", "patternProperties",
		"unevaluatedItems", "unevaluatedProperties", "multipleOf", "$id", "$anchor", "$dynamicRef", "$dynamicAnchor",
		"$recursiveRef", "$recursiveAnchor", "$vocabulary", "dependencies", "additionalItems", "id"}
	jsonTypes = []string{"null", "boolean", "object", "array", "number", "integer", "string"}
)

// CompileSchema compiles a JSON Schema document with the model's own validator. It
// refuses a keyword outside the set Schema lists and a malformed keyword value.
func CompileSchema(raw []byte) (*Schema, error) {
	doc, err := decodeJSON(raw)
	if err != nil {
		return nil, fmt.Errorf("schema is not JSON: %w", err)
	}
	c := &schemaCompiler{doc: doc, nodes: map[string]*schemaNode{}}
	root, err := c.compile("")
	if err != nil {
		return nil, err
	}
	return &Schema{root: root}, nil
}

// Property returns the compiled subschema of one top-level property (its $refs resolve
// within the whole document), or nil when the document declares no such property.
func (s *Schema) Property(name string) *Schema {
	if s == nil || s.root == nil {
		return nil
	}
	for n := s.root; n != nil; n = n.ref {
		if p, ok := n.properties[name]; ok {
			return &Schema{root: p}
		}
	}
	return nil
}

type schemaCompiler struct {
	doc   any
	nodes map[string]*schemaNode // by JSON Pointer, so a $ref cycle ends at a node being built
}

func (c *schemaCompiler) compile(ptr string) (*schemaNode, error) {
	if n, ok := c.nodes[ptr]; ok {
		return n, nil
	}
	v, ok := resolvePointer(c.doc, ptr)
	if !ok {
		return nil, fmt.Errorf("%s: no schema at this location", quotePtr(ptr))
	}
	n := &schemaNode{}
	c.nodes[ptr] = n
	switch s := v.(type) {
	case bool:
		n.never = !s
		return n, nil
	case map[string]any:
		return n, c.fill(n, ptr, s)
	}
	return nil, fmt.Errorf("%s: a schema is an object or a boolean", quotePtr(ptr))
}

func (c *schemaCompiler) fill(n *schemaNode, ptr string, s map[string]any) error {
	bad := func(k, why string) error {
		return fmt.Errorf("%s: %s", quotePtr(ptr+"/"+wire.EscapePointerToken(k)), why)
	}
	for k := range s {
		if slices.Contains(refusedKeywords, k) {
			return bad(k, "keyword \""+k+"\" is not one the model's validator knows; the catalog's schemas do not use it")
		}
	}
	var err error
	if t, ok := s["type"]; ok {
		if n.types, err = typeList(t); err != nil {
			return bad("type", err.Error())
		}
	}
	if v, ok := s["const"]; ok {
		n.hasConst, n.constant = true, v
	}
	if v, ok := s["enum"]; ok {
		arr, isArr := v.([]any)
		if !isArr {
			return bad("enum", "enum is an array")
		}
		n.enum = arr
		if n.enum == nil {
			n.enum = []any{}
		}
	}
	if v, ok := s["pattern"]; ok {
		p, isStr := v.(string)
		if !isStr {
			return bad("pattern", "pattern is a string")
		}
		if n.pattern, err = CompilePattern(p); err != nil {
			return bad("pattern", err.Error())
		}
	}
	for _, nk := range []struct {
		k   string
		dst **int
	}{{"minLength", &n.minLen}, {"maxLength", &n.maxLen}, {"minProperties", &n.minProps}, {"maxProperties", &n.maxProps},
		{"minItems", &n.minItems}, {"maxItems", &n.maxItems}} {
		if v, ok := s[nk.k]; ok {
			if *nk.dst, err = count(v); err != nil {
				return bad(nk.k, err.Error())
			}
		}
	}
	for _, nk := range []struct {
		k   string
		dst **big.Rat
	}{{"minimum", &n.minimum}, {"maximum", &n.maximum}, {"exclusiveMinimum", &n.exclMin}, {"exclusiveMaximum", &n.exclMax}} {
		if v, ok := s[nk.k]; ok {
			r, isNum := ratOf(v)
			if !isNum {
				return bad(nk.k, nk.k+" is a number")
			}
			*nk.dst = r
		}
	}
	if v, ok := s["uniqueItems"]; ok {
		b, isBool := v.(bool)
		if !isBool {
			return bad("uniqueItems", "uniqueItems is a boolean")
		}
		n.unique = b
	}
	if v, ok := s["required"]; ok {
		arr, isArr := v.([]any)
		if !isArr {
			return bad("required", "required lists member names")
		}
		for _, x := range arr {
			name, isStr := x.(string)
			if !isStr {
				return bad("required", "required lists member names")
			}
			n.required = append(n.required, name)
		}
	}
	if v, ok := s["properties"]; ok {
		props, isObj := v.(map[string]any)
		if !isObj {
			return bad("properties", "properties maps member names to schemas")
		}
		n.properties = make(map[string]*schemaNode, len(props))
		for name := range props {
			if n.properties[name], err = c.compile(ptr + "/properties/" + wire.EscapePointerToken(name)); err != nil {
				return err
			}
		}
	}
	for _, sub := range []struct {
		k   string
		dst **schemaNode
	}{{"additionalProperties", &n.additional}, {"propertyNames", &n.propNames}, {"items", &n.items}} {
		if _, ok := s[sub.k]; ok {
			if *sub.dst, err = c.compile(ptr + "/" + sub.k); err != nil {
				return err
			}
		}
	}
	if v, ok := s["$ref"]; ok {
		ref, isStr := v.(string)
		if !isStr || !strings.HasPrefix(ref, "#") {
			return bad("$ref", "only a reference within the same document (\"#/$defs/…\") is supported")
		}
		target, err := unescapeFragment(ref[1:])
		if err != nil {
			return bad("$ref", err.Error())
		}
		if n.ref, err = c.compile(target); err != nil {
			return err
		}
	}
	return nil
}

func typeList(t any) ([]string, error) {
	var names []string
	switch v := t.(type) {
	case string:
		names = []string{v}
	case []any:
		for _, x := range v {
			s, ok := x.(string)
			if !ok {
				return nil, fmt.Errorf("type lists type names")
			}
			names = append(names, s)
		}
	default:
		return nil, fmt.Errorf("type is a type name or a list of them")
	}
	for _, s := range names {
		if !slices.Contains(jsonTypes, s) {
			return nil, fmt.Errorf("%q is not a JSON Schema type", s)
		}
	}
	return names, nil
}

func count(v any) (*int, error) {
	r, ok := ratOf(v)
	if !ok || !r.IsInt() || r.Sign() < 0 || !r.Num().IsInt64() || r.Num().Int64() > 1<<31 {
		return nil, fmt.Errorf("must be a non-negative integer")
	}
	n := int(r.Num().Int64())
	return &n, nil
}

// unescapeFragment turns a URI fragment holding a JSON Pointer into the pointer.
func unescapeFragment(frag string) (string, error) {
	if frag != "" && frag[0] != '/' {
		return "", fmt.Errorf("only a JSON Pointer fragment is supported, not the anchor %q", frag)
	}
	if !strings.Contains(frag, "%") {
		return frag, nil
	}
	var b strings.Builder
	for i := 0; i < len(frag); i++ {
		if frag[i] != '%' {
			b.WriteByte(frag[i])
			continue
		}
		if i+2 >= len(frag) {
			return "", fmt.Errorf("bad percent escape in %q", frag)
		}
		x, err := strconv.ParseUint(frag[i+1:i+3], 16, 8)
		if err != nil {
			return "", fmt.Errorf("bad percent escape in %q", frag)
		}
		b.WriteByte(byte(x))
		i += 2
	}
	return b.String(), nil
}

// resolvePointer follows a JSON Pointer through a decoded document.
func resolvePointer(doc any, ptr string) (any, bool) {
	if ptr == "" {
		return doc, true
	}
	cur := doc
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch c := cur.(type) {
		case map[string]any:
			v, ok := c[tok]
			if !ok {
				return nil, false
			}
			cur = v
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(c) {
				return nil, false
			}
			cur = c[i]
		default:
			return nil, false
		}
	}
	return cur, true
}

func quotePtr(p string) string {
	if p == "" {
		return `""`
	}
	return p
}

// decodeJSON parses one JSON document keeping numbers as json.Number.
func decodeJSON(raw []byte) (any, error) {
	var v any
	if err := wire.DecodeNumbers(raw, &v); err != nil {
		return nil, err
	}
	return v, nil
}

// patterns caches every compiled pattern of the process by its source: catalog schemas
// repeat the same grammars (reference names above all) across Forms.
var patterns sync.Map // string -> *regexp.Regexp

// CompilePattern compiles a schema pattern (Go regexp syntax, as the catalog requires)
// once per process; later calls with the same source share the result.
func CompilePattern(p string) (*regexp.Regexp, error) {
	if re, ok := patterns.Load(p); ok {
		return re.(*regexp.Regexp), nil
	}
	re, err := regexp.Compile(p)
	if err != nil {
		return nil, err
	}
	actual, _ := patterns.LoadOrStore(p, re)
	return actual.(*regexp.Regexp), nil
}
