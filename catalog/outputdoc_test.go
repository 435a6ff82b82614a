package catalog

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Every rule of a Form's outputSchema (decision 0025 as docs/catalog-rules.md#loader-rules
// states it), one broken at a time: the whole list of problems is that rule's
// line, and what a rule allows loads.
func TestOutputSchemaRules(t *testing.T) {
	line := func(ptr, msg string, args ...any) string {
		return problemLine(gadget1, ptr, msg, args...)
	}
	lines := func(l ...string) []string { return l }
	out := func(c *tcat) obj { return outputsOf(c) }
	prop := func(c *tcat, name string) obj { return at(outputsOf(c), "properties/"+name) }
	// onlyAddress leaves address the one output, its fixtures following.
	onlyAddress := func(c *tcat) {
		f := c.form("Gadget", "0.1.0")
		out(c)["properties"] = obj{"address": prop(c, "address")}
		out(c)["required"] = []any{"address"}
		f.fixtures["fixtures/outputs.json"] = obj{"address": "here"}
		f.fixtures["fixtures/negative-output-port.json"] = obj{"address": "HERE"}
	}
	checkProblems(t, []problemCase{
		{"outputSchema not an object", func(c *tcat) { c.form("Gadget", "0.1.0").def["outputSchema"] = []any{} },
			lines(line("/outputSchema", "outputSchema must be a JSON Schema object"))},
		{"a root keyword outside the closed object", func(c *tcat) { out(c)["$defs"] = obj{} },
			lines(line("/outputSchema/$defs", `keyword "$defs" is not allowed at the outputSchema root; outputs are a closed object of scalar members`))},
		{"a root without a type", func(c *tcat) { delete(out(c), "type") },
			lines(line("/outputSchema/type", `outputSchema must have "type": "object"`))},
		{"no outputs", func(c *tcat) { out(c)["properties"] = obj{}; out(c)["required"] = []any{} },
			lines(line("/outputSchema/properties", `outputSchema declares no outputs; list them under "properties" or drop outputSchema`))},
		{"one output", onlyAddress, nil},
		{"required names no output", func(c *tcat) { out(c)["required"] = []any{"address", "port", "missing"} },
			lines(line("/outputSchema/required", `"required" names "missing", which is not a declared output`))},
		{"a member that is no schema object", func(c *tcat) { out(c)["properties"].(obj)["port"] = true },
			lines(line("/outputSchema/properties/port", "an output member is a schema object"))},
		{"a name outside the grammar", func(c *tcat) {
			out(c)["properties"].(obj)["Port"] = prop(c, "port")
			delete(out(c)["properties"].(obj), "port")
			out(c)["required"] = []any{"Port", "address"}
			f := c.form("Gadget", "0.1.0")
			f.fixtures["fixtures/outputs.json"] = obj{"address": "here", "Port": 443}
			f.fixtures["fixtures/negative-output-port.json"] = obj{"address": "here", "Port": 0}
		}, lines(line("/outputSchema/properties/Port", `output name "Port" must match ^[a-z][a-zA-Z0-9]{0,63}$`))},
		{"a default", func(c *tcat) { prop(c, "port")["default"] = 443 },
			lines(line("/outputSchema/properties/port/default", `output member declares "default"; outputs are host answers and carry no default`))},
		{"an array", func(c *tcat) {
			out(c)["properties"].(obj)["port"] = obj{"type": "array", "items": obj{"type": "integer"}}
		},
			lines(line("/outputSchema/properties/port/type", "output member must have a single \"type\" of string, integer or boolean; arrays, objects and null are not outputs"))},
		{"a broken output named in immutableFields", func(c *tcat) {
			out(c)["properties"].(obj)["port"] = obj{"type": "array", "items": obj{"type": "integer"}}
			c.form("Gadget", "0.1.0").def["immutableFields"] = []any{"/holder", "/port"}
		}, lines(line("/immutableFields/1", `"/port" names an output; outputs are host answers, not desired state, and cannot be immutable fields`),
			line("/outputSchema/properties/port/type", "output member must have a single \"type\" of string, integer or boolean; arrays, objects and null are not outputs"))},
		{"a reference annotation", func(c *tcat) { prop(c, "address")["x-takoform-binding"] = "holder.store" },
			lines(line("/outputSchema/properties/address/x-takoform-binding", `output member carries annotation "x-takoform-binding"; an output is never a reference`))},
		{"a keyword of another type", func(c *tcat) { prop(c, "port")["maxLength"] = 5 },
			lines(line("/outputSchema/properties/port/maxLength", `keyword "maxLength" is not allowed on a integer output; use only description, title and the constraints of its type (minimum, maximum, enum)`))},
		{"a format", func(c *tcat) { prop(c, "address")["format"] = "hostname" },
			lines(line("/outputSchema/properties/address/format", `keyword "format" is not allowed on a string output; use only description, title and the constraints of its type (pattern, minLength, maxLength, enum)`))},
		{"a title and a description", func(c *tcat) { prop(c, "port")["title"] = "Port"; prop(c, "port")["description"] = "The port." }, nil},
		{"a pattern without its ^", func(c *tcat) { prop(c, "address")["pattern"] = "[a-z]+$" },
			lines(line("/outputSchema/properties/address/pattern", "output pattern must be anchored: start with ^ and end with $"))},
		{"a pattern without its $", func(c *tcat) { prop(c, "address")["pattern"] = "^[a-z]+" },
			lines(line("/outputSchema/properties/address/pattern", "output pattern must be anchored: start with ^ and end with $"))},
		{"a minimum that is no integer", func(c *tcat) { prop(c, "port")["minimum"] = 0.5 },
			lines(line("/outputSchema/properties/port/minimum", `"minimum" of an integer output must be an integer within ±(2^53−1)`))},
		{"a maximum past 2^53−1", func(c *tcat) { prop(c, "port")["maximum"] = float64(1 << 60) },
			lines(line("/outputSchema/properties/port/maximum", `"maximum" of an integer output must be an integer within ±(2^53−1)`))},
		{"an enum value of another type", func(c *tcat) { prop(c, "port")["enum"] = []any{443, "https"} },
			lines(line("/outputSchema/properties/port/enum/1", "enum value is not a integer"))},
		{"a boolean enum", func(c *tcat) {
			out(c)["properties"].(obj)["healthy"] = obj{"type": "boolean", "enum": []any{true}}
			out(c)["required"] = []any{"address", "healthy", "port"}
			f := c.form("Gadget", "0.1.0")
			f.fixtures["fixtures/outputs.json"] = obj{"address": "here", "port": 443, "healthy": true}
			f.fixtures["fixtures/negative-output-port.json"] = obj{"address": "here", "port": 0, "healthy": true}
		}, nil},
	})
}

