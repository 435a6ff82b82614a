package catalog

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

// Helpers of the tests that break the base test catalog one rule at a time
// and compare the whole list of problems the loader answers.

// problemLines loads the sealed test catalog c and answers its problem lines
// (nil when it loads).
func problemLines(t *testing.T, c *tcat) []string {
	t.Helper()
	return loadProblems(t, mapFS(c.seal(t)))
}

// loadProblems loads the catalog in fsys and answers its problem lines (nil when
// it loads).
func loadProblems(t *testing.T, fsys fs.FS) []string {
	t.Helper()
	_, err := Load(fsys)
	if err == nil {
		return nil
	}
	var le *LoadError
	if !errors.As(err, &le) {
		t.Fatalf("error is %T, want *LoadError: %v", err, err)
	}
	var out []string
	for _, p := range le.Problems {
		out = append(out, p.String())
	}
	return out
}

// problemLine is the loader's line for one problem: file, JSON Pointer (an empty
// pointer is written `""` by the caller, as Problem.String writes it) and message.
func problemLine(file, ptr, format string, args ...any) string {
	return fmt.Sprintf("catalog: %s: %s: %s", file, ptr, fmt.Sprintf(format, args...))
}

// problemLineIn is problemLine for the problems of one file.
func problemLineIn(file string) func(ptr, format string, args ...any) string {
	return func(ptr, format string, args ...any) string { return problemLine(file, ptr, format, args...) }
}

// problemCase is a test catalog broken one way and the whole list of problem
// lines the loader must answer for it (nil: it loads).
type problemCase struct {
	name   string
	mutate func(c *tcat)
	want   []string
}

// checkProblems loads the base test catalog broken by each case, as subtests.
func checkProblems(t *testing.T, cases []problemCase) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cat := baseCatalog()
			c.mutate(cat)
			if got := problemLines(t, cat); !slices.Equal(got, c.want) {
				t.Errorf("problems:\n got %s\nwant %s", strings.Join(got, "\n     "), strings.Join(c.want, "\n     "))
			}
		})
	}
}

// opNames names n operations op0..op(n-1).
func opNames(n int) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = fmt.Sprintf("op%d", i)
	}
	return out
}

// loadBase loads the base test catalog, sealed.
func loadBase(t *testing.T) *Catalog {
	t.Helper()
	c, err := Load(mapFS(baseCatalog().seal(t)))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// withFiles edits the sealed files of the test catalog.
func withFiles(edit func(files map[string][]byte)) func(c *tcat) {
	return func(c *tcat) { c.post = append(c.post, edit) }
}

// copyDir copies every sealed file under from/ to to/.
func copyDir(files map[string][]byte, from, to string) {
	for p, b := range files {
		if rest, ok := strings.CutPrefix(p, from+"/"); ok {
			files[to+"/"+rest] = b
		}
	}
}

// moveDir moves every sealed file under from/ to to/.
func moveDir(files map[string][]byte, from, to string) {
	moved := map[string][]byte{}
	for p, b := range files {
		if rest, ok := strings.CutPrefix(p, from+"/"); ok {
			moved[to+"/"+rest] = b
			delete(files, p)
		}
	}
	for p, b := range moved {
		files[p] = b
	}
}

// unreadable is a catalog whose one file or directory cannot be opened or
// listed, though its parent lists it.
type unreadable struct {
	fstest.MapFS
	file string
}

func (u unreadable) Open(name string) (fs.File, error) {
	if name == u.file {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrPermission}
	}
	return u.MapFS.Open(name)
}

func (u unreadable) ReadDir(name string) ([]fs.DirEntry, error) {
	if name == u.file {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrPermission}
	}
	return u.MapFS.ReadDir(name)
}

func (u unreadable) ReadFile(name string) ([]byte, error) {
	if name == u.file {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrPermission}
	}
	return u.MapFS.ReadFile(name)
}
