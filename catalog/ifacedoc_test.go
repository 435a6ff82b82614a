package catalog

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// Every rule of an Interface Definition, one broken at a time: the whole list of
// problems is that rule's one line (nothing that names the Interface adds one);
// at a bound, the bound itself loads.
func TestInterfaceDefinitionRules(t *testing.T) {
	line := func(ptr, msg string, args ...any) []string {
		return []string{problemLine(ifaceD, ptr, msg, args...)}
	}
	get := func(c *tcat) obj { return c.iface["operations"].([]any)[0].(obj) }
	op := func(name string) obj {
		return obj{"name": name, "idempotent": true, "errors": []any{}, "inputSchema": obj{"$schema": draft, "type": "object"}, "outputSchema": obj{"$schema": draft, "type": "object"}}
	}
	withOps := func(n int) func(c *tcat) {
		return func(c *tcat) {
			ops := []any{get(c)}
			for i := 1; i < n; i++ {
				ops = append(ops, op(fmt.Sprintf("op%d", i)))
			}
			c.iface["operations"] = ops
		}
	}
	steps := func(n int) []any {
		out := make([]any, n)
		for i := range out {
			out[i] = obj{"operation": "get", "input": obj{"key": "k"}}
		}
		return out
	}
	fixtures := func(n, steps0 int) func(c *tcat) {
		return func(c *tcat) {
			var fx []any
			for i := range n {
				fx = append(fx, obj{"name": fmt.Sprintf("f%d", i), "steps": steps(steps0)})
			}
			c.iface["fixtures"] = fx
		}
	}
	moved := "interfaces/v1beta9/example.store/definition.json"
	checkProblems(t, []problemCase{
		{"apiVersion", func(c *tcat) { c.iface["apiVersion"] = "interfaces.example.dev/v1alpha1" }, line("/apiVersion", `apiVersion must be %q`, "interfaces.takoform.com/v1alpha1")},
		{"under another lane's directory", func(c *tcat) {
			c.post = append(c.post, func(files map[string][]byte) { files[moved] = files[ifaceD]; delete(files, ifaceD) })
		}, []string{fmt.Sprintf(`catalog: %s: /apiVersion: document apiVersion %q belongs under interfaces/v1alpha1/, not interfaces/v1beta9/`, moved, "interfaces.takoform.com/v1alpha1")}},
		{"an empty title", func(c *tcat) { c.iface["title"] = "" }, line("/title", "title must be 1 to 160 characters")},
		{"a title of 161 characters", func(c *tcat) { c.iface["title"] = strings.Repeat("t", 161) }, line("/title", "title must be 1 to 160 characters")},
		{"a title of 160 characters of 2 bytes", func(c *tcat) { c.iface["title"] = strings.Repeat("é", 160) }, nil},
		{"a description of 4097 characters", func(c *tcat) { c.iface["description"] = strings.Repeat("d", 4097) }, line("/description", "description must be at most 4096 characters")},
		{"a description of 4096 characters of 2 bytes", func(c *tcat) { c.iface["description"] = strings.Repeat("é", 4096) }, nil},
		{"consistency", func(c *tcat) { at(c.iface, "semantics")["consistency"] = "strong" }, line("/semantics/consistency", "consistency must be one of eventual, read_after_write, per_key_linearizable, serializable")},
		{"pagination", func(c *tcat) { at(c.iface, "semantics")["pagination"] = "pages" }, line("/semantics/pagination", `value "pages" must be one of none, cursor`)},
		{"delivery", func(c *tcat) { at(c.iface, "semantics")["delivery"] = "once" }, line("/semantics/delivery", `value "once" must be one of at_least_once, exactly_once_effect`)},
		{"ordering", func(c *tcat) { at(c.iface, "semantics")["ordering"] = "random" }, line("/semantics/ordering", `value "random" must be one of none, per_key, total`)},
		{"every semantics value", func(c *tcat) {
			c.iface["semantics"] = obj{"consistency": "serializable", "pagination": "cursor", "delivery": "exactly_once_effect", "ordering": "total"}
		}, nil},
		{"a limit's name", func(c *tcat) { c.iface["limits"] = obj{"MaxKeys": 1} }, line("/limits/MaxKeys", "limit name must match ^[a-z][a-zA-Z0-9]{0,63}$")},
		{"a negative limit", func(c *tcat) { c.iface["limits"] = obj{"maxKeys": -1} }, line("/limits/maxKeys", "limit must be an integer from 0 to 2^53−1")},
		{"a fractional limit", func(c *tcat) { c.iface["limits"] = obj{"maxKeys": 1.5} }, line("/limits/maxKeys", "limit must be an integer from 0 to 2^53−1")},
		{"a limit of 0", func(c *tcat) { c.iface["limits"] = obj{"maxKeys": 0} }, nil},
		{"33 fixtures", fixtures(33, 1), line("/fixtures", "at most 32 fixtures are allowed")},
		{"32 fixtures", fixtures(32, 1), nil},
		{"a fixture without steps", fixtures(1, 0), line("/fixtures/0/steps", "a fixture has 1 to 64 steps")},
		{"a fixture of 65 steps", fixtures(1, 65), line("/fixtures/0/steps", "a fixture has 1 to 64 steps")},
		{"a fixture of 64 steps", fixtures(1, 64), nil},
		{"a step of an undeclared operation", func(c *tcat) {
			c.iface["fixtures"] = []any{obj{"name": "f", "steps": []any{obj{"operation": "put", "input": obj{}, "expectedError": "not_found"}}}}
		}, line("/fixtures/0/steps/0/operation", `step names operation "put", which this Interface does not declare`)},
		{"a step expecting an undeclared error", func(c *tcat) {
			c.iface["fixtures"] = []any{obj{"name": "f", "steps": []any{obj{"operation": "get", "input": obj{"key": "k"}, "expectedError": "conflict"}}}}
		}, line("/fixtures/0/steps/0/expectedError", `expectedError "conflict" is not in the errors of operation "get"`)},
		{"no operation", func(c *tcat) { c.iface["operations"] = []any{} }, line("/operations", "an Interface declares 1 to 64 operations")},
		{"65 operations", withOps(65), line("/operations", "an Interface declares 1 to 64 operations")},
		{"64 operations", withOps(64), nil},
		{"an operation's name", func(c *tcat) { c.iface["operations"] = append(c.iface["operations"].([]any), op("Put")) }, line("/operations/1/name", `operation name "Put" must match ^[a-z][a-zA-Z0-9]{0,63}$`)},
		{"an operation twice", func(c *tcat) { c.iface["operations"] = append(c.iface["operations"].([]any), op("get")) }, line("/operations/1/name", `operation "get" is declared twice; operation names are unique`)},
		{"an operation description of 1025 characters", func(c *tcat) { get(c)["description"] = strings.Repeat("d", 1025) }, line("/operations/0/description", "operation description must be at most 1024 characters")},
		{"an operation description of 1024 characters of 2 bytes", func(c *tcat) { get(c)["description"] = strings.Repeat("é", 1024) }, nil},
		{"an input schema that does not compile", func(c *tcat) { get(c)["inputSchema"] = obj{"$schema": draft, "type": "object", "pattern": "^[a-z+$"} },
			line("/operations/0/inputSchema/pattern", "pattern does not compile with Go regexp (RE2): error parsing regexp: missing closing ]: `[a-z+$`; rewrite it without ECMA-only constructs such as lookaround or backreferences")},
		{"an output schema that does not compile", func(c *tcat) { get(c)["outputSchema"] = obj{"$schema": draft, "$ref": "#/$defs/missing"} },
			line("/operations/0/outputSchema", `schema does not compile under JSON Schema Draft 2020-12: json-pointer in "%s#/operations/0/outputSchema#/$defs/missing" not found`, ifaceD)},
		{"a Form's InterfaceRef of another apiVersion", func(c *tcat) {
			c.form("Store", "0.1.0").def["providedInterfaces"].([]any)[0].(obj)["apiVersion"] = "interfaces.example.dev/v1alpha1"
		}, []string{fmt.Sprintf(`catalog: %s: /providedInterfaces/0/apiVersion: an InterfaceRef apiVersion must be %q`, storeD, "interfaces.takoform.com/v1alpha1")}},
		{"33 error codes", func(c *tcat) {
			var errs []any
			for i := range 33 {
				errs = append(errs, fmt.Sprintf("error_%d", i))
			}
			get(c)["errors"] = errs
		}, line("/operations/0/errors", "an operation lists at most 32 error codes")},
		{"an error code", func(c *tcat) { get(c)["errors"] = []any{"not_found", "NotFound"} }, line("/operations/0/errors/1", `error code "NotFound" must match ^[a-z][a-z0-9_]{2,63}$ and appear once`)},
		{"an error code twice", func(c *tcat) { get(c)["errors"] = []any{"not_found", "not_found"} }, line("/operations/0/errors/1", `error code "not_found" must match ^[a-z][a-z0-9_]{2,63}$ and appear once`)},
	})
}

