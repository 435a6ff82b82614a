package catalog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Draft202012 is the only $schema catalog schemas may declare.
const Draft202012 = "https://json-schema.org/draft/2020-12/schema"

const maxSafeInt = 1<<53 - 1

// decodeGeneric parses raw JSON keeping numbers as json.Number.
func decodeGeneric(raw []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

// safeInt reads an integer within ±(2^53−1) from a JSON number.
func safeInt(v any) (int64, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	if i, err := n.Int64(); err == nil {
		return i, i >= -maxSafeInt && i <= maxSafeInt
	}
	f, err := n.Float64()
	if err != nil || f != math.Trunc(f) || math.Abs(f) > maxSafeInt {
		return 0, false
	}
	return int64(f), true
}

// rawInt reads a JSON number token (never a string) as a safe integer.
func rawInt(raw json.RawMessage) (int64, bool) {
	if len(raw) == 0 || (raw[0] != '-' && (raw[0] < '0' || raw[0] > '9')) {
		return 0, false
	}
	return safeInt(json.Number(raw))
}

// Subschema-holding keywords of Draft 2020-12, by how they hold schemas.
var (
	schemaMapKeywords   = []string{"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"}
	schemaOneKeywords   = []string{"items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames", "unevaluatedItems", "unevaluatedProperties", "additionalItems", "contentSchema"}
	schemaListKeywords  = []string{"allOf", "anyOf", "oneOf", "prefixItems"}
	integerKeywords     = []string{"maxLength", "minLength", "maxItems", "minItems", "maxProperties", "minProperties", "maxContains", "minContains"}
	compositionKeywords = []string{"allOf", "anyOf", "oneOf", "not", "if", "then", "else"}
)

// visitSchemas calls fn for node and every subschema beneath it, with its pointer.
func visitSchemas(node any, ptr string, fn func(obj map[string]any, ptr string)) {
	obj, ok := node.(map[string]any)
	if !ok {
		return
	}
	fn(obj, ptr)
	for _, k := range schemaMapKeywords {
		if m, ok := obj[k].(map[string]any); ok {
			for _, name := range sortedKeys(m) {
				visitSchemas(m[name], ptrJoin(ptr, k, name), fn)
			}
		}
	}
	for _, k := range schemaOneKeywords {
		if sub, ok := obj[k]; ok {
			visitSchemas(sub, ptrJoin(ptr, k), fn)
		}
	}
	for _, k := range schemaListKeywords {
		if arr, ok := obj[k].([]any); ok {
			for i, sub := range arr {
				visitSchemas(sub, fmt.Sprintf("%s/%d", ptrJoin(ptr, k), i), fn)
			}
		}
	}
}

// checkSchemaBasics enforces the rules every schema in the catalog shares: patterns
// compile with Go regexp (RE2) and integer keywords are safe integers.
func checkSchemaBasics(file, base string, node any, ps *problems) bool {
	before := len(ps.list)
	visitSchemas(node, base, func(obj map[string]any, ptr string) {
		if p, ok := obj["pattern"].(string); ok {
			if _, err := regexp.Compile(p); err != nil {
				ps.add(file, ptrJoin(ptr, "pattern"), "pattern does not compile with Go regexp (RE2): %v; rewrite it without ECMA-only constructs such as lookaround or backreferences", err)
			}
		}
		if pp, ok := obj["patternProperties"].(map[string]any); ok {
			for p := range pp {
				if _, err := regexp.Compile(p); err != nil {
					ps.add(file, ptrJoin(ptr, "patternProperties", p), "patternProperties key does not compile with Go regexp (RE2): %v", err)
				}
			}
		}
		for _, k := range integerKeywords {
			if v, ok := obj[k]; ok {
				if _, ok := safeInt(v); !ok {
					ps.add(file, ptrJoin(ptr, k), "%q must be an integer within ±(2^53−1)", k)
				}
			}
		}
	})
	return len(ps.list) == before
}

// schemaSet is the one compiler of a Load: it validates the Draft 2020-12 metaschema
// once and keeps every schema document, so fragments compile later without re-reading.
// jsonschema compilers are not safe for concurrent use, hence the mutex.
type schemaSet struct {
	mu sync.Mutex
	c  *jsonschema.Compiler
	n  int
}

func newSchemaSet() *schemaSet {
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	return &schemaSet{c: c}
}

// compiledDoc is one schema document held by a schemaSet.
type compiledDoc struct {
	set *schemaSet
	url string
}

// fragment compiles the subschema at pointer ("" for the root).
func (d *compiledDoc) fragment(pointer string) (*jsonschema.Schema, error) {
	d.set.mu.Lock()
	defer d.set.mu.Unlock()
	return d.set.c.Compile(d.url + "#" + pointer)
}

// compileSchema compiles one schema document under Draft 2020-12. It requires the
// $schema member naming that draft.
func compileSchema(file, ptr string, raw []byte, ps *problems) *jsonschema.Schema {
	s, _ := compileSchemaDoc(file, ptr, raw, ps)
	return s
}

func compileSchemaDoc(file, ptr string, raw []byte, ps *problems) (*jsonschema.Schema, *compiledDoc) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		ps.add(file, ptr, "schema is not JSON: %v", err)
		return nil, nil
	}
	obj, ok := doc.(map[string]any)
	if !ok {
		ps.add(file, ptr, "a schema here must be a JSON object")
		return nil, nil
	}
	if obj["$schema"] != Draft202012 {
		ps.add(file, ptrJoin(ptr, "$schema"), "schema must declare \"$schema\": %q", Draft202012)
		return nil, nil
	}
	if ps.schemas == nil {
		ps.schemas = newSchemaSet()
	}
	set := ps.schemas
	set.mu.Lock()
	set.n++
	d := &compiledDoc{set: set, url: fmt.Sprintf("https://catalog.takokit.invalid/schemas/%d.json", set.n)}
	err = set.c.AddResource(d.url, doc)
	set.mu.Unlock()
	if err != nil {
		ps.add(file, ptr, "schema cannot be added: %v", err)
		return nil, nil
	}
	s, err := d.fragment("")
	if err != nil {
		ps.add(file, ptr, "schema does not compile under JSON Schema Draft 2020-12: %s", oneLine(strings.ReplaceAll(err.Error(), d.url, file+"#"+ptr)))
		return nil, nil
	}
	return s, d
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sortStrings(keys)
	return keys
}
