// Package mutate is the mutation tester behind `go tool mage mutate` (docs/mutation.md).
//
// It makes the mutants gremlins (github.com/go-gremlins/gremlins) makes by default —
// arithmetic, conditional boundary, conditional negation, increment/decrement and
// negation-removal — plus inverted logical operators, and runs them its own way:
// each mutant is compiled first (one that does not build is NOT VIABLE, never
// killed), then only the tests a scope row names run against it, through
// `go test -overlay`, so no module is copied and workspace replaces keep working.
package mutate

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"sort"
)

// Kind is a mutation operator (gremlins' names).
type Kind string

// The operators.
const (
	ArithmeticBase       Kind = "ARITHMETIC_BASE"
	ConditionalsBoundary Kind = "CONDITIONALS_BOUNDARY"
	ConditionalsNegation Kind = "CONDITIONALS_NEGATION"
	IncrementDecrement   Kind = "INCREMENT_DECREMENT"
	InvertNegatives      Kind = "INVERT_NEGATIVES"
	InvertLogical        Kind = "INVERT_LOGICAL"
)

// Mutant is one token replacement in one file.
type Mutant struct {
	File   string // absolute path
	Line   int
	Col    int
	Offset int    // byte offset of the token
	Old    string // the token replaced
	New    string // what replaces it ("" removes it)
	Kind   Kind
}

func (m Mutant) String() string {
	return fmt.Sprintf("%s:%d:%d %s %q -> %q", m.File, m.Line, m.Col, m.Kind, m.Old, m.New)
}

// Apply returns src with the mutation made.
func (m Mutant) Apply(src []byte) []byte {
	out := make([]byte, 0, len(src)+2)
	out = append(out, src[:m.Offset]...)
	out = append(out, m.New...)
	return append(out, src[m.Offset+len(m.Old):]...)
}

var (
	arithmetic = map[token.Token]string{token.ADD: "-", token.SUB: "+", token.MUL: "/", token.QUO: "*", token.REM: "*"}
	boundary   = map[token.Token]string{token.LSS: "<=", token.LEQ: "<", token.GTR: ">=", token.GEQ: ">"}
	negation   = map[token.Token]string{token.EQL: "!=", token.NEQ: "==", token.LSS: ">=", token.LEQ: ">", token.GTR: "<=", token.GEQ: "<"}
	logical    = map[token.Token]string{token.LAND: "||", token.LOR: "&&"}
	incdec     = map[token.Token]string{token.INC: "--", token.DEC: "++"}
)

// Find lists the mutants of one Go file, in source order.
func Find(path string) ([]Mutant, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	var out []Mutant
	add := func(pos token.Pos, op token.Token, repl string, k Kind) {
		p := fset.Position(pos)
		out = append(out, Mutant{File: path, Line: p.Line, Col: p.Column, Offset: p.Offset, Old: op.String(), New: repl, Kind: k})
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.GenDecl:
			// constants and package-level tables are data, not behaviour a test can pin
			return x.Tok != token.CONST
		case *ast.BinaryExpr:
			if r, ok := arithmetic[x.Op]; ok {
				add(x.OpPos, x.Op, r, ArithmeticBase)
			}
			if r, ok := boundary[x.Op]; ok {
				add(x.OpPos, x.Op, r, ConditionalsBoundary)
			}
			if r, ok := negation[x.Op]; ok {
				add(x.OpPos, x.Op, r, ConditionalsNegation)
			}
			if r, ok := logical[x.Op]; ok {
				add(x.OpPos, x.Op, r, InvertLogical)
			}
		case *ast.IncDecStmt:
			add(x.TokPos, x.Tok, incdec[x.Tok], IncrementDecrement)
		case *ast.UnaryExpr:
			if x.Op == token.SUB {
				add(x.OpPos, x.Op, "", InvertNegatives)
			}
		}
		return true
	})
	sort.SliceStable(out, func(i, j int) bool { return out[i].Offset < out[j].Offset })
	return out, nil
}
