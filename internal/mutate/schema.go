package mutate

import (
	"context"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/tools/go/packages"
)

// A mutant schema compiles every mutant of a row that is sure to build into the
// package at once, each behind a run-time switch: the test binary is built and
// linked once per row, and a mutant is one run of it with TAKOKIT_MUTANT set to
// its id (docs/mutation.md#mutant-schemata). A mutant the schema cannot hold
// (a string `+`, a constant expression, a type the wrapper cannot name) is built
// on its own, as before.

// mutantEnv names the variable that switches one mutant of a schema on, and
// mutantPkgEnv the package whose schema it switches: the rows of a module share
// one build holding every row's schema (docs/mutation.md#shared-baseline), and
// their ids start at 1 in each package. Unset, any package's id matches.
const (
	mutantEnv    = "TAKOKIT_MUTANT"
	mutantPkgEnv = "TAKOKIT_MUTANT_PKG"
)

// schema is the rewritten package: the overlay that builds it and the id of each
// mutant (by index into the row's mutants) it holds.
type schema struct {
	overlay    string
	pkg        string // the import path of the rewritten package
	ids        map[int]int
	bins       []string // by test package, once built
	sharedNote string   // how the module's shared build served it, for the log
}

// site is one expression or statement of the package with the mutants it holds.
type site struct {
	lo, hi  int      // byte offsets of the node in its file
	node    ast.Node // the expression or statement the wrapper replaces
	mutants []int    // indexes into the row's mutants
	style   style    // how it is wrapped
	outLen  int      // the length of its wrapper in the rewritten file
}

// style is the shape of a site's wrapper.
type style int

const (
	styleBool   style = iota // func() bool { switch _takokitMutant { case id: return alt ... }; return orig }()
	styleArith               // _takokitArith(id, a, b, op, alt)
	styleRem                 // _takokitRem(id, a, b)
	styleNeg                 // _takokitNeg(id, a)
	styleNot                 // _takokitNot(id, a)
	styleIncDec              // func() { if _takokitMutant == id { x-- } else { x++ } }()
	styleStmt                // if _takokitMutant != id { stmt }
	styleErr                 // func() error { if _takokitMutant == id { return nil }; return orig }()
)

// span is the lines of one wrapper in a rewritten file.
type span struct {
	first, last int // 1-based
	ids         []int
}

// loadPackage loads the mutated package with its syntax and types.
func loadPackage(ctx context.Context, modDir, pkg string) (*packages.Package, error) {
	cfg := &packages.Config{Context: ctx, Dir: modDir, Mode: packages.NeedName | packages.NeedFiles | packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo | packages.NeedImports}
	pkgs, err := packages.Load(cfg, pkg)
	if err != nil {
		return nil, err
	}
	if len(pkgs) != 1 {
		return nil, fmt.Errorf("load %s for its types: %d packages", pkg, len(pkgs))
	}
	if len(pkgs[0].Errors) > 0 {
		return nil, fmt.Errorf("load %s for its types: %v", pkg, pkgs[0].Errors)
	}
	return pkgs[0], nil
}

// newSchema writes the schema of the mutants to run (viable, and chosen by the
// run's sampling) into dir and builds the package with it, dropping each mutant
// the compiler refuses until it builds (or none is left).
func newSchema(ctx context.Context, modDir, pkg, dir string, p *packages.Package, mutants []Mutant, viable []bool, log func(string, ...any)) (*schema, error) {
	sites, err := findSites(p, mutants, viable)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	for range 30 { // each round drops the mutants the compiler named
		s, out, spans, err := writeSchema(ctx, modDir, pkg, dir, p, mutants, sites)
		if err != nil || s != nil {
			return s, err
		}
		bad := refused(out, spans)
		if len(bad) == 0 {
			return nil, fmt.Errorf("the schema of %s does not build: %s", pkg, firstLines(out, 5))
		}
		var keep []*site
		for _, st := range sites {
			if !slices.ContainsFunc(st.mutants, func(i int) bool { return bad[i+1] }) {
				keep = append(keep, st)
			}
		}
		log("  schema: %d mutant site(s) the compiler refused are built one by one", len(sites)-len(keep))
		sites = keep
	}
	return nil, fmt.Errorf("the schema of %s still does not build after 30 rounds", pkg)
}

