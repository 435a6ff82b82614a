package fault

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// declared returns the package-level *Rule values declared in this package,
// by identifier.
func declared(t *testing.T) map[string]*Rule {
	t.Helper()
	pkgs, err := parser.ParseDir(token.NewFileSet(), ".", func(fi fs.FileInfo) bool {
		return !strings.HasSuffix(fi.Name(), "_test.go")
	}, 0)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]*Rule{}
	for _, r := range Table {
		byName[r.Name] = r
	}
	out := map[string]*Rule{}
	for _, f := range pkgs["fault"].Files {
		ast.Inspect(f, func(n ast.Node) bool {
			vs, ok := n.(*ast.ValueSpec)
			if !ok || len(vs.Values) != len(vs.Names) {
				return true
			}
			for i, v := range vs.Values {
				u, ok := v.(*ast.UnaryExpr)
				if !ok {
					continue
				}
				cl, ok := u.X.(*ast.CompositeLit)
				if id, isID := cl.Type.(*ast.Ident); !ok || !isID || id.Name != "Rule" {
					continue
				}
				out[vs.Names[i].Name] = ruleNamed(t, cl, byName)
			}
			return true
		})
	}
	return out
}

func ruleNamed(t *testing.T, cl *ast.CompositeLit, byName map[string]*Rule) *Rule {
	for _, e := range cl.Elts {
		kv, ok := e.(*ast.KeyValueExpr)
		if k, isID := kv.Key.(*ast.Ident); ok && isID && k.Name == "Name" {
			name := strings.Trim(kv.Value.(*ast.BasicLit).Value, `"`)
			return byName[name]
		}
	}
	t.Fatalf("a Rule without a Name at %v", cl.Pos())
	return nil
}

// Every declared Rule is listed in Table, once, and the Table holds nothing else.
func TestTableIsBuiltFromTheDeclaredRules(t *testing.T) {
	decl := declared(t)
	for id, r := range decl {
		if r == nil {
			t.Errorf("fault %s is declared but not listed in Table", id)
		}
	}
	seen := map[*Rule]bool{}
	for _, r := range Table {
		if seen[r] {
			t.Errorf("fault %s is listed twice in Table", r.Name)
		}
		seen[r] = true
	}
	if len(decl) != len(Table) {
		t.Errorf("%d Rules are declared and %d listed in Table", len(decl), len(Table))
	}
}

// Every fault of the table has a point in hostsim's code, and every point asks
// a declared value: no fault is named by a string where code asks for it.
func TestEveryRuleHasAPointAndEveryPointAValue(t *testing.T) {
	ids := map[string]bool{}
	for id := range declared(t) {
		ids[id] = true
	}
	points := map[string]int{}
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) == 0 {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || !isPoint(sel.Sel.Name) {
				return true
			}
			switch a := call.Args[0].(type) {
			case *ast.SelectorExpr:
				if pkg, ok := a.X.(*ast.Ident); ok && pkg.Name == "fault" && ids[a.Sel.Name] {
					points[a.Sel.Name]++
				}
			case *ast.Ident:
				if ids[a.Name] {
					points[a.Name]++
				}
			case *ast.BasicLit:
				t.Errorf("%s: %s(%s) names a fault by a string; ask its declared value", path, sel.Sel.Name, a.Value)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for id := range ids {
		if points[id] == 0 {
			t.Errorf("fault %s has no point: no On, Value, Where or Armed asks for it", id)
		}
	}
}

func isPoint(name string) bool {
	return name == "On" || name == "Value" || name == "Where" || name == "Armed"
}
