package mutate

import (
	"crypto/sha256"
	"encoding/hex"
	"go/ast"
	"go/token"
)

// Operator is one row of the operator table: what it matches in a file's syntax
// tree and the mutant it makes of each match.
type Operator struct {
	Kind    Kind
	Matches string // what in the syntax tree it mutates
	Makes   string // the mutant
	find    func(fi *finder, k Kind)
}

// The operators.
const (
	ArithmeticBase       Kind = "ARITHMETIC_BASE"
	ConditionalsBoundary Kind = "CONDITIONALS_BOUNDARY"
	ConditionalsNegation Kind = "CONDITIONALS_NEGATION"
	InvertLogical        Kind = "INVERT_LOGICAL"
	IncrementDecrement   Kind = "INCREMENT_DECREMENT"
	InvertNegatives      Kind = "INVERT_NEGATIVES"
	RemoveNot            Kind = "REMOVE_NOT"
	ConditionTrue        Kind = "CONDITION_TRUE"
	ConditionFalse       Kind = "CONDITION_FALSE"
	RemoveGuard          Kind = "REMOVE_GUARD"
	RemoveStatement      Kind = "REMOVE_STATEMENT"
	ErrorToNil           Kind = "ERROR_TO_NIL"
)

var (
	arithmetic = map[token.Token]string{token.ADD: "-", token.SUB: "+", token.MUL: "/", token.QUO: "*", token.REM: "*"}
	boundary   = map[token.Token]string{token.LSS: "<=", token.LEQ: "<", token.GTR: ">=", token.GEQ: ">"}
	negation   = map[token.Token]string{token.EQL: "!=", token.NEQ: "==", token.LSS: ">=", token.LEQ: ">", token.GTR: "<=", token.GEQ: "<"}
	logical    = map[token.Token]string{token.LAND: "||", token.LOR: "&&"}
	incdec     = map[token.Token]string{token.INC: "--", token.DEC: "++"}
)

// Operators is the operator table, in the order a position's mutants are listed.
// Constant declarations are data and are never mutated.
var Operators = []Operator{
	{ArithmeticBase, "binary + - * / %", "+ and - swapped, * and / swapped, % made *", swapOp(arithmetic)},
	{ConditionalsBoundary, "binary < <= > >=", "the boundary moved: < made <=, <= made <, ...", swapOp(boundary)},
	{ConditionalsNegation, "binary == != < <= > >=", "the comparison negated: == made !=, < made >=, ...", swapOp(negation)},
	{InvertLogical, "binary && ||", "&& and || swapped", swapOp(logical)},
	{IncrementDecrement, "x++ x--", "++ and -- swapped", findIncDec},
	{InvertNegatives, "unary -x", "the minus removed", unaryRemoved(token.SUB)},
	{RemoveNot, "unary !x", "the ! removed", unaryRemoved(token.NOT)},
	{ConditionTrue, "the condition of an if", "the condition made true (not evaluated)", findCondition(true)},
	{ConditionFalse, "the condition of an if or a for", "the condition made false (not evaluated); not for a guard without init, which REMOVE_GUARD already makes", findCondition(false)},
	{RemoveGuard, "an if without else in a block whose body ends in return, break, continue, goto or panic", "the whole if removed (its init too)", findGuards},
	{RemoveStatement, "a statement in a block: a call (not panic, not Lock/Unlock), an assignment with = or op= (not all to _), a send, a go statement", "the statement removed", findStatements},
	{ErrorToNil, "the last result of a return in a function whose last result is error, unless it is nil", "that result made nil", findErrorReturns},
}

// finder is one parsed file with what the operators need to know of its syntax.
type finder struct {
	fset   *token.FileSet
	path   string
	src    []byte
	nodes  []ast.Node               // every node outside constant declarations, in source order
	inList map[ast.Stmt]bool        // statements of a block, a case or a select clause
	conds  map[ast.Expr]ast.Stmt    // the condition of an if or a for, to its statement
	errRet map[*ast.ReturnStmt]bool // returns of a function whose last result is error
	stmts  []ast.Stmt               // every statement cover can count (no block or clause), in source order
	funcs  []ast.Node               // every function declaration and literal, in source order
	sums   map[ast.Node]string      // declSum's digests, by outermost function
	out    []Mutant
}