// findSites pairs each viable mutant with its node and keeps those the schema
// can hold.
func findSites(p *packages.Package, mutants []Mutant, viable []bool) ([]*site, error) {
	type span struct{ lo, hi int }
	byOp := map[string]map[int]ast.Node{}
	stmts := map[string]map[span]ast.Node{}
	exprs := map[string]map[span]ast.Node{} // the outermost expression of each span
	parents := map[ast.Node]ast.Node{}
	conds := map[ast.Node]bool{}
	for _, f := range p.Syntax {
		tf := p.Fset.File(f.Pos())
		name := tf.Name()
		ops, ss, es := map[int]ast.Node{}, map[span]ast.Node{}, map[span]ast.Node{}
		var stack []ast.Node
		ast.Inspect(f, func(n ast.Node) bool {
			if n == nil {
				stack = stack[:len(stack)-1]
				return true
			}
			if len(stack) > 0 {
				parents[n] = stack[len(stack)-1]
			}
			stack = append(stack, n)
			sp := span{tf.Offset(n.Pos()), tf.Offset(n.End())}
			switch x := n.(type) {
			case *ast.BinaryExpr:
				ops[tf.Offset(x.OpPos)] = x
			case *ast.UnaryExpr:
				ops[tf.Offset(x.OpPos)] = x
			case *ast.IncDecStmt:
				ops[tf.Offset(x.TokPos)] = x
			case *ast.IfStmt:
				conds[x.Cond] = true
			case *ast.ForStmt:
				if x.Cond != nil {
					conds[x.Cond] = true
				}
			}
			switch n.(type) {
			case ast.Stmt:
				if ss[sp] == nil {
					ss[sp] = n
				}
			case ast.Expr:
				if es[sp] == nil {
					es[sp] = n
				}
			}
			return true
		})
		byOp[name], stmts[name], exprs[name] = ops, ss, es
	}
	var sites []*site
	at := map[ast.Node]*site{}
	for i, mu := range mutants {
		if !viable[i] {
			continue
		}
		var n ast.Node
		sp := span{mu.Offset, mu.End()}
		switch mu.Kind {
		case RemoveStatement, RemoveGuard:
			n = stmts[mu.File][sp]
		case ConditionTrue, ConditionFalse, ErrorToNil:
			n = exprs[mu.File][sp]
		default:
			n = byOp[mu.File][mu.Offset]
		}
		if n == nil {
			return nil, fmt.Errorf("%s: no node at the mutant's offset", mu)
		}
		st, ok := siteStyle(p.TypesInfo, n, mu, conds[n])
		if b, isBinary := n.(*ast.BinaryExpr); !ok || isBinary && mu.Kind == InvertLogical && regroups(b, mu, parents) {
			continue
		}
		s := at[n]
		if s == nil {
			tf := p.Fset.File(n.Pos())
			s = &site{lo: tf.Offset(n.Pos()), hi: tf.Offset(n.End()), node: n, style: st}
			at[n] = s
			sites = append(sites, s)
		}
		if s.style != st {
			continue // two shapes for one node: the second mutant is built on its own
		}
		s.mutants = append(s.mutants, i)
	}
	return sites, nil
}

