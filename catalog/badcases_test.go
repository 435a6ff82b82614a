package catalog

import (
	"bytes"
	"regexp"
	"strings"
)

// badCase breaks exactly one authoring rule of the base test catalog.
type badCase struct {
	rule     string        // directory under testdata/bad/
	mutate   func(c *tcat) // applied before sealing (or registers a post edit)
	file     string        // expected file of the error line
	pointer  string        // expected JSON Pointer
	fragment string        // stable fragment of the message
}

const (
	gadget1  = "forms/" + tFamily + "/gadget/0.1.0/definition.json"
	holderD  = "forms/" + tFamily + "/holder/definition.json"
	storeD   = "forms/" + tFamily + "/store/definition.json"
	ifaceD   = "interfaces/v1alpha1/example.store/definition.json"
	bindingD = "bindings/v1alpha1/holder.store/definition.json"
)

func outputsOf(c *tcat) obj { return at(c.form("Gadget", "0.1.0").def, "outputSchema") }
func propsOf(c *tcat, kind, version string) obj {
	return at(c.form(kind, version).def, "desiredSchema/properties")
}

var badCases = []badCase{
	{rule: "output-pattern-not-regexp", mutate: func(c *tcat) { at(outputsOf(c), "properties/address")["pattern"] = "^[a-z+$" },
		file: gadget1, pointer: "/outputSchema/properties/address/pattern", fragment: "pattern does not compile with Go regexp"},
	{rule: "open-output-schema", mutate: func(c *tcat) { delete(outputsOf(c), "additionalProperties") },
		file: gadget1, pointer: "/outputSchema", fragment: "outputSchema is open"},
	{rule: "optional-output", mutate: func(c *tcat) { outputsOf(c)["required"] = []any{"address"} },
		file: gadget1, pointer: "/outputSchema/properties/port", fragment: "output \"port\" is optional"},
	{rule: "non-scalar-output", mutate: func(c *tcat) {
		at(outputsOf(c), "properties")["port"] = obj{"type": "array", "items": obj{"type": "integer"}}
	}, file: gadget1, pointer: "/outputSchema/properties/port/type", fragment: "single \"type\" of string, integer or boolean"},
	{rule: "output-default", mutate: func(c *tcat) { at(outputsOf(c), "properties/port")["default"] = 443 },
		file: gadget1, pointer: "/outputSchema/properties/port/default", fragment: "outputs are host answers and carry no default"},
	{rule: "output-named-like-desired", mutate: func(c *tcat) {
		at(outputsOf(c), "properties")["size"] = obj{"type": "integer"}
		outputsOf(c)["required"] = []any{"address", "port", "size"}
	}, file: gadget1, pointer: "/outputSchema/properties/size", fragment: "has the name of a desired property"},
	{rule: "reserved-attribute", mutate: func(c *tcat) {
		propsOf(c, "Gadget", "0.1.0")["dependsOn"] = obj{"type": "string", "description": "Clashes with a meta-argument."}
	}, file: gadget1, pointer: "/desiredSchema/properties/dependsOn", fragment: "becomes attribute \"depends_on\", which is reserved"},
	{rule: "reference-without-annotation", mutate: func(c *tcat) {
		delete(propsOf(c, "Gadget", "0.1.0")["holder"].(obj), annTargetFormRefs)
	}, file: gadget1, pointer: "/desiredSchema/properties/holder", fragment: "carries no contract annotation"},
	{rule: "reference-with-both-annotations", mutate: func(c *tcat) {
		propsOf(c, "Gadget", "0.1.0")["holder"].(obj)[annRequiredInterface] = ifaceRef()
	}, file: gadget1, pointer: "/desiredSchema/properties/holder", fragment: "carries both"},
	{rule: "annotation-off-reference", mutate: func(c *tcat) {
		propsOf(c, "Gadget", "0.1.0")["labels"].(obj)["additionalProperties"] = obj{"type": "string", annRequiredInterface: ifaceRef()}
	}, file: gadget1, pointer: "/desiredSchema/properties/labels/additionalProperties", fragment: "contract annotation on a node that is not a reference node"},
	{rule: "wrong-capabilities", mutate: func(c *tcat) {
		c.form("Gadget", "0.1.0").def["lifecycleCapabilities"] = []any{"create", "read", "delete", "import", "observe"}
	}, file: gadget1, pointer: "/lifecycleCapabilities", fragment: "lifecycleCapabilities must be exactly [create read update delete import observe]"},
	{rule: "nested-default", mutate: func(c *tcat) {
		at(propsOf(c, "Gadget", "0.1.0"), "items/items/properties/weight")["default"] = 1
	}, file: gadget1, pointer: "/desiredSchema/properties/items/items/properties/weight/default", fragment: "allowed only on a top-level optional desired property"},
	{rule: "default-on-required", mutate: func(c *tcat) {
		at(c.form("Gadget", "0.1.0").def, "desiredSchema")["required"] = []any{"holder", "size"}
	}, file: gadget1, pointer: "/desiredSchema/properties/size/default", fragment: "required property \"size\" declares a default"},
	{rule: "invalid-default", mutate: func(c *tcat) { propsOf(c, "Gadget", "0.1.0")["size"].(obj)["default"] = 50 },
		file: gadget1, pointer: "/desiredSchema/properties/size/default", fragment: "default does not validate"},
	{rule: "slug-kind-mismatch", mutate: func(c *tcat) { c.form("Store", "0.1.0").slug = "store-room" },
		file: "forms/" + tFamily + "/store-room/definition.json", pointer: "/kind", fragment: "does not match its kind-slug directory \"store-room\""},
	{rule: "index-bad-digest", mutate: func(c *tcat) {
		c.post = append(c.post, func(files map[string][]byte) {
			p := "forms/" + tFamily + "/holder/" + indexFile
			files[p] = replaceFirstDigest(files[p])
		})
	}, file: "forms/" + tFamily + "/holder/" + indexFile, pointer: "/files/0/digest", fragment: "does not match the raw bytes"},
	{rule: "index-stale-schema-digest", mutate: func(c *tcat) {
		c.post = append(c.post, func(files map[string][]byte) {
			files[storeD] = bytes.Replace(files[storeD], []byte(`"An empty store."`), []byte(`"An empty store!"`), 1)
		})
	}, file: "forms/" + tFamily + "/store/" + indexFile, pointer: "/formRef/schemaDigest", fragment: "does not match the recomputed digest"},
	{rule: "unlisted-package-file", mutate: func(c *tcat) {
		c.form("Store", "0.1.0").extraFiles = map[string][]byte{"notes.txt": []byte("not listed\n")}
	}, file: "forms/" + tFamily + "/store/notes.txt", pointer: "", fragment: "not listed in package-index.json"},
	{rule: "mixed-layout", mutate: func(c *tcat) {
		c.post = append(c.post, func(files map[string][]byte) {
			files["forms/"+tFamily+"/gadget/definition.json"] = files[gadget1]
		})
	}, file: "forms/" + tFamily + "/gadget", pointer: "", fragment: "mixes the single-version layout"},
	{rule: "unknown-member", mutate: func(c *tcat) { c.form("Store", "0.1.0").def["extra"] = true },
		file: storeD, pointer: "/extra", fragment: "unknown member \"extra\""},
	{rule: "duplicate-member", mutate: func(c *tcat) {
		c.post = append(c.post, func(files map[string][]byte) {
			files[storeD] = bytes.Replace(files[storeD], []byte(`"role": "identity",`), []byte(`"role": "identity", "role": "identity",`), 1)
		})
	}, file: storeD, pointer: "/role", fragment: "duplicate member name"},
	{rule: "immutable-nested-pointer", mutate: func(c *tcat) {
		c.form("Gadget", "0.1.0").def["immutableFields"] = []any{"/holder", "/items/0"}
	}, file: gadget1, pointer: "/immutableFields/1", fragment: "names a nested node"},
	{rule: "binding-grammar-mismatch", mutate: func(c *tcat) {
		at(propsOf(c, "Holder", "0.1.0"), "storeBindings/items/properties/name")["pattern"] = "^[A-Z]+$"
	}, file: holderD, pointer: "/desiredSchema/properties/storeBindings/items/properties/name/pattern", fragment: "bindingNameGrammar"},
	{rule: "ecma-only-pattern", mutate: func(c *tcat) {
		propsOf(c, "Holder", "0.1.0")["note"].(obj)["pattern"] = "^(?!x)[a-z]+$"
	}, file: holderD, pointer: "/desiredSchema/properties/note/pattern", fragment: "does not compile with Go regexp (RE2)"},
	{rule: "unsupported-shape", mutate: func(c *tcat) {
		propsOf(c, "Gadget", "0.1.0")["choice"] = obj{"description": "Either.", "anyOf": []any{obj{"type": "string"}, obj{"type": "integer"}}}
	}, file: gadget1, pointer: "/desiredSchema/properties/choice", fragment: "desired property shape is not one the catalog model supports"},
	{rule: "missing-description", mutate: func(c *tcat) { delete(propsOf(c, "Holder", "0.1.0")["note"].(obj), "description") },
		file: holderD, pointer: "/desiredSchema/properties/note/description", fragment: "has no description"},
	{rule: "negative-fixture-passes", mutate: func(c *tcat) {
		c.form("Store", "0.1.0").fixtures["fixtures/negative-unexpected-property.json"] = obj{}
	}, file: storeD, pointer: "/negativeConformanceFixtures/0/inputPath", fragment: "must fail desired validation but passes"},
	{rule: "canonical-fixture-invalid", mutate: func(c *tcat) {
		c.form("Gadget", "0.1.0").fixtures["fixtures/desired.json"] = obj{"size": 3}
	}, file: gadget1, pointer: "/conformanceFixtures/0/desiredPath", fragment: "should validate against desiredSchema"},
	{rule: "target-formref-unknown", mutate: func(c *tcat) {
		propsOf(c, "Gadget", "0.1.0")["holder"].(obj)[annTargetFormRefs] = []any{formRefOf("Holder", "0.9.0")}
	}, file: gadget1, pointer: "/desiredSchema/properties/holder/" + annTargetFormRefs + "/0", fragment: "names no loaded Form"},
	{rule: "interface-digest-mismatch", mutate: func(c *tcat) {
		c.post = append(c.post, func(files map[string][]byte) {
			p := "interfaces/v1alpha1/example.store/definition.json"
			files[p] = bytes.Replace(files[p], []byte(`"A test contract."`), []byte(`"A changed contract."`), 1)
		})
	}, file: "bindings/v1alpha1/holder.store/definition.json", pointer: "/targetInterface/schemaDigest", fragment: "recomputed digest"},
	{rule: "transition-backwards", mutate: func(c *tcat) {
		t := c.transitions["transitions"].([]any)[0].(obj)
		t["from"], t["to"] = t["to"], t["from"]
	}, file: transitionsFile, pointer: "/transitions/0/to/definitionVersion", fragment: "must be greater than"},
	{rule: "version-changes-field-kind", mutate: func(c *tcat) {
		propsOf(c, "Gadget", "0.2.0")["size"] = obj{"type": "string", "description": "Now a string."}
	}, file: "forms/" + tFamily + "/gadget/0.2.0/definition.json", pointer: "/desiredSchema/properties/size", fragment: "a changed field type needs a new kind"},
	{rule: "binding-not-accepted", mutate: func(c *tcat) { delete(c.form("Holder", "0.1.0").def, "acceptedBindings") },
		file: holderD, pointer: "/desiredSchema/properties/storeBindings/" + annBinding, fragment: "is not in acceptedBindings"},
	{rule: "binding-operation-unknown", mutate: func(c *tcat) {
		at(c.binding, "runtimeProjection")["operations"] = []any{"get", "put"}
	}, file: bindingD, pointer: "/runtimeProjection/operations/1", fragment: "not an operation of the target Interface"},
	{rule: "binding-grammar-unanchored", mutate: func(c *tcat) { c.binding["bindingNameGrammar"] = "[A-Z][A-Z0-9_]*" },
		file: bindingD, pointer: "/bindingNameGrammar", fragment: "must be anchored"},
	{rule: "interface-limit-not-safe-integer", mutate: func(c *tcat) { at(c.iface, "limits")["maxKeyBytes"] = 9007199254740992 },
		file: ifaceD, pointer: "/limits/maxKeyBytes", fragment: "integer from 0 to 2^53−1"},
	{rule: "interface-fixture-unknown-error", mutate: func(c *tcat) {
		c.iface["fixtures"] = []any{obj{"name": "probe", "steps": []any{obj{"operation": "get", "input": obj{"key": "k"}, "expectedError": "boom_error"}}}}
	}, file: ifaceD, pointer: "/fixtures/0/steps/0/expectedError", fragment: "is not in the errors of operation"},
	{rule: "contract-directory-mismatch", mutate: func(c *tcat) {
		c.post = append(c.post, func(files map[string][]byte) {
			files["interfaces/v1alpha1/example.shop/definition.json"] = files[ifaceD]
			delete(files, ifaceD)
		})
	}, file: "interfaces/v1alpha1/example.shop/definition.json", pointer: "/name", fragment: "must equal its directory name"},
	{rule: "version-directory-mismatch", mutate: func(c *tcat) { c.form("Gadget", "0.1.0").def["definitionVersion"] = "0.1.5" },
		file: gadget1, pointer: "/definitionVersion", fragment: "must equal its version directory"},
	{rule: "schema-integer-keyword-fraction", mutate: func(c *tcat) { propsOf(c, "Holder", "0.1.0")["note"].(obj)["maxLength"] = 1.5 },
		file: holderD, pointer: "/desiredSchema/properties/note/maxLength", fragment: "must be an integer"},
	{rule: "negative-zero", mutate: func(c *tcat) {
		c.post = append(c.post, func(files map[string][]byte) {
			files[holderD] = bytes.Replace(files[holderD], []byte(`"maxItems": 8`), []byte(`"maxItems": -0`), 1)
		})
	}, file: holderD, pointer: "/desiredSchema/properties/storeBindings/maxItems", fragment: "negative zero"},
	{rule: "index-lists-missing-file", mutate: func(c *tcat) {
		c.post = append(c.post, func(files map[string][]byte) {
			delete(files, "forms/"+tFamily+"/store/fixtures/negative-unexpected-property.json")
		})
	}, file: "forms/" + tFamily + "/store/" + indexFile, pointer: "/files/2/path", fragment: "does not exist in the package"},
	{rule: "output-pattern-unanchored", mutate: func(c *tcat) { at(outputsOf(c), "properties/address")["pattern"] = "[a-z]+" },
		file: gadget1, pointer: "/outputSchema/properties/address/pattern", fragment: "must be anchored"},
	{rule: "accepted-binding-unprojected", mutate: func(c *tcat) {
		delete(propsOf(c, "Holder", "0.1.0"), "storeBindings")
		c.form("Holder", "0.1.0").def["immutableFields"] = []any{"/note", "/store", "/tags"}
		delete(c.form("Holder", "0.1.0").fixtures["fixtures/desired.json"].(obj), "storeBindings")
	}, file: holderD, pointer: "/acceptedBindings/0", fragment: "projected by no binding-list property"},
	{rule: "immutable-names-output", mutate: func(c *tcat) { c.form("Gadget", "0.1.0").def["immutableFields"] = []any{"/holder", "/port"} },
		file: gadget1, pointer: "/immutableFields/1", fragment: "names an output"},
	{rule: "revision-declares-update", mutate: func(c *tcat) {
		c.form("Holder", "0.1.0").def["lifecycleCapabilities"] = []any{"create", "read", "update", "delete", "import", "observe"}
	}, file: holderD, pointer: "/lifecycleCapabilities/2", fragment: "a revision Form may not list \"update\""},
	{rule: "duplicate-definition", mutate: func(c *tcat) {
		c.post = append(c.post, func(files map[string][]byte) {
			for p, b := range files {
				if rest, ok := strings.CutPrefix(p, "forms/"+tFamily+"/store/"); ok {
					files["forms/copy-v1alpha1/store/"+rest] = b
				}
			}
		})
	}, file: storeD, pointer: "", fragment: "is unique in a catalog"},
	{rule: "reference-interface-not-provided", mutate: func(c *tcat) {
		at(propsOf(c, "Gadget", "0.1.0"), "items/items/properties/target/properties/kind")["const"] = "Holder"
	}, file: gadget1, pointer: "/desiredSchema/properties/items/items/properties/target/" + annRequiredInterface, fragment: "the reference could never resolve"},
	{rule: "version-changes-role", mutate: func(c *tcat) { c.form("Gadget", "0.2.0").def["role"] = "policy" },
		file: "forms/" + tFamily + "/gadget/0.2.0/definition.json", pointer: "/role", fragment: "all versions of one kind share a role"},
	{rule: "version-changes-output-type", mutate: func(c *tcat) {
		at(c.form("Gadget", "0.2.0").def, "outputSchema/properties")["port"] = obj{"type": "string", "pattern": "^[0-9]+$"}
		c.form("Gadget", "0.2.0").fixtures["fixtures/outputs.json"] = obj{"address": "here", "port": "443", "healthy": true}
		c.form("Gadget", "0.2.0").fixtures["fixtures/negative-output-port.json"] = obj{"address": "here", "port": "x", "healthy": true}
	}, file: "forms/" + tFamily + "/gadget/0.2.0/definition.json", pointer: "/outputSchema/properties/port/type", fragment: "an output keeps its type"},
	{rule: "index-size-not-integer", mutate: func(c *tcat) {
		c.post = append(c.post, func(files map[string][]byte) {
			p := "forms/" + tFamily + "/store/" + indexFile
			files[p] = regexp.MustCompile(`"size": ([0-9]+)`).ReplaceAll(files[p], []byte(`"size": "$1"`))
		})
	}, file: "forms/" + tFamily + "/store/" + indexFile, pointer: "/files/0/size", fragment: "size must be an integer"},
}

// replaceFirstDigest swaps the first file digest of a package index for a wrong one.
func replaceFirstDigest(b []byte) []byte {
	const key = `"digest": "sha256:`
	i := bytes.Index(b, []byte(key))
	if i < 0 {
		return b
	}
	out := append([]byte(nil), b...)
	start := i + len(key)
	copy(out[start:start+64], bytes.Repeat([]byte("0"), 64))
	return out
}