func newFinder(fset *token.FileSet, f *ast.File, path string, src []byte) *finder {
	fi := &finder{fset: fset, path: path, src: src, inList: map[ast.Stmt]bool{}, conds: map[ast.Expr]ast.Stmt{}, errRet: map[*ast.ReturnStmt]bool{}, sums: map[ast.Node]string{}}
	var funcs []*ast.FuncType // the enclosing functions, innermost last
	var stack []ast.Node
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil {
			top := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if _, ok := funcOf(top); ok {
				funcs = funcs[:len(funcs)-1]
			}
			return true
		}
		if g, ok := n.(*ast.GenDecl); ok && g.Tok == token.CONST {
			return false
		}
		stack = append(stack, n)
		fi.nodes = append(fi.nodes, n)
		if ft, ok := funcOf(n); ok {
			funcs = append(funcs, ft)
			fi.funcs = append(fi.funcs, n)
		}
		switch n.(type) {
		case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause:
		case ast.Stmt:
			fi.stmts = append(fi.stmts, n.(ast.Stmt))
		}
		switch x := n.(type) {
		case *ast.BlockStmt:
			fi.list(x.List)
		case *ast.CaseClause:
			fi.list(x.Body)
		case *ast.CommClause:
			fi.list(x.Body)
		case *ast.IfStmt:
			fi.conds[x.Cond] = x
		case *ast.ForStmt:
			if x.Cond != nil {
				fi.conds[x.Cond] = x
			}
		case *ast.ReturnStmt:
			if len(funcs) > 0 {
				fi.errRet[x] = lastResultIsError(funcs[len(funcs)-1])
			}
		}
		return true
	})
	return fi
}

// funcOf is the type of a function declaration or literal.
func funcOf(n ast.Node) (*ast.FuncType, bool) {
	switch x := n.(type) {
	case *ast.FuncDecl:
		return x.Type, true
	case *ast.FuncLit:
		return x.Type, true
	}
	return nil, false
}

func lastResultIsError(ft *ast.FuncType) bool {
	if ft.Results == nil || len(ft.Results.List) == 0 {
		return false
	}
	id, ok := ft.Results.List[len(ft.Results.List)-1].Type.(*ast.Ident)
	return ok && id.Name == "error"
}

func (fi *finder) list(ss []ast.Stmt) {
	for _, s := range ss {
		fi.inList[s] = true
	}
}

// add records the mutant replacing the text of [lo, hi) by repl.
func (fi *finder) add(lo, hi token.Pos, repl string, k Kind) {
	p := fi.fset.Position(lo)
	end := fi.fset.Position(hi).Offset
	fi.out = append(fi.out, Mutant{File: fi.path, Line: p.Line, Col: p.Column, Offset: p.Offset, Old: string(fi.src[p.Offset:end]), New: repl, Kind: k, Anchors: fi.anchors(lo), Func: fi.funcAt(lo), Decl: fi.declSum(lo)})
}

// declSum is a digest of the source of the outermost function holding pos
// ("" outside every function): an equivalence judged in that code holds until
// it changes (docs/mutation.md#equivalent-marks).
func (fi *finder) declSum(pos token.Pos) string {
	for _, f := range fi.funcs { // source order: the first holding pos is the outermost
		if f.Pos() <= pos && pos < f.End() {
			if d, ok := fi.sums[f]; ok { // a function's mutants share it: hashed once
				return d
			}
			sum := sha256.Sum256(fi.src[fi.fset.Position(f.Pos()).Offset:fi.fset.Position(f.End()).Offset])
			fi.sums[f] = hex.EncodeToString(sum[:8])
			return fi.sums[f]
		}
	}
	return ""
}

// funcAt is the start of the innermost function holding pos (the zero Pos
// outside every function).
func (fi *finder) funcAt(pos token.Pos) Pos {
	for i := len(fi.funcs) - 1; i >= 0; i-- {
		if f := fi.funcs[i]; f.Pos() <= pos && pos < f.End() {
			p := fi.fset.Position(f.Pos())
			return Pos{p.Line, p.Column}
		}
	}
	return Pos{}
}

// anchors are the starts of the statements enclosing pos, innermost first (of
// two enclosing statements the one that starts later is inside the other).
func (fi *finder) anchors(pos token.Pos) []Pos {
	var out []Pos
	for i := len(fi.stmts) - 1; i >= 0; i-- {
		s := fi.stmts[i]
		if s.Pos() <= pos && pos < s.End() {
			p := fi.fset.Position(s.Pos())
			out = append(out, Pos{p.Line, p.Column})
		}
	}
	return out
}

func swapOp(table map[token.Token]string) func(*finder, Kind) {
	return func(fi *finder, k Kind) {
		for _, n := range fi.nodes {
			if x, ok := n.(*ast.BinaryExpr); ok {
				if r, ok := table[x.Op]; ok {
					fi.add(x.OpPos, x.OpPos+token.Pos(len(x.Op.String())), r, k)
				}
			}
		}
	}
}

