package catalog

import (
	"encoding/json"
	"fmt"
	"regexp"
	"testing"
)

// The rules every schema of the catalog shares (docs/catalog-rules.md#schemas):
// patterns compile with Go regexp and integer keywords are safe integers, in
// every subschema, reported at the keyword's own pointer; a schema document
// is an object declaring Draft 2020-12. Broken in an Interface operation's
// inputSchema, which takes any keyword of the draft.
func TestSchemaBasicsReachEverySubschema(t *testing.T) {
	const lookahead = "^(?=a)b$"
	_, reErr := regexp.Compile(lookahead)
	const base = "/operations/0/inputSchema"
	patternLine := func(ptr string) string {
		return problemLine(ifaceD, base+ptr+"/pattern", "pattern does not compile with Go regexp (RE2): %v; rewrite it without ECMA-only constructs such as lookaround or backreferences", reErr)
	}
	schemaOf := func(c *tcat) obj { return c.iface["operations"].([]any)[0].(obj)["inputSchema"].(obj) }
	bad := func() obj { return obj{"type": "string", "pattern": lookahead} }
	var cases []problemCase
	for _, kw := range []string{"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"} {
		cases = append(cases, problemCase{"a pattern under " + kw, func(c *tcat) {
			m, _ := schemaOf(c)[kw].(obj)
			if m == nil {
				m = obj{}
			}
			m["x"] = bad()
			schemaOf(c)[kw] = m
		}, []string{patternLine("/" + kw + "/x")}})
	}
	for _, kw := range []string{"items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames",
		"unevaluatedItems", "unevaluatedProperties", "additionalItems", "contentSchema"} {
		cases = append(cases, problemCase{"a pattern under " + kw, func(c *tcat) { schemaOf(c)[kw] = bad() }, []string{patternLine("/" + kw)}})
	}
	for _, kw := range []string{"allOf", "anyOf", "oneOf", "prefixItems"} {
		cases = append(cases, problemCase{"a pattern in the second schema of " + kw, func(c *tcat) {
			schemaOf(c)[kw] = []any{obj{"type": "string"}, bad()}
		}, []string{patternLine("/" + kw + "/1")}})
	}
	cases = append(cases,
		problemCase{"a pattern two subschemas down", func(c *tcat) {
			schemaOf(c)["properties"].(obj)["key"] = obj{"type": "array", "items": obj{"anyOf": []any{bad()}}}
		}, []string{patternLine("/properties/key/items/anyOf/0")}},
		problemCase{"a patternProperties name that does not compile", func(c *tcat) {
			schemaOf(c)["patternProperties"] = obj{lookahead: obj{"type": "string"}}
		}, []string{problemLine(ifaceD, base+"/patternProperties/"+lookahead, "patternProperties key does not compile with Go regexp (RE2): %v", reErr)}},
		problemCase{"a schema that is not an object", func(c *tcat) { c.iface["operations"].([]any)[0].(obj)["inputSchema"] = true },
			[]string{problemLine(ifaceD, base, "a schema here must be a JSON object")}},
		problemCase{"a schema of another draft", func(c *tcat) { schemaOf(c)["$schema"] = "http://json-schema.org/draft-07/schema#" },
			[]string{problemLine(ifaceD, base+"/$schema", "schema must declare \"$schema\": %q", Draft202012)}},
	)
	for _, kw := range []string{"maxLength", "minLength", "maxItems", "minItems", "maxProperties", "minProperties", "maxContains", "minContains"} {
		for _, v := range []string{"9007199254740992", "-9007199254740992", "2.5", "1e300", `"3"`} {
			cases = append(cases, problemCase{fmt.Sprintf("%s %s", kw, v), func(c *tcat) {
				schemaOf(c)["properties"].(obj)["key"].(obj)[kw] = json.RawMessage(v)
			}, []string{problemLine(ifaceD, base+"/properties/key/"+kw, "%q must be an integer within ±(2^53−1)", kw)}})
		}
		// the largest safe integer, and one written as a float, pass this rule
		for _, v := range []string{"9007199254740991", "9007199254740991.0"} {
			cases = append(cases, problemCase{fmt.Sprintf("%s %s", kw, v), func(c *tcat) {
				schemaOf(c)["properties"].(obj)["key"].(obj)[kw] = json.RawMessage(v)
			}, nil})
		}
	}
	checkProblems(t, cases)
}