// A contract's name is at most 128 characters of its pattern and equals its
// directory; its version is a release (no pre-release part).
func TestContractNameAndVersion(t *testing.T) {
	long := "a." + strings.Repeat("b", 125) // 127 characters
	for _, c := range []struct {
		name, version, dir string
		want               []string
	}{
		{long + "c", "1.0.0", long + "c", nil},
		{long + "cd", "1.0.0", long + "cd", []string{fmt.Sprintf("f.json: /name: name %q must match %s and be at most 128 characters", long+"cd", interfaceNameRe.String())}},
		{"Example.store", "1.0.0", "Example.store", []string{`f.json: /name: name "Example.store" must match ` + interfaceNameRe.String() + " and be at most 128 characters"}},
		{"example.store", "1.0.0", "example.shop", []string{`f.json: /name: name "example.store" must equal its directory name "example.shop"; rename one of them`}},
		{"example.store", "1.0.0-rc.1", "example.store", []string{`f.json: /version: version "1.0.0-rc.1" must be MAJOR.MINOR.PATCH without a pre-release part`}},
		{"example.store", "1.0", "example.store", []string{`f.json: /version: version "1.0" must be MAJOR.MINOR.PATCH without a pre-release part`}},
	} {
		ps := &problems{}
		cd := contractDir{file: "f.json", apiDir: "v1alpha1", name: c.dir}
		checkContractName("f.json", c.name, cd, interfaceNameRe, ps)
		checkContractVersion("f.json", c.version, cd, ps)
		var got []string
		for _, p := range ps.list {
			got = append(got, strings.TrimPrefix(p.String(), "catalog: "))
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s@%s in %s:\n got %q\nwant %q", c.name, c.version, c.dir, got, c.want)
		}
	}
}

// A document the layout lists but that cannot be read is that document's one
// problem, naming why: what names it (a Form's required interfaces, accepted
// bindings and binding lists, a binding's targetInterface) adds nothing.
func TestAnUnreadableDocumentIsItsOwnProblem(t *testing.T) {
	for _, file := range []string{ifaceD, bindingD} {
		want := []string{fmt.Sprintf(`catalog: %s: "": cannot read: open %s: permission denied`, file, file)}
		if got := loadProblems(t, unreadable{mapFS(baseCatalog().seal(t)), file}); !slices.Equal(got, want) {
			t.Errorf("loading with %s unreadable:\n got %q\nwant %q", file, got, want)
		}
	}
}
