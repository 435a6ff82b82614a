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
	"github.com/takokit/takokit/catalog/wire"
)

// Draft202012 is the only $schema catalog schemas may declare.
const Draft202012 = "https://json-schema.org/draft/2020-12/schema"

const maxSafeInt = 1<<53 - 1

// decodeGeneric parses raw JSON keeping numbers as json.Number.
func decodeGeneric(raw []byte) (any, error) {
	var v any
	if err := wire.DecodeNumbers(raw, &v); err != nil {
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

// rawInt reads a JSON number token as a safe integer. Any other token is not
// one: a string keeps its quotes, and neither it nor true, false, null, an
// array or an object parses as a number.
func rawInt(raw json.RawMessage) (int64, bool) {
	return safeInt(json.Number(raw))
}

// Subschema-holding keywords of Draft 2020-12, by how they hold schemas.
var (
	schemaMapKeywords  = []string{"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"}
	schemaOneKeywords  = []string{"items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames", "unevaluatedItems", "unevaluatedProperties", "additionalItems", "contentSchema"}
	schemaListKeywords = []string{"allOf", "anyOf", "oneOf", "prefixItems"}
	integerKeywords    = []string{"maxLength", "minLength", "maxItems", "minItems", "maxProperties", "minProperties", "maxContains", "minContains"}
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
	if ps.prechecked {
		return true
	}
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

// compileSchema compiles one schema document under Draft 2020-12 now, whatever the
// load mode: it serves checks that exist only to reject (Interface operation schemas).
// It requires the $schema member naming that draft.
func compileSchema(file, ptr string, raw []byte, ps *problems) *jsonschema.Schema {
	s, _, prob := ps.newLazySchema(file, ptr, raw).compile()
	if prob != nil {
		ps.list = append(ps.list, *prob)
	}
	return s
}

// schema returns a definition schema document. A checking load compiles it at once and
// reports what is wrong (nil then); a prechecked load defers compiling to first use.
func (ps *problems) schema(file, ptr string, raw []byte) *lazySchema {
	l := ps.newLazySchema(file, ptr, raw)
	if ps.prechecked {
		return l
	}
	if _, _, prob := l.compile(); prob != nil {
		ps.list = append(ps.list, *prob)
		return nil
	}
	return l
}

func (ps *problems) newLazySchema(file, ptr string, raw []byte) *lazySchema {
	if ps.schemas == nil {
		ps.schemas = newSchemaSet()
	}
	return &lazySchema{set: ps.schemas, file: file, ptr: ptr, raw: raw}
}

// lazySchema is one schema document of a definition, compiled once on first use, so a
// process that only serves the provider schema never pays for JSON Schema compilation.
type lazySchema struct {
	once      sync.Once
	set       *schemaSet
	file, ptr string
	raw       []byte
	s         *jsonschema.Schema
	doc       *compiledDoc
	prob      *Problem
}

// compile returns the compiled schema and its document, or the problem that stops it.
// A nil lazySchema (no such schema) returns nothing.
func (l *lazySchema) compile() (*jsonschema.Schema, *compiledDoc, *Problem) {
	if l == nil {
		return nil, nil, nil
	}
	l.once.Do(func() { l.s, l.doc, l.prob = compileDoc(l.set, l.file, l.ptr, l.raw) })
	return l.s, l.doc, l.prob
}

func compileDoc(set *schemaSet, file, ptr string, raw []byte) (*jsonschema.Schema, *compiledDoc, *Problem) {
	bad := func(p, format string, args ...any) (*jsonschema.Schema, *compiledDoc, *Problem) {
		return nil, nil, &Problem{File: file, Pointer: p, Message: fmt.Sprintf(format, args...)}
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return bad(ptr, "schema is not JSON: %v", err)
	}
	obj, ok := doc.(map[string]any)
	if !ok {
		return bad(ptr, "a schema here must be a JSON object")
	}
	if obj["$schema"] != Draft202012 {
		return bad(ptrJoin(ptr, "$schema"), "schema must declare \"$schema\": %q", Draft202012)
	}
	set.mu.Lock()
	set.n++
	d := &compiledDoc{set: set, url: fmt.Sprintf("https://catalog.takokit.invalid/schemas/%d.json", set.n)}
	err = set.c.AddResource(d.url, doc)
	set.mu.Unlock()
	if err != nil {
		return bad(ptr, "schema cannot be added: %v", err)
	}
	s, err := d.fragment("")
	if err != nil {
		return bad(ptr, "schema does not compile under JSON Schema Draft 2020-12: %s", oneLine(strings.ReplaceAll(err.Error(), d.url, file+"#"+ptr)))
	}
	return s, d, nil
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

// lazyPattern is one of the loader's grammars, compiled when first matched: their
// bounded repetitions ({0,127}) make compiling them all at package init cost more than
// a prechecked load itself.
type lazyPattern struct {
	pattern string
	once    sync.Once
	re      *regexp.Regexp
}

func lazyRegexp(pattern string) *lazyPattern { return &lazyPattern{pattern: pattern} }

func (l *lazyPattern) MatchString(s string) bool {
	l.once.Do(func() { l.re = regexp.MustCompile(l.pattern) })
	return l.re.MatchString(s)
}

func (l *lazyPattern) String() string { return l.pattern }