func findIncDec(fi *finder, k Kind) {
	for _, n := range fi.nodes {
		if x, ok := n.(*ast.IncDecStmt); ok {
			fi.add(x.TokPos, x.TokPos+2, incdec[x.Tok], k)
		}
	}
}

func unaryRemoved(op token.Token) func(*finder, Kind) {
	return func(fi *finder, k Kind) {
		for _, n := range fi.nodes {
			if x, ok := n.(*ast.UnaryExpr); ok && x.Op == op {
				fi.add(x.OpPos, x.OpPos+1, "", k)
			}
		}
	}
}

// findCondition forces the condition of each if (to true or false) and of each
// for (to false only: a loop forced on either hangs or is what its body's
// mutants already make). A guard without init forced false is REMOVE_GUARD's
// mutant, so it is made once, there.
func findCondition(to bool) func(*finder, Kind) {
	lit := map[bool]string{true: "true", false: "false"}[to]
	return func(fi *finder, k Kind) {
		for _, n := range fi.nodes {
			e, ok := n.(ast.Expr)
			if !ok {
				continue
			}
			st, ok := fi.conds[e]
			if !ok {
				continue
			}
			if id, ok := e.(*ast.Ident); ok && (id.Name == "true" || id.Name == "false") {
				continue
			}
			switch s := st.(type) {
			case *ast.ForStmt:
				if to {
					continue
				}
			case *ast.IfStmt:
				if !to && fi.isGuard(s) && s.Init == nil {
					continue
				}
			}
			fi.add(e.Pos(), e.End(), lit, k)
		}
	}
}

// isGuard: an if in a statement list, without else, whose body ends by leaving.
func (fi *finder) isGuard(s *ast.IfStmt) bool {
	if !fi.inList[s] || s.Else != nil || len(s.Body.List) == 0 {
		return false
	}
	switch last := s.Body.List[len(s.Body.List)-1].(type) {
	case *ast.ReturnStmt:
		return true
	case *ast.BranchStmt:
		return last.Tok != token.FALLTHROUGH
	case *ast.ExprStmt:
		return isCallTo(last.X, "panic")
	}
	return false
}

func findGuards(fi *finder, k Kind) {
	for _, n := range fi.nodes {
		if s, ok := n.(*ast.IfStmt); ok && fi.isGuard(s) {
			fi.add(s.Pos(), s.End(), "", k)
		}
	}
}

// findStatements removes statements that do something on their own: calls,
// assignments to something other than _, sends and go statements. Declarations
// (:=, var) do not build without their statement, returns and panics leave a
// function without its end, and Lock/Unlock calls only trade a race for a hang.
func findStatements(fi *finder, k Kind) {
	for _, n := range fi.nodes {
		s, ok := n.(ast.Stmt)
		if !ok || !fi.inList[s] {
			continue
		}
		switch x := s.(type) {
		case *ast.ExprStmt:
			call, ok := x.X.(*ast.CallExpr)
			if !ok || isCallTo(call, "panic") || isLockCall(call) {
				continue
			}
		case *ast.AssignStmt:
			if x.Tok == token.DEFINE || allBlank(x.Lhs) {
				continue
			}
		case *ast.SendStmt, *ast.GoStmt:
		default:
			continue
		}
		fi.add(s.Pos(), s.End(), "", k)
	}
}

func isCallTo(e ast.Expr, name string) bool {
	c, ok := e.(*ast.CallExpr)
	if !ok {
		return false
	}
	id, ok := c.Fun.(*ast.Ident)
	return ok && id.Name == name
}

func isLockCall(c *ast.CallExpr) bool {
	sel, ok := c.Fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	switch sel.Sel.Name {
	case "Lock", "Unlock", "RLock", "RUnlock":
		return true
	}
	return false
}

func allBlank(es []ast.Expr) bool {
	for _, e := range es {
		if id, ok := e.(*ast.Ident); !ok || id.Name != "_" {
			return false
		}
	}
	return true
}

func findErrorReturns(fi *finder, k Kind) {
	for _, n := range fi.nodes {
		r, ok := n.(*ast.ReturnStmt)
		if !ok || !fi.errRet[r] || len(r.Results) == 0 {
			continue
		}
		last := r.Results[len(r.Results)-1]
		if id, ok := last.(*ast.Ident); ok && id.Name == "nil" {
			continue
		}
		fi.add(last.Pos(), last.End(), "nil", k)
	}
}