// siteStyle says how the schema holds mutant mu of node n (cond: n is the
// condition of an if or a for, where any boolean wrapper fits), and whether it
// can: the mutant type-checks (the caller knows), and its wrapper has a type the
// schema can write.
func siteStyle(info *types.Info, n ast.Node, mu Mutant, cond bool) (style, bool) {
	switch x := n.(type) {
	case *ast.IncDecStmt:
		return styleIncDec, true
	case ast.Stmt:
		return styleStmt, true
	case *ast.UnaryExpr:
		if x.Op == token.NOT {
			if cond {
				return styleBool, true
			}
			tv := info.Types[x]
			b, isBasic := tv.Type.Underlying().(*types.Basic)
			return styleNot, tv.Value == nil && isBasic && b.Info()&types.IsBoolean != 0
		}
		return styleNeg, numeric(info, x, false)
	}
	switch mu.Kind {
	case ConditionTrue, ConditionFalse:
		return styleBool, cond
	case ErrorToNil:
		tv := info.Types[n.(ast.Expr)]
		return styleErr, tv.Type != nil && types.AssignableTo(tv.Type, types.Universe.Lookup("error").Type())
	}
	x, ok := n.(*ast.BinaryExpr)
	if !ok {
		return 0, false
	}
	if mu.Kind != ArithmeticBase {
		if cond {
			return styleBool, true
		}
		tv := info.Types[x]
		b, isBasic := tv.Type.(*types.Basic)
		return styleBool, tv.Value == nil && isBasic && b.Info()&types.IsBoolean != 0
	}
	if y := info.Types[x.Y]; x.Op == token.MUL && y.Value != nil && constant.Sign(y.Value) == 0 {
		return 0, false // x * 0 -> x / 0 does not build
	}
	if x.Op == token.REM {
		return styleRem, numeric(info, x, true)
	}
	return styleArith, numeric(info, x, false)
}

// regroups says whether the mutant's text parses into another tree than the
// node with its operator swapped, which is what the schema runs: in a && b && c,
// the first && made || reads a || (b && c), not (a || b) && c. Only && <-> ||
// changes precedence; each operator next to the node in the text must still
// bind less tightly than the new one, and its operands' more tightly.
func regroups(n *ast.BinaryExpr, mu Mutant, parents map[ast.Node]ast.Node) bool {
	prec := binaryOps[mu.New].Precedence()
	if x, ok := n.X.(*ast.BinaryExpr); ok && x.Op.Precedence() < prec {
		return true
	}
	if y, ok := n.Y.(*ast.BinaryExpr); ok && y.Op.Precedence() <= prec {
		return true
	}
	// the operator on the left: up while the node is its parent's left operand
	var cur ast.Node = n
	for p, ok := parents[cur].(*ast.BinaryExpr); ok; p, ok = parents[cur].(*ast.BinaryExpr) {
		if p.Y == cur {
			if p.Op.Precedence() >= prec {
				return true
			}
			break
		}
		cur = p
	}
	// and on the right: up while it is its parent's right operand
	cur = n
	for p, ok := parents[cur].(*ast.BinaryExpr); ok; p, ok = parents[cur].(*ast.BinaryExpr) {
		if p.X == cur {
			return p.Op.Precedence() > prec
		}
		cur = p
	}
	return false
}

// binaryOps are the binary operators a mutant puts in, by their text.
var binaryOps = map[string]token.Token{}

func init() {
	for _, m := range []map[token.Token]string{arithmetic, boundary, negation, logical} {
		for t := range m {
			binaryOps[t.String()] = t
		}
	}
}

// numeric: e is not a constant and its type is a number (an integer if integer).
func numeric(info *types.Info, e ast.Expr, integer bool) bool {
	tv := info.Types[e]
	if tv.Value != nil || tv.Type == nil {
		return false
	}
	b, ok := tv.Type.Underlying().(*types.Basic)
	if !ok || b.Info()&types.IsNumeric == 0 {
		return false
	}
	return !integer || b.Info()&types.IsInteger != 0
}

