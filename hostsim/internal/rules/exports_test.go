package rules

import (
	"slices"
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog/wire"
)

const jsModule = "application/javascript+module"

func TestExportedHandlers(t *testing.T) {
	cases := []struct {
		name, mediaType, src string
		want                 []string
	}{
		{"spec example fetch only", jsModule, `export default { async fetch() { return new Response("ok"); } };`, []string{"fetch"}},
		{"spec example all three", jsModule, "export default { async fetch() {}, async scheduled() {}, async queue() {} };", []string{"fetch", "scheduled", "queue"}},
		{"text/plain is scanned", "text/plain", `export default { queue(b) {} }`, []string{"queue"}},
		{"wasm exports nothing", "application/wasm", `export default { fetch() {} }`, nil},
		{"octet-stream exports nothing", "application/octet-stream", `export default { fetch() {} }`, nil},
		{"source map exports nothing", "application/source-map+json", `export default { fetch() {} }`, nil},
		{"invalid UTF-8 exports nothing", jsModule, "export default { fetch() {} } // \xff", nil},
		{"no export default", jsModule, `export const fetch = () => 1;`, nil},
		{"export default of a name", jsModule, `const h = { fetch() {} }; export default h;`, nil},
		{"property colon form", jsModule, `export default { fetch: handle, scheduled : other }`, []string{"fetch", "scheduled"}},
		{"quoted names", jsModule, `export default { "fetch"() {}, 'queue': q }`, []string{"fetch", "queue"}},
		{"generator and async generator", jsModule, `export default { *fetch() {}, async *queue() {} }`, []string{"fetch", "queue"}},
		{"member named async", jsModule, `export default { async() {}, fetch() {} }`, []string{"fetch"}},
		{"property named async", jsModule, `export default { async: 1, fetch() {} }`, []string{"fetch"}},
		{"line comment ended by a carriage return", jsModule, "// a comment\rexport default { queue() {} }", []string{"queue"}},
		{"a slash as the last byte before any export", jsModule, "const a = 2 /", nil},
		{"a slash as the last byte inside the object", jsModule, "export default { fetch() { return 1 /", nil},
		{"shorthand does not count", jsModule, `export default { fetch, scheduled }`, nil},
		{"nested members do not count", jsModule, `export default { fetch() { const o = { queue() {}, scheduled: 1 }; return o; } }`, []string{"fetch"}},
		{"members inside parens and brackets skipped", jsModule, `export default { fetch: wrap({ queue: 1 }, [ { scheduled: 2 } ]) }`, []string{"fetch"}},
		{"comment before export ignored", jsModule, "/* export default { queue() {} } */\nexport default { fetch() {} }", []string{"fetch"}},
		{"line comment before export ignored", jsModule, "// export default { queue() {} }\nexport default { scheduled() {} }", []string{"scheduled"}},
		{"string containing export ignored", jsModule, `const s = "export default { queue() {} }"; export default { fetch() {} }`, []string{"fetch"}},
		{"template containing export ignored", jsModule, "const s = `export default { queue() {} }`; export default { fetch() {} }", []string{"fetch"}},
		{"first export default wins", jsModule, `export default { fetch() {} }; export default { queue() {} }`, []string{"fetch"}},
		{"export of other things first", jsModule, "export const a = 1;\nexport function b() {}\nexport default {\n  // the handler\n  async fetch(req, env) {\n    return env.X;\n  },\n}", []string{"fetch"}},
		{"braces in strings inside body", jsModule, `export default { fetch() { return "}{" + '}' + ` + "`}`" + `; }, queue() {} }`, []string{"fetch", "queue"}},
		{"comments between members", jsModule, "export default { fetch() {}, /* the cron */ scheduled() {}, // q\n queue() {} }", []string{"fetch", "scheduled", "queue"}},
		{"export needs whitespace before default", jsModule, `export/**/default { fetch() {} }`, nil},
		{"identifier ending in export", jsModule, `myexport default { fetch() {} }`, nil},
		{"whitespace between default and brace optional", jsModule, "export\n\tdefault{fetch(){}}", []string{"fetch"}},
		{"unterminated object exports nothing", jsModule, `export default { fetch() {}`, nil},
		{"mismatched brackets export nothing", jsModule, `export default { fetch() { ] }`, nil},
		{"unterminated string exports nothing", jsModule, `export default { fetch() { return "x }`, nil},
		{"unterminated block comment exports nothing", jsModule, `export default { fetch() {} /* }`, nil},
		{"unknown names ignored", jsModule, `export default { tail() {}, email() {}, fetch() {} }`, []string{"fetch"}},
		{"order is vocabulary order", jsModule, `export default { queue() {}, fetch() {} }`, []string{"fetch", "queue"}},
		{"computed key skipped", jsModule, `export default { ["fetch"]() {}, queue() {} }`, []string{"queue"}},
		{"escaped quote in string", jsModule, `export default { fetch() { return "a\"}"; }, scheduled() {} }`, []string{"fetch", "scheduled"}},
		{"name followed by space then paren", jsModule, `export default { fetch () {} }`, []string{"fetch"}},
		{"a closing brace without export default exports nothing", jsModule, `queue() {} }`, nil},
		{"a byte order mark is whitespace", jsModule, "export\uFEFFdefault {fetch(){}}", []string{"fetch"}},
		{"identifier _export is not export", jsModule, `_export default { fetch() {} }`, nil},
		{"identifier $export is not export", jsModule, `$export default { fetch() {} }`, nil},
		{"identifier x1export is not export", jsModule, `x1export default { fetch() {} }`, nil},
		{"a digit glued before export", jsModule, `2export default { fetch() {} }`, nil},
		{"a comment right before export", jsModule, `/* c */export default { fetch() {} }`, []string{"fetch"}},
		{"a string right before export", jsModule, `"use strict"export default { queue() {} }`, []string{"queue"}},
		{"export default of a name, then of an object", jsModule, `export default h; export default { fetch() {} }`, []string{"fetch"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := ExportedHandlers(c.mediaType, []byte(c.src))
			if !slices.Equal(got, c.want) {
				t.Fatalf("ExportedHandlers(%q) = %q, want %q", c.src, got, c.want)
			}
		})
	}
}

