package fault

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/takokit/takokit/hostsim/internal/decide"
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

// decisions returns, for each declared rule that has a Decision, the
// identifier of the decide.Fault its Decision names.
func decisions(t *testing.T) map[string]string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "table.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
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
			if !ok {
				continue
			}
			for _, e := range cl.Elts {
				kv, ok := e.(*ast.KeyValueExpr)
				if k, isID := kv.Key.(*ast.Ident); !ok || !isID || k.Name != "Decision" {
					continue
				}
				sel, ok := kv.Value.(*ast.SelectorExpr)
				if pkg, isID := sel.X.(*ast.Ident); !ok || !isID || pkg.Name != "decide" {
					t.Fatalf("the Decision of %s is not a decide.Fault constant", vs.Names[i].Name)
				}
				out[vs.Names[i].Name] = sel.Sel.Name
			}
		}
		return true
	})
	return out
}

// decideFaults returns the decide.Fault constants package decide declares.
func decideFaults(t *testing.T) map[string]bool {
	t.Helper()
	pkgs, err := parser.ParseDir(token.NewFileSet(), filepath.Join("..", "decide"), func(fi fs.FileInfo) bool {
		return !strings.HasSuffix(fi.Name(), "_test.go")
	}, 0)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, f := range pkgs["decide"].Files {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.CONST || len(gd.Specs) == 0 {
				continue
			}
			first, ok := gd.Specs[0].(*ast.ValueSpec)
			if typ, isID := first.Type.(*ast.Ident); !ok || !isID || typ.Name != "Fault" {
				continue
			}
			for _, sp := range gd.Specs {
				for _, n := range sp.(*ast.ValueSpec).Names {
					if n.Name != "_" && n.Name != "faultCount" {
						out[n.Name] = true
					}
				}
			}
		}
	}
	return out
}

// Every decide.Fault is the Decision of exactly one rule, which bears the
// same name, and the runtime table agrees with the declarations.
func TestEveryDecisionFaultIsOneRule(t *testing.T) {
	consts := decideFaults(t)
	if len(consts) != decide.Faults-1 {
		t.Fatalf("package decide declares %d Fault constants, decide.Faults counts %d", len(consts), decide.Faults-1)
	}
	named := map[string]string{}
	for rule, c := range decisions(t) {
		if !consts[c] {
			t.Errorf("rule %s names decide.%s, which is not a decide.Fault", rule, c)
		}
		if rule != c {
			t.Errorf("rule %s is decide.%s: a decision fault bears its rule's name", rule, c)
		}
		if other, dup := named[c]; dup {
			t.Errorf("decide.%s is the Decision of both %s and %s", c, other, rule)
		}
		named[c] = rule
	}
	for c := range consts {
		if named[c] == "" {
			t.Errorf("decide.%s is the Decision of no rule: declare it in table.go", c)
		}
	}
	seen := map[decide.Fault]string{}
	for _, r := range Table {
		if r.Decision == 0 {
			continue
		}
		if other, dup := seen[r.Decision]; dup {
			t.Errorf("%s and %s share one Decision", other, r.Name)
		}
		seen[r.Decision] = r.Name
	}
	if len(seen) != len(consts) {
		t.Errorf("%d rules of the Table have a Decision, %d decide.Fault constants exist", len(seen), len(consts))
	}
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
// a declared value: no fault is named by a string where code asks for it. A
// fault a pure decision acts on (its Decision) has its point in package
// decide, a.On(X) with the decide.Fault, and is never asked through the Set.
func TestEveryRuleHasAPointAndEveryPointAValue(t *testing.T) {
	ids := map[string]bool{}
	for id := range declared(t) {
		ids[id] = true
	}
	decided := decisions(t) // rule -> decide.Fault
	consts := decideFaults(t)
	points := map[string]int{}         // Set points, by rule
	decisionPoints := map[string]int{} // decision points, by decide.Fault
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
		if err != nil {
			return err
		}
		inDecide := f.Name.Name == "decide"
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
				pkg, ok := a.X.(*ast.Ident)
				switch {
				case ok && pkg.Name == "fault" && ids[a.Sel.Name]:
					points[a.Sel.Name]++
				case ok && pkg.Name == "decide" && consts[a.Sel.Name] && sel.Sel.Name == "On":
					decisionPoints[a.Sel.Name]++
				}
			case *ast.Ident:
				switch {
				case inDecide && consts[a.Name] && sel.Sel.Name == "On":
					decisionPoints[a.Name]++
				case !inDecide && ids[a.Name]:
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
		c, isDecision := decided[id]
		switch {
		case isDecision && points[id] > 0:
			t.Errorf("fault %s is a decision fault (decide.%s) but is asked through the Set: a decision is handed it as a value", id, c)
		case isDecision && decisionPoints[c] == 0:
			t.Errorf("fault %s has no point: no decision asks a.On(decide.%s)", id, c)
		case !isDecision && points[id] == 0:
			t.Errorf("fault %s has no point: no On, Value, Where or Armed asks for it", id)
		}
	}
}

func isPoint(name string) bool {
	return name == "On" || name == "Value" || name == "Where" || name == "Armed"
}
