// Package mutate is the mutation tester behind `go tool mage mutate` (docs/mutation.md).
//
// Its operators are a table (operators.go): gremlins' token swaps
// (github.com/go-gremlins/gremlins) plus statement and guard deletion, `!`
// removal, conditions forced true or false and a returned error made nil. Each
// mutant is type-checked first (one that does not type-check is NOT VIABLE, never
// killed), then only the tests a scope row names run against it, through one
// schema build per package or `go test -overlay`, so no module is copied and
// workspace replaces keep working.
package mutate

import (
	"bytes"
	"fmt"
	"go/parser"
	"go/token"
	"os"
	"sort"
	"strings"
)

// Kind is a mutation operator.
type Kind string

// Mutant is one text replacement in one file: Old, at Offset, becomes New.
type Mutant struct {
	File   string // absolute path
	Line   int
	Col    int
	Offset int    // byte offset of the replaced text
	Old    string // the text replaced (a token, an expression or a statement)
	New    string // what replaces it ("" removes it)
	Kind   Kind
	// Anchors are the starts of the statements that enclose the position,
	// innermost first: where go cover puts the position in no block (a case
	// expression, the rest of a statement after a function literal), the first
	// anchor in a block tells which tests execute it (docs/mutation.md).
	Anchors []Pos
	// Func is the start of the innermost function (declaration or literal)
	// holding the position: its mutants mostly fall to the same tests.
	Func Pos
	// Decl is a digest of the source of the outermost function holding the
	// position ("" outside every function).
	Decl string
}

// funcKey names m's function within the run.
func (m Mutant) funcKey() funcKey { return funcKey{m.File, m.Func} }

type funcKey struct {
	file string
	at   Pos
}

// Pos is a line and column of the mutated file.
type Pos struct{ Line, Col int }

// End is the byte offset just past the replaced text.
func (m Mutant) End() int { return m.Offset + len(m.Old) }

func (m Mutant) String() string {
	return fmt.Sprintf("%s:%d:%d %s %q -> %q", m.File, m.Line, m.Col, m.Kind, Short(m.Old), m.New)
}

// Short is s on one line, at most 60 bytes: a deleted statement can be long.
func Short(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return s
}

// Apply returns src with the mutation made.
func (m Mutant) Apply(src []byte) []byte {
	out := make([]byte, 0, len(src)+len(m.New))
	out = append(out, src[:m.Offset]...)
	out = append(out, m.New...)
	return append(out, src[m.End():]...)
}

// lineTexts gives the text of mutated files' lines, trimmed, each file read
// once: the sampling's pick and the killers' keys are made of it. An unreadable
// file gives empty lines.
type lineTexts map[string][][]byte

// at is the trimmed text of line (1-based) of file, empty past its end.
func (t lineTexts) at(file string, line int) []byte {
	lines, ok := t[file]
	if !ok {
		src, _ := os.ReadFile(file)
		lines = bytes.Split(src, []byte("\n"))
		t[file] = lines
	}
	if line < 1 || line > len(lines) {
		return nil
	}
	return bytes.TrimSpace(lines[line-1])
}

// Find lists the mutants every operator makes in one Go file, in source order.
func Find(path string) ([]Mutant, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return FindIn(path, src, Operators)
}

// FindIn lists the mutants the given operators make in src, in source order.
func FindIn(path string, src []byte, ops []Operator) ([]Mutant, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	fi := newFinder(fset, f, path, src)
	for _, op := range ops {
		op.find(fi, op.Kind)
	}
	sort.SliceStable(fi.out, func(i, j int) bool { return fi.out[i].Offset < fi.out[j].Offset })
	return fi.out, nil
}
