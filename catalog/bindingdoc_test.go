package catalog

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// Every rule of a Binding Definition, one broken at a time: the loader refuses
// the document with exactly the line of that rule, and nothing that names the
// binding (the Holder Form accepting it) adds a line of its own; at a bound,
// the bound itself is not refused.
func TestBindingDefinitionRules(t *testing.T) {
	kinds := func(n int) []any {
		out := make([]any, n)
		for i := range out {
			out[i] = obj{"apiVersion": tGroup, "kind": fmt.Sprintf("Store%d", i)}
		}
		return out
	}
	modes := func(n int, name, op string) []any {
		var m []any
		for i := range n {
			m = append(m, obj{"name": fmt.Sprintf("%s%d", name, i), "operations": []any{op}})
		}
		return m
	}
	const (
		targets = "allowedTargetForms lists 1 to 32 (apiVersion, kind) pairs"
		grammar = "bindingNameGrammar must be 1 to 512 characters"
		anchors = "bindingNameGrammar must be anchored: start with ^ and end with $"
		opsN    = "list 1 to 64 operation names"
		modesN  = "accessModes lists 1 to 8 modes"
	)
	for _, c := range []struct {
		name   string
		mutate func(b obj)
		// the one problem; with ptr "", msg is one of several problems (at
		// /runtimeProjection/operations), or the document loads past this rule
		ptr, msg string
		absent   string // a message that must not be among the problems
	}{
		{"apiVersion", func(b obj) { b["apiVersion"] = "bindings.example.dev/v1alpha1" }, "/apiVersion", `apiVersion must be "` + "bindings.takoform.com/v1alpha1" + `"`, ""},
		{"kind", func(b obj) { b["kind"] = "Binding" }, "/kind", `kind must be "BindingDefinition"`, ""},
		{"sourceRole", func(b obj) { b["sourceRole"] = "owner" }, "/sourceRole", "sourceRole must be one of " + strings.Join(roles, ", "), ""},
		{"no allowed target", func(b obj) { b["allowedTargetForms"] = []any{} }, "/allowedTargetForms", targets, ""},
		{"33 allowed targets", func(b obj) { b["allowedTargetForms"] = kinds(33) }, "/allowedTargetForms", targets, ""},
		{"32 allowed targets", func(b obj) { b["allowedTargetForms"] = kinds(32) }, "", "", targets},
		{"a target twice", func(b obj) {
			b["allowedTargetForms"] = []any{obj{"apiVersion": tGroup, "kind": "Store"}, obj{"apiVersion": tGroup, "kind": "Store"}}
		}, "/allowedTargetForms/1", "allowedTargetForms lists " + tGroup + " Store twice", ""},
		{"empty grammar", func(b obj) { b["bindingNameGrammar"] = "" }, "/bindingNameGrammar", grammar, ""},
		{"513-character grammar", func(b obj) { b["bindingNameGrammar"] = "^" + strings.Repeat("A", 511) + "$" }, "/bindingNameGrammar", grammar, ""},
		{"512 characters of 2 bytes", func(b obj) { b["bindingNameGrammar"] = "^" + strings.Repeat("é", 510) + "$" }, "", "", grammar},
		{"grammar does not compile", func(b obj) { b["bindingNameGrammar"] = "^[A-Z$" }, "/bindingNameGrammar",
			"bindingNameGrammar does not compile with Go regexp (RE2): error parsing regexp: missing closing ]: `[A-Z$`", ""},
		{"grammar without ^", func(b obj) { b["bindingNameGrammar"] = "[A-Z][A-Z0-9_]*$" }, "/bindingNameGrammar", anchors, ""},
		{"grammar without $", func(b obj) { b["bindingNameGrammar"] = "^[A-Z][A-Z0-9_]*" }, "/bindingNameGrammar", anchors, ""},
		{"targetDeletion", func(b obj) { at(b, "lifecycle")["targetDeletion"] = "cascade" }, "/lifecycle/targetDeletion", `targetDeletion must be "refuse_while_bound"`, ""},
		{"no operation", func(b obj) { at(b, "runtimeProjection")["operations"] = []any{} }, "/runtimeProjection/operations", opsN, ""},
		{"65 operations", func(b obj) { at(b, "runtimeProjection")["operations"] = opNames(65) }, "", opsN, ""}, // and 65 unknown operations
		{"64 operations", func(b obj) { at(b, "runtimeProjection")["operations"] = opNames(64) }, "", "", opsN},
		{"an operation twice", func(b obj) { at(b, "runtimeProjection")["operations"] = []any{"get", "get"} },
			"/runtimeProjection/operations/1", `operation "get" is listed twice`, ""},
		{"no access mode", func(b obj) { at(b, "runtimeProjection")["accessModes"] = []any{} }, "/runtimeProjection/accessModes", modesN, ""},
		{"9 access modes", func(b obj) { at(b, "runtimeProjection")["accessModes"] = modes(9, "mode", "get") }, "/runtimeProjection/accessModes", modesN, ""},
		{"8 access modes", func(b obj) { at(b, "runtimeProjection")["accessModes"] = modes(8, "mode", "get") }, "", "", modesN},
		{"an access mode's name", func(b obj) { at(b, "runtimeProjection")["accessModes"] = modes(1, "Read", "get") },
			"/runtimeProjection/accessModes/0/name", "access mode name must match ^[a-z][a-z0-9_]{0,63}$", ""},
		{"an access mode's operation", func(b obj) { at(b, "runtimeProjection")["accessModes"] = modes(1, "read", "put") },
			"/runtimeProjection/accessModes/0/operations/0", `operation "put" is not an operation of the target Interface example.store`, ""},
		{"an access mode's operation twice", func(b obj) {
			at(b, "runtimeProjection")["accessModes"] = []any{obj{"name": "read", "operations": []any{"get", "get"}}}
		}, "/runtimeProjection/accessModes/0/operations/1", `operation "get" is listed twice`, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			cat := baseCatalog()
			c.mutate(cat.binding)
			got := problemLines(t, cat)
			if c.ptr != "" {
				want := []string{problemLine(bindingD, c.ptr, "%s", c.msg)}
				if !slices.Equal(got, want) {
					t.Errorf("problems:\n got %s\nwant %s", strings.Join(got, "\n     "), want[0])
				}
			}
			for _, l := range got {
				if c.absent != "" && strings.HasSuffix(l, ": "+c.absent) {
					t.Errorf("refused at its bound: %s", l)
				}
			}
			if c.ptr == "" && c.msg != "" && !slices.Contains(got, fmt.Sprintf("catalog: %s: /runtimeProjection/operations: %s", bindingD, c.msg)) {
				t.Errorf("no line %q among %q", c.msg, got)
			}
		})
	}
}

