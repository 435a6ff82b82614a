package mutate

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// LoadScope reads the scope table (a JSON list of rows).
func LoadScope(path string) ([]Scope, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var rows []Scope
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&rows); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	for _, r := range rows {
		if r.Name == "" || r.Module == "" || len(r.Dirs) == 0 || len(r.Files) == 0 || len(r.Tests) == 0 {
			return nil, fmt.Errorf("%s: row %q needs a name, a module, dirs, files and tests", path, r.Name)
		}
	}
	return rows, nil
}

// ResolveFiles gives the row's files under its resolved directory: each name or
// pattern must match at least one production file (not a test, not generated).
func (s Scope) ResolveFiles(root string) (string, []string, error) {
	dir, err := s.ResolveDir(root)
	if err != nil {
		return "", nil, err
	}
	var out []string
	for _, f := range s.Files {
		ms, err := filepath.Glob(filepath.Join(dir, f))
		if err != nil {
			return "", nil, err
		}
		n := 0
		for _, m := range ms {
			if ok, err := Production(m); err != nil {
				return "", nil, err
			} else if ok && !slices.Contains(out, filepath.Base(m)) {
				out = append(out, filepath.Base(m))
				n++
			}
		}
		if n == 0 && !slices.ContainsFunc(ms, func(m string) bool { return slices.Contains(out, filepath.Base(m)) }) {
			return "", nil, fmt.Errorf("%s: %s matches no production file in %s (update internal/mutate/scope.json)", s.Name, f, dir)
		}
	}
	return dir, out, nil
}

// Production says whether a Go file is production code: not a test, not
// generated (a *_gen.go name or a "Code generated ... DO NOT EDIT." line).
func Production(path string) (bool, error) {
	if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || strings.HasSuffix(path, "_gen.go") {
		return false, nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return false, err
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		l := sc.Text()
		if strings.HasPrefix(l, "package ") {
			break
		}
		if strings.HasPrefix(l, "// Code generated ") && strings.HasSuffix(l, " DO NOT EDIT.") {
			return false, nil
		}
	}
	return true, nil
}

// CodeLines counts a file's lines of code: not blank, not only a comment.
func CodeLines(path string) (int, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	n, inBlock := 0, false
	for _, l := range strings.Split(string(b), "\n") {
		l = strings.TrimSpace(l)
		if inBlock {
			if i := strings.Index(l, "*/"); i >= 0 {
				inBlock = false
				l = strings.TrimSpace(l[i+2:])
			} else {
				continue
			}
		}
		if strings.HasPrefix(l, "/*") && !strings.Contains(l, "*/") {
			inBlock = true
			continue
		}
		if l == "" || strings.HasPrefix(l, "//") {
			continue
		}
		n++
	}
	return n, nil
}

// ProductionLines counts the lines of code of every production file of the
// given modules (directories under root), skipping testdata and nested modules.
func ProductionLines(root string, modules []string) (int, error) {
	total := 0
	for _, m := range modules {
		base := filepath.Join(root, m)
		err := filepath.WalkDir(base, func(p string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if p != base && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
					return filepath.SkipDir
				}
				if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil && p != base {
					return filepath.SkipDir
				}
				return nil
			}
			ok, err := Production(p)
			if err != nil || !ok {
				return err
			}
			n, err := CodeLines(p)
			total += n
			return err
		})
		if err != nil {
			return 0, err
		}
	}
	return total, nil
}

// splitValues gives a split's values: its own, or its command's first fields.
func (sp *Split) values(root string) ([]string, error) {
	if len(sp.Values) > 0 || len(sp.ValuesFrom) == 0 {
		return sp.Values, nil
	}
	cmd := exec.Command(sp.ValuesFrom[0], sp.ValuesFrom[1:]...)
	if !filepath.IsAbs(sp.ValuesFrom[0]) && strings.Contains(sp.ValuesFrom[0], "/") {
		cmd.Path = filepath.Join(root, sp.ValuesFrom[0])
	}
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%v: %w (go tool mage build first?)", sp.ValuesFrom, err)
	}
	var vs []string
	for _, l := range strings.Split(string(out), "\n") {
		if f := strings.Fields(l); len(f) > 0 {
			vs = append(vs, f[0])
		}
	}
	if len(vs) == 0 {
		return nil, fmt.Errorf("%v printed no values", sp.ValuesFrom)
	}
	return vs, nil
}
