package profile

import (
	"embed"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/jsonfile"
	"github.com/takokit/takokit/hostsim/internal/nearest"
)

//go:embed builtin/*.json
var builtinFS embed.FS

// BuiltinNames lists the built-in profiles in documentation order.
var BuiltinNames = []string{"full", "kv-only", "no-endpoints", "no-secrets", "no-bucket-binding", "tight-limits", "async",
	"silent-support", "unreadable-support"}

// IsBuiltin reports whether name is a built-in profile.
func IsBuiltin(name string) bool {
	for _, n := range BuiltinNames {
		if n == name {
			return true
		}
	}
	return false
}

// Load returns the merged profile named by ref: a built-in name, or a file path.
// Errors name the file and the JSON pointer at fault.
func Load(ref string) (*Profile, error) {
	return load(ref, "", map[string]bool{})
}

// Parse merges one document (already read) whose parent is resolved by Load.
func Parse(source string, data []byte) (*Profile, error) {
	return parse(source, "", "", data, map[string]bool{source: true})
}

// load reads a built-in or a file; a relative file named by a file's extends
// is found next to that file (base). A ref that is no built-in name and does
// not look like a path (no /, \ or .) is an unknown name, wherever it is written.
func load(ref, base string, seen map[string]bool) (*Profile, error) {
	builtin := IsBuiltin(ref)
	if !builtin && !strings.ContainsAny(ref, "/\\.") {
		return nil, fmt.Errorf("unknown profile %q%s; built-in profiles are: %s (or give a path to a profile file)",
			ref, nearest.Suggest(ref, BuiltinNames), strings.Join(BuiltinNames, ", "))
	}
	if !builtin && base != "" && !filepath.IsAbs(ref) {
		ref = filepath.Join(base, ref)
	}
	if seen[ref] {
		return nil, fmt.Errorf("profile %q extends itself through a cycle", ref)
	}
	seen[ref] = true
	var data []byte
	var err error
	source := ref
	if builtin {
		data, err = builtinFS.ReadFile("builtin/" + ref + ".json")
		source = "built-in profile " + ref
	} else {
		data, err = os.ReadFile(ref)
		source = "profile file " + ref
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", source, err)
	}
	if builtin {
		return parse(source, "", "", data, seen)
	}
	return parse(source, filepath.Dir(ref), ref, data, seen)
}

// parse merges one document over its parent; path names a profile file ("" for
// a built-in or a document given as bytes), recorded for CheckCatalog.
func parse(source, dir, path string, data []byte, seen map[string]bool) (*Profile, error) {
	child, own, err := decode(data)
	if err != nil {
		name := path
		if name == "" {
			name = source
		}
		return nil, fmt.Errorf("%s does not parse (a profile is a JSON object with the members of docs/guides/partial-hosts.md): %s",
			source, jsonfile.Join(jsonfile.Problems(name, data, err)))
	}
	merged := own
	var files []file
	if child.Extends != "" {
		parent, err := load(child.Extends, dir, seen)
		if err != nil {
			if path != "" {
				return nil, fmt.Errorf("%s:%d: /extends: %v", path, jsonfile.Line(data, []string{"extends"}), err)
			}
			return nil, fmt.Errorf("%s: /extends: %v", source, err)
		}
		merged = Merge(parent.Doc, own)
		files = parent.files
	}
	delete(merged, "extends")
	raw, err := json.Marshal(merged)
	if err != nil {
		return nil, err
	}
	p, doc, err := decode(raw)
	if err != nil {
		return nil, fmt.Errorf("%s: the merged profile is invalid: %v", source, err)
	}
	if err := p.check(); err != nil {
		return nil, fmt.Errorf("%s: %v", source, err)
	}
	if path != "" {
		files = append(files, file{path: path, data: data, doc: own})
	}
	p.Doc, p.files = doc, files
	return p, nil
}

// Merge deep-merges child into parent: objects merge member by member, any other
// value (arrays included) replaces the parent's. Neither input is modified.
func Merge(parent, child map[string]any) map[string]any {
	out := make(map[string]any, len(parent)+len(child))
	for k, v := range parent {
		out[k] = v
	}
	for k, v := range child {
		pm, pok := out[k].(map[string]any)
		cm, cok := v.(map[string]any)
		if pok && cok {
			out[k] = Merge(pm, cm)
			continue
		}
		out[k] = v
	}
	return out
}

// JSON renders the merged document, members sorted, indented.
func (p *Profile) JSON() []byte {
	b, _ := json.MarshalIndent(p.Doc, "", "  ")
	return append(b, '\n')
}

// Canonical renders the merged document compactly (RFC 8785).
func (p *Profile) Canonical() []byte {
	b, _ := wire.CanonicalValue(p.Doc)
	return b
}

// Describe returns one line per built-in profile: name and description.
func Describe() []string {
	var out []string
	for _, n := range BuiltinNames {
		p, err := Load(n)
		if err != nil {
			out = append(out, n+"\t(broken: "+err.Error()+")")
			continue
		}
		out = append(out, fmt.Sprintf("%-19s %s", n, p.Description))
	}
	return out
}

// sortedKeys returns the keys of m in order.
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
