package mutate

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Shared is what the rows of one run measure once for all of them
// (docs/mutation.md#shared-baseline). Rows of one module run many of the same
// tests: hostsim's root package runs for nine rows, its lane package for four.
// Each module's test packages are built once with coverage of every package the
// run mutates in that module, and each test is run alone once, unmutated; a
// row's baseline then reads the blocks of its own files from those profiles.
type Shared struct {
	dir      string
	coverpkg map[string]string // by module: the import paths the run mutates there, comma-separated

	mu    sync.Mutex
	bins  map[string]*sharedBin
	units map[string]*sharedUnit
}

type sharedBin struct {
	once sync.Once
	path string
	err  error
	out  []byte
}

// sharedUnit is one test run alone, unmutated: its time and coverage profile,
// or its failure.
type sharedUnit struct {
	once sync.Once
	dur  time.Duration
	prof string
	err  error
	out  []byte
}

// NewShared resolves each row's package and gives the run's shared baseline;
// Close removes what it measured.
func NewShared(root string, rows []Scope) (*Shared, error) {
	dir, err := os.MkdirTemp("", "takokit-mutate-shared-")
	if err != nil {
		return nil, err
	}
	sh := &Shared{dir: dir, coverpkg: map[string]string{}, bins: map[string]*sharedBin{}, units: map[string]*sharedUnit{}}
	pkgs := map[string][]string{}
	for _, s := range rows {
		d, err := s.ResolveDir(root)
		if err != nil {
			sh.Close()
			return nil, err
		}
		p, err := importPath(filepath.Join(root, s.Module), d)
		if err != nil {
			sh.Close()
			return nil, err
		}
		if !slices.Contains(pkgs[s.Module], p) {
			pkgs[s.Module] = append(pkgs[s.Module], p)
		}
	}
	for m, ps := range pkgs {
		slices.Sort(ps)
		sh.coverpkg[m] = strings.Join(ps, ",")
	}
	return sh, nil
}

// Close removes the shared binaries and profiles.
func (sh *Shared) Close() { os.RemoveAll(sh.dir) }

// coverFor is the -coverpkg of a row's test binaries: every package the run
// mutates in the row's module (the row's own when nothing is shared).
func (sh *Shared) coverFor(s Scope, pkg string) string {
	if sh == nil || sh.coverpkg[s.Module] == "" {
		return pkg
	}
	return sh.coverpkg[s.Module]
}

// testBinary builds test package t of the row's module with coverage of the
// module's mutated packages, once per run.
func (sh *Shared) testBinary(ctx context.Context, s Scope, modDir, t, coverpkg string) (string, []byte, error) {
	sh.mu.Lock()
	key := s.Module + "\x00" + t + "\x00" + coverpkg
	b, ok := sh.bins[key]
	if !ok {
		b = &sharedBin{path: filepath.Join(sh.dir, strconv.Itoa(len(sh.bins))+".test")}
		sh.bins[key] = b
	}
	sh.mu.Unlock()
	b.once.Do(func() {
		b.out, b.err = goCmd(ctx, modDir, nil, 0, "test", "-c", "-vet=off", "-cover", "-coverpkg="+coverpkg, "-o", b.path, t)
	})
	return b.path, b.out, b.err
}

// unit runs one unit alone through run, once per run for every row that asks
// with the same test binary, pattern, skip and environment.
func (sh *Shared) unit(key string, run func(prof string) (time.Duration, []byte, error)) (time.Duration, string, []byte, error) {
	sh.mu.Lock()
	u, ok := sh.units[key]
	if !ok {
		u = &sharedUnit{prof: filepath.Join(sh.dir, fmt.Sprintf("cover-%d.out", len(sh.units)))}
		sh.units[key] = u
	}
	sh.mu.Unlock()
	u.once.Do(func() { u.dur, u.out, u.err = run(u.prof) })
	return u.dur, u.prof, u.out, u.err
}