// Where a Binding Definition lives and how a Form names it: under its lane's
// directory, and by a BindingRef of the binding apiVersion naming a version
// the catalog holds.
func TestBindingPlacementAndReferences(t *testing.T) {
	holderRefs := func(c *tcat) obj { return c.form("Holder", "0.1.0").def["acceptedBindings"].([]any)[0].(obj) }
	moved := "bindings/v1beta9/holder.store/definition.json"
	checkProblems(t, []problemCase{
		{"under another lane's directory", func(c *tcat) {
			c.post = append(c.post, func(files map[string][]byte) {
				files[moved] = files[bindingD]
				delete(files, bindingD)
			})
		}, []string{fmt.Sprintf(`catalog: %s: /apiVersion: document apiVersion %q belongs under bindings/v1alpha1/, not bindings/v1beta9/`, moved, "bindings.takoform.com/v1alpha1")}},
		{"a BindingRef of another apiVersion", func(c *tcat) { holderRefs(c)["apiVersion"] = "bindings.example.dev/v1alpha1" }, []string{
			fmt.Sprintf(`catalog: %s: /acceptedBindings/0/apiVersion: a BindingRef apiVersion must be %q`, holderD, "bindings.takoform.com/v1alpha1"),
		}},
		{"a BindingRef of a version the catalog does not hold", func(c *tcat) { holderRefs(c)["version"] = "2.0.0" }, []string{
			fmt.Sprintf(`catalog: %s: /acceptedBindings/0: names Binding holder.store@2.0.0, which the catalog does not hold; add it under bindings/ or fix the reference`, holderD),
		}},
	})
}
