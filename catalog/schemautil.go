package catalog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strings"

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

// compileSchema compiles one schema document under Draft 2020-12. It requires the
// $schema member naming that draft.
func compileSchema(file, ptr string, raw []byte, ps *problems) *jsonschema.Schema {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		ps.add(file, ptr, "schema is not JSON: %v", err)
		return nil
	}
	obj, ok := doc.(map[string]any)
	if !ok {
		ps.add(file, ptr, "a schema here must be a JSON object")
		return nil
	}
	if obj["$schema"] != Draft202012 {
		ps.add(file, ptrJoin(ptr, "$schema"), "schema must declare \"$schema\": %q", Draft202012)
		return nil
	}
	url := "https://catalog.takokit.invalid/" + strings.ReplaceAll(file, " ", "_") + strings.ReplaceAll(ptr, "$", "_") + ".json"
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource(url, doc); err != nil {
		ps.add(file, ptr, "schema cannot be added: %v", err)
		return nil
	}
	s, err := c.Compile(url)
	if err != nil {
		ps.add(file, ptr, "schema does not compile under JSON Schema Draft 2020-12: %s", oneLine(err.Error()))
		return nil
	}
	return s
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