// A loaded Form's outputs are what its outputSchema declares, member by member:
// the provider's computed attributes and hostsim's output checks derive from them.
func TestOutputsAreDerivedInFull(t *testing.T) {
	c := baseCatalog()
	f := c.form("Gadget", "0.1.0")
	props := at(f.def, "outputSchema/properties")
	props["portNumber"] = obj{"type": "integer", "title": "Port number", "description": "The port's number.", "enum": []any{443, 8443}}
	props["tls"] = obj{"type": "boolean", "enum": []any{true}}
	props["zone"] = obj{"type": "string", "minLength": 2, "enum": []any{"eu", "us"}}
	at(f.def, "outputSchema")["required"] = sortedAny(props)
	f.fixtures["fixtures/outputs.json"] = obj{"address": "here", "port": 443, "portNumber": 443, "tls": true, "zone": "eu"}
	f.fixtures["fixtures/negative-output-port.json"] = obj{"address": "here", "port": 0, "portNumber": 443, "tls": true, "zone": "eu"}
	cat, err := Load(mapFS(c.seal(t)))
	if err != nil {
		t.Fatal(err)
	}
	k, _ := cat.Kind(tGroup, "Gadget")
	form, ok := k.Version("0.1.0")
	if !ok {
		t.Fatal("Gadget 0.1.0 did not load")
	}
	n := func(v int64) *int64 { return &v }
	want := []Output{
		{Wire: "address", Attr: "address", Type: "string", Pattern: "^[a-z]+$", Description: "Address.", MaxLength: n(20)},
		{Wire: "port", Attr: "port", Type: "integer", Description: "Port.", Min: n(1), Max: n(65535)},
		{Wire: "portNumber", Attr: "port_number", Type: "integer", Description: "The port's number.", Enum: []string{"443", "8443"}},
		{Wire: "tls", Attr: "tls", Type: "boolean", Enum: []string{"true"}},
		{Wire: "zone", Attr: "zone", Type: "string", MinLength: n(2), Enum: []string{"eu", "us"}},
	}
	if d := cmp.Diff(want, form.Outputs); d != "" {
		t.Errorf("Gadget 0.1.0 outputs (-want +got):\n%s", d)
	}
}