func TestCheckHandlersExported(t *testing.T) {
	exported := ExportedHandlers(jsModule, []byte(`export default { async fetch() { return new Response("ok"); } };`))
	if r := CheckHandlersExported("/handlers", []string{"fetch"}, exported, `main module "index.js"`); r != nil {
		t.Fatalf("declared fetch refused: %v", r)
	}
	r := CheckHandlersExported("/handlers", []string{"fetch", "scheduled", "queue"}, exported, `main module "index.js"`)
	if r == nil || r.Code != wire.CodeInvalidArgument || r.Pointer != "/handlers" {
		t.Fatalf("refusal = %+v, want invalid_argument at /handlers", r)
	}
	for _, want := range []string{`"scheduled", "queue"`, `main module "index.js"`, `exports "fetch"`, "/handlers"} {
		if !strings.Contains(r.Message, want) {
			t.Errorf("message %q lacks %q", r.Message, want)
		}
	}
	if strings.Contains(r.Message, `"fetch" not exported`) {
		t.Errorf("message names an exported handler as missing: %q", r.Message)
	}
	r = CheckHandlersExported("/handlers", []string{"fetch"}, nil, "main module")
	if r == nil || !strings.Contains(r.Message, "exports nothing") {
		t.Fatalf("refusal for a module exporting nothing = %+v", r)
	}
}

// FuzzExportedHandlers: the scanner never panics and reports only vocabulary names.
func FuzzExportedHandlers(f *testing.F) {
	f.Add([]byte(`export default { async fetch() {}, "queue": 1, *scheduled() {} }`))
	f.Add([]byte("export default {`"))
	f.Add([]byte("export default { async"))
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, h := range ExportedHandlers(jsModule, b) {
			if !slices.Contains(HandlerVocabulary, h) {
				t.Fatalf("reported %q outside the vocabulary", h)
			}
		}
	})
}
