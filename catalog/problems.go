package catalog

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/takokit/takokit/catalog/wire"
)

// Problem is one broken authoring rule: the file relative to the catalog root, the
// JSON Pointer of the offending node ("" for the whole document or a directory) and
// what to do about it.
type Problem struct {
	File    string
	Pointer string
	Message string
}

func (p Problem) String() string {
	ptr := p.Pointer
	if ptr == "" {
		ptr = `""`
	}
	return fmt.Sprintf("catalog: %s: %s: %s", p.File, ptr, p.Message)
}

// LoadError is the single error Load returns for a catalog that breaks any rule. It
// lists every violation, sorted by file then pointer.
type LoadError struct {
	Problems []Problem
}

func (e *LoadError) Error() string {
	lines := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		lines[i] = p.String()
	}
	return strings.Join(lines, "\n")
}

// problems collects violations while a catalog loads. It also remembers which
// documents failed, so references to them are not reported a second time.
type problems struct {
	list            []Problem
	brokenKinds     map[string]bool // kind slugs without hyphens whose package failed
	brokenContracts map[string]bool // Interface or Binding directory names that failed
	// unreadForms, unreadContracts: a directory that could hold any Form
	// (forms/, a family) or any contract (interfaces/ or bindings/, a lane
	// directory) could not be read, so every kind or contract counts as broken.
	unreadForms, unreadContracts bool
	schemas                      *schemaSet // the Load's schema compiler
	// prechecked: the root already passed a checking Load (LoadPrechecked); the load
	// derives the model and skips what exists only to reject, compiling schemas lazily.
	prechecked bool
}

func (ps *problems) markKind(slug string) {
	if ps.brokenKinds == nil {
		ps.brokenKinds = map[string]bool{}
	}
	ps.brokenKinds[strings.ReplaceAll(slug, "-", "")] = true // the layout admits lower-case slugs only
}

// kindBroken reports whether a package of this kind failed to load.
func (ps *problems) kindBroken(kind string) bool {
	return ps.unreadForms || ps.brokenKinds[strings.ToLower(kind)]
}

// contractBroken reports whether the Interface or Binding of this name failed to load.
func (ps *problems) contractBroken(name string) bool {
	return ps.unreadContracts || ps.brokenContracts[name]
}

func (ps *problems) markContract(name string) {
	if ps.brokenContracts == nil {
		ps.brokenContracts = map[string]bool{}
	}
	ps.brokenContracts[name] = true
}

func (ps *problems) add(file, ptr, format string, args ...any) {
	ps.list = append(ps.list, Problem{File: file, Pointer: ptr, Message: fmt.Sprintf(format, args...)})
}

// addJSON records a strict-JSON or strict-decode failure with its pointers.
func (ps *problems) addJSON(file, base string, err error) {
	var se *wire.StrictError
	var je *wire.JSONError
	switch {
	case errors.As(err, &se):
		for _, p := range se.Problems {
			ps.add(file, base+p.Pointer, "%s", p.Message)
		}
	case errors.As(err, &je):
		ps.add(file, base+je.Pointer, "%s (byte %d)", je.Message, je.Offset)
	default:
		ps.add(file, base, "%v", err)
	}
}

func (ps *problems) err() error {
	if len(ps.list) == 0 {
		return nil
	}
	list := append([]Problem(nil), ps.list...)
	sort.SliceStable(list, func(i, j int) bool {
		if list[i].File != list[j].File {
			return list[i].File < list[j].File
		}
		return list[i].Pointer < list[j].Pointer
	})
	// identical lines say nothing new
	out := list[:0]
	for i, p := range list {
		if i > 0 && p == list[i-1] {
			continue
		}
		out = append(out, p)
	}
	return &LoadError{Problems: out}
}

func ptrJoin(base string, tokens ...string) string {
	for _, t := range tokens {
		base += "/" + wire.EscapePointerToken(t)
	}
	return base
}
