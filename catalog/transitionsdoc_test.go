package catalog

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog/wire"
)

// Every rule of transitions.json (docs/catalog-rules.md#layout), one broken at a
// time: the whole list of problems is that rule's lines, and what the rules allow
// loads. The base catalog gains Gadget 0.3.0, so two transitions can differ.
func TestTransitionRules(t *testing.T) {
	line := func(ptr, msg string, args ...any) string {
		return problemLine(transitionsFile, ptr, msg, args...)
	}
	lines := func(l ...string) []string { return l }
	transition := func(marker, from, to string) obj {
		return obj{"marker": marker, "from": formRefOf("Gadget", from), "to": formRefOf("Gadget", to)}
	}
	with := func(list ...obj) func(c *tcat) {
		return func(c *tcat) {
			c.forms = append(c.forms, gadget("0.3.0", true))
			var l []any
			for _, t := range list {
				l = append(l, t)
			}
			c.transitions["transitions"] = l
		}
	}
	edit := func(i int, end, k string, v any) func(c *tcat) {
		return func(c *tcat) {
			with(transition("a", "0.1.0", "0.2.0"))(c)
			c.transitions["transitions"].([]any)[i].(obj)[end].(obj)[k] = v
		}
	}
	// sealed edits a member of the first transition's end after sealing, which
	// would otherwise put the named Form's own digest back
	sealed := func(end, k, v string) func(c *tcat) {
		return func(c *tcat) {
			with(transition("a", "0.1.0", "0.2.0"))(c)
			c.post = append(c.post, func(files map[string][]byte) {
				var doc obj
				if err := json.Unmarshal(files[transitionsFile], &doc); err != nil {
					panic(err)
				}
				doc["transitions"].([]any)[0].(obj)[end].(obj)[k] = v
				files[transitionsFile], _ = json.Marshal(doc)
			})
		}
	}
	other := "sha256:" + strings.Repeat("1", 64)
	unloaded := func(end, version, digest string) string {
		ref := wire.FormRef{APIVersion: tGroup, Kind: "Gadget", DefinitionVersion: version, SchemaDigest: digest}
		return line("/transitions/0/"+end, "%s names no loaded Form (%s); fix the version or digest (reseal the catalog)", end, ref)
	}
	checkProblems(t, []problemCase{
		{"two transitions in marker order", with(transition("a", "0.1.0", "0.2.0"), transition("b", "0.2.0", "0.3.0"), transition("c", "0.1.0", "0.3.0")), nil},
		{"no transitions", with(), nil},
		{"not JSON", withFiles(func(files map[string][]byte) { files[transitionsFile] = []byte(`{"format": `) }),
			lines(line("/format", "unexpected end of input; the JSON value is incomplete (byte 11)"))},
		{"another format", func(c *tcat) { c.transitions["format"] = "takokit.form-transitions@v2" },
			lines(line("/format", `format must be "takokit.form-transitions@v1"`))},
		{"a marker outside the grammar", with(transition("Gadget-up", "0.1.0", "0.2.0")),
			lines(line("/transitions/0/marker", `marker "Gadget-up" must match ^[a-z0-9](?:[a-z0-9.-]{0,126}[a-z0-9])?$`))},
		{"a marker ending in a dot", with(transition("up.", "0.1.0", "0.2.0")),
			lines(line("/transitions/0/marker", `marker "up." must match ^[a-z0-9](?:[a-z0-9.-]{0,126}[a-z0-9])?$`))},
		{"a marker declared twice", with(transition("a", "0.1.0", "0.2.0"), transition("a", "0.2.0", "0.3.0")),
			lines(line("/transitions/1/marker", `marker "a" is declared twice; markers are unique`),
				line("/transitions/1/marker", `transitions are listed in marker order; "a" comes after "a"`))},
		{"markers out of order", with(transition("b", "0.1.0", "0.2.0"), transition("a", "0.2.0", "0.3.0")),
			lines(line("/transitions/1/marker", `transitions are listed in marker order; "a" comes after "b"`))},
		{"a pair declared twice", with(transition("a", "0.1.0", "0.2.0"), transition("b", "0.1.0", "0.2.0")),
			lines(line("/transitions/1", `the pair (from, to) is already declared by marker "a"`))},
		{"from a version the catalog does not hold", edit(0, "from", "definitionVersion", "0.0.9"),
			lines(unloaded("from", "0.0.9", zeroDig))},
		{"to another digest", sealed("to", "schemaDigest", other), lines(unloaded("to", "0.2.0", other))},
		{"from a version that is no semantic version", edit(0, "from", "definitionVersion", "first"),
			lines(unloaded("from", "first", zeroDig))},
		{"to the same version under another digest", func(c *tcat) {
			sealed("to", "schemaDigest", other)(c)
			c.transitions["transitions"].([]any)[0].(obj)["to"].(obj)["definitionVersion"] = "0.1.0"
		}, lines(unloaded("to", "0.1.0", other),
			line("/transitions/0/to/definitionVersion", "to.definitionVersion 0.1.0 must be greater than from.definitionVersion 0.1.0"))},
		{"to another kind", func(c *tcat) {
			with(transition("a", "0.1.0", "0.2.0"))(c)
			c.transitions["transitions"].([]any)[0].(obj)["to"] = formRefOf("Holder", "0.1.0")
		}, lines(line("/transitions/0/to", "a transition stays within one kind; from is %s Gadget, to is %s Holder", tGroup, tGroup))},
		{"to another group", edit(0, "to", "apiVersion", "other.forms.takokit.dev/v1alpha1"),
			lines(line("/transitions/0/to", "to names no loaded Form (%s); fix the version or digest (reseal the catalog)",
				wire.FormRef{APIVersion: "other.forms.takokit.dev/v1alpha1", Kind: "Gadget", DefinitionVersion: "0.2.0", SchemaDigest: zeroDig}),
				line("/transitions/0/to", "a transition stays within one kind; from is %s Gadget, to is other.forms.takokit.dev/v1alpha1 Gadget", tGroup))},
		{"to itself", with(transition("a", "0.1.0", "0.1.0")), lines(line("/transitions/0/to", "from and to are the same definition"))},
	})
}
