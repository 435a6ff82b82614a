package mutate

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"sync"

	"golang.org/x/tools/go/packages"
)

// A mutant is viable when its package still type-checks. go/types is the
// compiler's own checker (declared and not used, imported and not used and
// missing returns included), so a mutant is judged in a few milliseconds, in
// process, instead of by a build of its own: only a mutant that type-checks is
// built or switched on in a schema.

// checker type-checks the mutated package with one file replaced. A mutant
// changes one function body of one file, so the other files are checked with
// their function bodies cut (their declarations are all the mutated file can
// see), and only errors in the mutated file count: a package of forty files is
// then checked in a few milliseconds.
type checker struct {
	fset    *token.FileSet
	files   []*ast.File    // the package's files, function bodies cut
	names   map[string]int // file path -> index into files
	imports map[string]*types.Package
	path    string
}

func newChecker(p *packages.Package) *checker {
	c := &checker{fset: p.Fset, names: map[string]int{}, imports: map[string]*types.Package{}, path: p.PkgPath}
	for i, f := range p.Syntax {
		c.names[p.Fset.File(f.Pos()).Name()] = i
		c.files = append(c.files, withoutBodies(f))
	}
	for _, imp := range p.Types.Imports() {
		c.imports[imp.Path()] = imp
	}
	return c
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

// check type-checks the package with m made; nil when it type-checks.
func (c *checker) check(m Mutant) error {
	i, ok := c.names[m.File]
	if !ok {
		return fmt.Errorf("%s is not a file of %s", m.File, c.path)
	}
	orig, err := os.ReadFile(m.File)
	if err != nil {
		return err
	}
	f, err := parser.ParseFile(c.fset, m.File, m.Apply(orig), parser.SkipObjectResolution)
	if err != nil {
		return err
	}
	files := make([]*ast.File, len(c.files))
	copy(files, c.files)
	files[i] = f
	var first error
	conf := types.Config{
		Importer: importerFunc(func(path string) (*types.Package, error) {
			if path == "unsafe" {
				return types.Unsafe, nil
			}
			if p, ok := c.imports[path]; ok {
				return p, nil
			}
			return nil, fmt.Errorf("%s is not imported by %s", path, c.path)
		}),
		Error: func(err error) {
			if te, ok := err.(types.Error); ok && c.fset.File(te.Pos) != c.fset.File(f.Pos()) {
				return // another file, whose bodies were cut: unused imports
			}
			if first == nil {
				first = err
			}
		},
	}
	_, _ = conf.Check(c.path, c.fset, files, nil)
	return first
}

// viability type-checks every mutant, workers at a time: the error of each that
// does not type-check, nil for one that does.
func (c *checker) viability(mutants []Mutant, workers int) []error {
	out := make([]error, len(mutants))
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range max(1, workers) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				out[i] = c.check(mutants[i])
			}
		}()
	}
	for i := range mutants {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	return out
}

// withoutBodies is a shallow copy of f whose function declarations have no body.
func withoutBodies(f *ast.File) *ast.File {
	g := *f
	g.Decls = make([]ast.Decl, len(f.Decls))
	for i, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok {
			cut := *fd
			cut.Body = nil
			d = &cut
		}
		g.Decls[i] = d
	}
	return &g
}
