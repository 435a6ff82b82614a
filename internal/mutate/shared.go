package mutate

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
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

	rows     map[string]*row       // by row name, made ready by Prepare
	overlays map[string]string     // by module: the overlay of every prepared row's schema
	schemas  map[string]*sharedBin // by module and test package: built with the module's overlay
	passes   map[string]*sharedUnit
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

// NewShared gives a run's shared baseline, empty until Prepare; Close removes
// what it measured.
func NewShared() (*Shared, error) {
	dir, err := os.MkdirTemp("", "takokit-mutate-shared-")
	if err != nil {
		return nil, err
	}
	return &Shared{dir: dir, coverpkg: map[string]string{}, bins: map[string]*sharedBin{}, units: map[string]*sharedUnit{},
		rows: map[string]*row{}, overlays: map[string]string{}, schemas: map[string]*sharedBin{}, passes: map[string]*sharedUnit{}}, nil
}

// Close removes the shared binaries and profiles, and TempDir.
func (sh *Shared) Close() { os.RemoveAll(sh.dir) }

// TempDir is a directory inside the run's own, for the temporary files of the
// tests it runs (TMPDIR): a test binary killed at its deadline never removes its
// t.TempDir, which holds hostsim database files; Close removes them all.
func (sh *Shared) TempDir() (string, error) {
	d := filepath.Join(sh.dir, "tmp")
	return d, os.MkdirAll(d, 0o755)
}

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
		b.out, b.err = buildCovered(ctx, modDir, t, coverpkg, b.path)
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

// Prepare makes every row ready before any runs: mutants found and type-checked,
// each row's schema written and built on its own package, and per module one
// overlay holding every row's schema, so that each test package of a module is
// linked once for all its rows (a row's mutant is switched on by its id and its
// package, mutantPkgEnv). A row whose schema cannot be written is left to
// RunScope, which reports it as before.
func (sh *Shared) Prepare(ctx context.Context, o Options, rows []Scope) error {
	replace := map[string]map[string]string{}
	for i, s := range rows {
		start := time.Now()
		r, err := prepareRow(ctx, o, s)
		if err != nil {
			return err
		}
		r.sch, r.schErr = newSchema(ctx, r.modDir, r.pkg, filepath.Join(sh.dir, fmt.Sprintf("schema-%d", i)), r.types, r.mutants, r.run, o.Log)
		if r.schErr == nil {
			b, err := os.ReadFile(r.sch.overlay)
			if err != nil {
				return err
			}
			var ov struct{ Replace map[string]string }
			if err := json.Unmarshal(b, &ov); err != nil {
				return fmt.Errorf("%s: the schema's overlay: %w", s.Name, err)
			}
			if replace[s.Module] == nil {
				replace[s.Module] = map[string]string{}
			}
			maps.Copy(replace[s.Module], ov.Replace)
		}
		sh.rows[s.Name] = r
		if ps := strings.Split(sh.coverpkg[s.Module], ","); !slices.Contains(ps, r.pkg) {
			sh.coverpkg[s.Module] = strings.Trim(sh.coverpkg[s.Module]+","+r.pkg, ",")
		}
		o.Log("prepared %s: %d mutants, %d do not type-check, %d viable ones not sampled (%s)", s.Name, len(r.mutants), r.nv, r.ns, time.Since(start).Round(time.Millisecond))
	}
	for m, rp := range replace {
		b, _ := json.Marshal(map[string]any{"Replace": rp})
		f := filepath.Join(sh.dir, "overlay-"+strconv.Itoa(len(sh.overlays))+".json")
		if err := os.WriteFile(f, b, 0o644); err != nil {
			return err
		}
		sh.overlays[m] = f
	}
	return nil
}

// prepared is the row Prepare made ready, or nil.
func (sh *Shared) prepared(name string) *row {
	if sh == nil {
		return nil
	}
	return sh.rows[name]
}

// schemaBinary links test package t of module with every prepared row's schema
// of that module, once per run.
func (sh *Shared) schemaBinary(ctx context.Context, module, modDir, t string) (string, error) {
	sh.mu.Lock()
	overlay := sh.overlays[module]
	key := module + "\x00" + t
	b, ok := sh.schemas[key]
	if !ok {
		b = &sharedBin{path: filepath.Join(sh.dir, "schema-bin-"+strconv.Itoa(len(sh.schemas))+".test")}
		sh.schemas[key] = b
	}
	sh.mu.Unlock()
	if overlay == "" {
		return "", fmt.Errorf("no schema of module %s was prepared", module)
	}
	b.once.Do(func() {
		if b.out, b.err = buildTest(ctx, modDir, overlay, b.path, t); b.err != nil {
			b.err = fmt.Errorf("go test -c %s with the module's schemas: %s", t, firstLines(b.out, 3))
		}
	})
	return b.path, b.err
}

// schemaPasses runs check (the row's selection of bin with no mutant switched
// on) once per binary, directory, selection and environment; a failure is run
// again once before it counts (a test of hostsim's lane failed once beside three
// workers and passed in every run after), since it sends every row of the
// module back to a build of its own.
func (sh *Shared) schemaPasses(bin, dir string, s Scope, check func() error) error {
	key := strings.Join(append([]string{bin, dir, s.Run, s.Skip}, s.Env...), "\x00")
	sh.mu.Lock()
	u, ok := sh.passes[key]
	if !ok {
		u = &sharedUnit{}
		sh.passes[key] = u
	}
	sh.mu.Unlock()
	u.once.Do(func() {
		if u.err = check(); u.err != nil {
			u.err = check()
		}
	})
	return u.err
}