// writeSchema writes the rewritten files, the switch file and the overlay, and
// builds the package: a schema when it builds, else the compiler's output.
func writeSchema(ctx context.Context, modDir, pkg, dir string, p *packages.Package, mutants []Mutant, sites []*site) (*schema, []byte, map[string][]span, error) {
	replace := map[string]string{}
	spans := map[string][]span{}
	ids := map[int]int{}
	byFile := map[string][]*site{}
	for _, st := range sites {
		f := mutants[st.mutants[0]].File
		byFile[f] = append(byFile[f], st)
		for _, i := range st.mutants {
			ids[i] = i + 1
		}
	}
	for file, ss := range byFile {
		src, err := os.ReadFile(file)
		if err != nil {
			return nil, nil, nil, err
		}
		slices.SortFunc(ss, func(a, b *site) int {
			if a.lo != b.lo {
				return a.lo - b.lo
			}
			return b.hi - a.hi // the outer of two nodes that start together first
		})
		r := rewriter{src: src, sites: ss, mutants: mutants}
		text := r.text(0, len(src), nil)
		out := filepath.Join(dir, filepath.Base(file))
		if err := os.WriteFile(out, []byte(text), 0o644); err != nil {
			return nil, nil, nil, err
		}
		replace[file] = out
		spans[filepath.Base(file)] = wrapperSpans(text, ss)
	}
	pkgDir := filepath.Dir(mutants[0].File)
	sw := filepath.Join(dir, "zz_takokit_mutants.go")
	if err := os.WriteFile(sw, []byte(switchFile(p.Name, pkg)), 0o644); err != nil {
		return nil, nil, nil, err
	}
	replace[filepath.Join(pkgDir, "zz_takokit_mutants.go")] = sw
	overlay := filepath.Join(dir, "overlay.json")
	b, _ := json.Marshal(map[string]any{"Replace": replace})
	if err := os.WriteFile(overlay, b, 0o644); err != nil {
		return nil, nil, nil, err
	}
	if out, err := goCmd(ctx, modDir, nil, 0, "build", "-overlay="+overlay, pkg); err != nil {
		if ctx.Err() != nil {
			return nil, nil, nil, ctx.Err()
		}
		return nil, out, spans, nil
	}
	return &schema{overlay: overlay, pkg: pkg, ids: ids}, nil, nil, nil
}

// wrapperSpans finds each site's wrapper in the rewritten text by the marker it
// opens with, and gives the lines it covers.
func wrapperSpans(text string, sites []*site) []span {
	byMark := map[string]*site{}
	for _, st := range sites {
		byMark[st.mark()] = st
	}
	var out []span
	for _, m := range marker.FindAllStringIndex(text, -1) {
		st := byMark[text[m[0]:m[1]]]
		if st == nil {
			continue
		}
		first := 1 + strings.Count(text[:m[0]], "\n")
		sp := span{first: first, last: first + strings.Count(text[m[0]:m[0]+st.outLen], "\n")}
		for _, i := range st.mutants {
			sp.ids = append(sp.ids, i+1)
		}
		out = append(out, sp)
	}
	return out
}

var compileError = regexp.MustCompile(`(?m)^(?:\./)?([^\s:]+\.go):(\d+):\d+: `)

// refused reads the compiler's errors and returns the ids of the mutants of the
// innermost wrapper each points into; nil when one points outside every wrapper.
func refused(out []byte, spans map[string][]span) map[int]bool {
	bad := map[int]bool{}
	for _, m := range compileError.FindAllSubmatch(out, -1) {
		n, _ := strconv.Atoi(string(m[2]))
		var in *span
		file := spans[filepath.Base(string(m[1]))]
		for i, sp := range file {
			if sp.first <= n && n <= sp.last && (in == nil || sp.last-sp.first <= in.last-in.first) {
				in = &file[i]
			}
		}
		if in == nil {
			return nil
		}
		for _, id := range in.ids {
			bad[id] = true
		}
	}
	return bad
}

// marker opens every wrapper, naming the mutant ids it holds.
var marker = regexp.MustCompile(`/\*mutant:([0-9,]+)\*/`)

// rewriter renders a file with each site replaced by its wrapper.
type rewriter struct {
	src     []byte
	sites   []*site // sorted by start, outer first
	mutants []Mutant
}

// text is src[lo:hi] with every outermost site inside it wrapped, but skip.
func (r rewriter) text(lo, hi int, skip *site) string {
	var b strings.Builder
	at := lo
	for _, st := range r.sites {
		if st == skip || st.lo < at || st.hi > hi {
			continue
		}
		b.Write(r.src[at:st.lo])
		b.WriteString(r.wrap(st))
		at = st.hi
	}
	b.Write(r.src[at:hi])
	return b.String()
}

func (r rewriter) span(n ast.Node, base token.Pos, off int) string {
	return r.text(off+int(n.Pos()-base), off+int(n.End()-base), nil)
}

// mark opens the site's wrapper: /*mutant:ids*/.
func (st *site) mark() string { return "/*mutant:" + strings.Join(st.ids(), ",") + "*/" }

// ids are the switch values of the site's mutants: a mutant's index plus one,
// so that 0 (TAKOKIT_MUTANT unset) switches none on.
func (st *site) ids() []string {
	ids := make([]string, len(st.mutants))
	for i, m := range st.mutants {
		ids[i] = strconv.Itoa(m + 1)
	}
	return ids
}

// wrap renders one site, opening with its marker: the original and each mutant
// behind the switch.
func (r rewriter) wrap(st *site) string {
	w := st.mark() + r.wrapper(st)
	st.outLen = len(w)
	return w
}

func (r rewriter) wrapper(st *site) string {
	ids := st.ids()
	base := st.node.Pos()
	orig := r.text(st.lo, st.hi, st) // the node with the sites inside it wrapped
	first := r.mutants[st.mutants[0]]
	switch st.style {
	case styleIncDec:
		x := st.node.(*ast.IncDecStmt)
		v := r.span(x.X, base, st.lo)
		return fmt.Sprintf("func() {\nif _takokitMutant == %s {\n%s%s\n} else {\n%s%s\n}\n}()", ids[0], v, first.New, v, x.Tok)
	case styleNeg:
		return fmt.Sprintf("_takokitNeg(%s, %s)", ids[0], r.span(st.node.(*ast.UnaryExpr).X, base, st.lo))
	case styleNot:
		return fmt.Sprintf("_takokitNot(%s, %s)", ids[0], r.span(st.node.(*ast.UnaryExpr).X, base, st.lo))
	case styleRem, styleArith:
		x := st.node.(*ast.BinaryExpr)
		left, right := r.span(x.X, base, st.lo), r.span(x.Y, base, st.lo)
		if st.style == styleRem {
			return fmt.Sprintf("_takokitRem(%s, %s, %s)", ids[0], left, right)
		}
		return fmt.Sprintf("_takokitArith(%s, %s, %s, '%s', '%s')", ids[0], left, right, x.Op, first.New)
	case styleStmt:
		return fmt.Sprintf("if _takokitMutant != %s {\n%s\n}", ids[0], orig)
	case styleErr:
		return fmt.Sprintf("func() error {\nif _takokitMutant == %s {\nreturn nil\n}\nreturn %s\n}()", ids[0], orig)
	}
	var b strings.Builder
	b.WriteString("func() bool {\nswitch _takokitMutant {\n")
	for i, m := range st.mutants {
		fmt.Fprintf(&b, "case %s:\nreturn %s\n", ids[i], r.alt(st, r.mutants[m], base))
	}
	fmt.Fprintf(&b, "}\nreturn (%s)\n}()", orig)
	return b.String()
}

// alt is what a boolean site evaluates to when mutant m is switched on.
func (r rewriter) alt(st *site, m Mutant, base token.Pos) string {
	switch m.Kind {
	case ConditionTrue:
		return "true"
	case ConditionFalse:
		return "false"
	case RemoveNot:
		return "(" + r.span(st.node.(*ast.UnaryExpr).X, base, st.lo) + ")"
	}
	x := st.node.(*ast.BinaryExpr)
	return fmt.Sprintf("(%s) %s (%s)", r.span(x.X, base, st.lo), m.New, r.span(x.Y, base, st.lo))
}

// switchFile is the file the schema adds to the package: the switch and the
// generic wrappers of arithmetic (which need no type written out).
func switchFile(name, pkg string) string {
	return `package ` + name + `

import (
	_takokitOS "os"
	_takokitStrconv "strconv"
)

var _takokitMutant = func() int {
	if p := _takokitOS.Getenv("` + mutantPkgEnv + `"); p != "" && p != ` + strconv.Quote(pkg) + ` {
		return 0
	}
	n, _ := _takokitStrconv.Atoi(_takokitOS.Getenv("` + mutantEnv + `"))
	return n
}()

type _takokitInteger interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr
}

type _takokitNumber interface {
	_takokitInteger | ~float32 | ~float64 | ~complex64 | ~complex128
}

func _takokitArith[T _takokitNumber](id int, a, b T, op, alt byte) T {
	if _takokitMutant == id {
		op = alt
	}
	switch op {
	case '+':
		return a + b
	case '-':
		return a - b
	case '*':
		return a * b
	}
	return a / b
}

func _takokitRem[T _takokitInteger](id int, a, b T) T {
	if _takokitMutant == id {
		return a * b
	}
	return a % b
}

func _takokitNeg[T _takokitNumber](id int, a T) T {
	if _takokitMutant == id {
		return a
	}
	return -a
}

func _takokitNot[T ~bool](id int, a T) T {
	if _takokitMutant == id {
		return a
	}
	return !a
}
`
}

// holds gives the id of mutant i when the schema holds it.
func (s *schema) holds(i int) (int, bool) {
	if s == nil {
		return 0, false
	}
	id, ok := s.ids[i]
	return id, ok
}

// binary is the schema's test binary of a test package, built by useSchema.
func (s *schema) binary(pkg int) (string, string, time.Duration) { return s.bins[pkg], "", 0 }

// useSchema builds the schema of the row's mutants and one test binary of it per
// test package, and keeps it only when, with no mutant switched on, each test
// package's selection passes as the unmutated code does. With a shared run the
// schema was written by Shared.Prepare and the test binaries are the module's,
// holding every row's schema; if those fail, the row builds its own.
func (p *plan) useSchema(ctx context.Context, o Options, r *row, dir string) error {
	base, err := r.sch, r.schErr
	if base == nil && err == nil {
		base, err = newSchema(ctx, r.modDir, r.pkg, dir, r.types, r.mutants, r.run, o.Log)
	}
	if err != nil {
		return err
	}
	s := r.s
	whole := time.Minute
	for _, u := range p.units {
		whole += 3 * u.dur
	}
	if r.sch != nil && o.Shared != nil {
		sch := &schema{overlay: base.overlay, pkg: base.pkg, ids: base.ids, sharedNote: ", the module's"}
		err := func() error {
			for _, tp := range p.pkgs {
				bin, err := o.Shared.schemaBinary(ctx, s.Module, r.modDir, tp.path)
				if err != nil {
					return err
				}
				if err := o.Shared.schemaPasses(bin, tp.dir, s, func() error { return passes(ctx, bin, tp, s, whole, "the module's schemas") }); err != nil {
					return err
				}
				sch.bins = append(sch.bins, bin)
			}
			return nil
		}()
		if err == nil {
			p.schema = sch
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		o.Log("  schema: the module's shared build failed, the row builds its own: %v", err)
	}
	sch := &schema{overlay: base.overlay, pkg: base.pkg, ids: base.ids}
	for i, tp := range p.pkgs {
		bin := filepath.Join(dir, strconv.Itoa(i)+".test")
		if out, err := buildTest(ctx, r.modDir, sch.overlay, bin, tp.path); err != nil {
			return fmt.Errorf("go test -c %s with the schema: %s", tp.path, firstLines(out, 3))
		}
		sch.bins = append(sch.bins, bin)
	}
	for i, tp := range p.pkgs {
		if err := passes(ctx, sch.bins[i], tp, s, whole, "the schema"); err != nil {
			return err
		}
	}
	p.schema = sch
	return nil
}

// passes runs the row's selection of a schema's test binary with no mutant
// switched on; it must pass as the unmutated code does.
func passes(ctx context.Context, bin string, tp testPkg, s Scope, limit time.Duration, what string) error {
	if out, err := testCmd(ctx, bin, tp.dir, s.Env, limit, runArgs(s, s.Run)...); err != nil {
		return fmt.Errorf("with no mutant switched on, %s fails with %s: %s", tp.path, what, failingTest(out))
	}
	return nil
}
