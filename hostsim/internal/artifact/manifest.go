// Package artifact holds hostsim's artifact logic (docs/protocol.md#artifacts): the manifest rules,
// the manifest digest, and the upload flow (start, blob PUT, commit, read, HEAD,
// abandon) with per-tenant holding, over a small persistence interface (Store) that the
// host backs with SQLite. It performs no HTTP and owns no state of its own.
package artifact

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/fault"
	"github.com/takokit/takokit/hostsim/internal/rules"
)

// Manifest format facts (docs/protocol.md#artifacts).
const (
	APIVersion                  = "artifacts.takoform.com/v1alpha1"
	KindWorkerBundle            = "WorkerBundle"
	KindStaticAssetBundle       = "StaticAssetBundle"
	KindMigrationBundle         = "MigrationBundle"
	MaxModules                  = 4096
	MaxFiles                    = 16384
	MaxEntrySize          int64 = 268435456
	MaxPathLength               = 240
	MaxMediaTypeLength          = 255
	// DefaultMaximumBundleBytes is maximumBundleBytes unless a profile narrows it.
	DefaultMaximumBundleBytes int64 = 10485760
	SourceMapMediaType              = "application/source-map+json"
)

// Kinds are the manifest kinds in schema order.
var Kinds = []string{KindWorkerBundle, KindStaticAssetBundle, KindMigrationBundle}

// LoadableMediaTypes are the module media types a runtime loads; SourceMapMediaType is
// the one auxiliary type. Every other module media type (application/json included) is
// refused.
var LoadableMediaTypes = []string{"application/javascript+module", "text/plain", "application/octet-stream", "application/wasm"}

var (
	pathRe      = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9._-]*(?:/[A-Za-z0-9_][A-Za-z0-9._-]*)*$`)
	mediaTypeRe = regexp.MustCompile(`^[a-z0-9][a-z0-9!#$&^_.+-]*/[a-z0-9][a-z0-9!#$&^_.+-]*$`)
	digestRe    = regexp.MustCompile(`^sha256:[0-9a-f]{64}$`)
)

// Entry is one module (Path is its name) or file of a manifest.
type Entry struct {
	Path      string
	MediaType string
	Size      int64
	Digest    string
	Pointer   string // "/modules/0", "/files/3"
}

// Manifest is a decoded, validated manifest with the bytes it was uploaded as.
type Manifest struct {
	Kind       string
	MainModule string  // WorkerBundle only
	Modules    []Entry // WorkerBundle only
	Files      []Entry // the other kinds
	Raw        []byte  // the manifest member exactly as uploaded
	Digest     string  // RFC 8785 digest of Raw (docs/protocol.md#digests)
}

// Entries returns the modules of a WorkerBundle or the files of another kind.
func (m *Manifest) Entries() []Entry {
	if m.Kind == KindWorkerBundle {
		return m.Modules
	}
	return m.Files
}

// Digests returns the declared blob digests, unique and sorted.
func (m *Manifest) Digests() []string {
	var out []string
	for _, e := range m.Entries() {
		out = append(out, e.Digest)
	}
	sort.Strings(out)
	return slices.Compact(out)
}

// DeclaredSize returns the size every entry with digest declares; ok is false when the
// manifest does not declare digest.
func (m *Manifest) DeclaredSize(digest string) (int64, bool) {
	for _, e := range m.Entries() {
		if e.Digest == digest {
			return e.Size, true
		}
	}
	return 0, false
}

// Module returns the module named name.
func (m *Manifest) Module(name string) (Entry, bool) {
	for _, e := range m.Modules {
		if e.Path == name {
			return e, true
		}
	}
	return Entry{}, false
}

// TotalSize sums the declared entry sizes (the bound of maximumBundleBytes).
func (m *Manifest) TotalSize() int64 {
	var n int64
	for _, e := range m.Entries() {
		n += e.Size
	}
	return n
}

func bad(ptr, format string, args ...any) *rules.Refusal {
	msg := fmt.Sprintf(format, args...)
	if ptr != "" {
		msg = "manifest" + ptr + ": " + msg
	} else {
		msg = "manifest: " + msg
	}
	return &rules.Refusal{Code: wire.CodeArtifactInvalid, Pointer: "/manifest" + ptr, Message: msg}
}

// ParseManifest decodes the manifest member raw (as uploaded) and applies the schema and
// every host rule of docs/protocol.md#artifacts, with maxBundleBytes the bound on the summed
// declared sizes (DefaultMaximumBundleBytes unless a profile narrows it; <= 0 means the
// default). Every refusal is artifact_invalid naming the manifest pointer, the value
// and what is accepted.
func ParseManifest(raw []byte, maxBundleBytes int64) (*Manifest, *rules.Refusal) {
	return parseManifest(raw, maxBundleBytes, Caller{})
}

// parseManifest is ParseManifest for a caller whose faults may switch one rule off.
func parseManifest(raw []byte, maxBundleBytes int64, c Caller) (*Manifest, *rules.Refusal) {
	if maxBundleBytes <= 0 {
		maxBundleBytes = DefaultMaximumBundleBytes
	}
	if err := wire.CheckIJSON(raw); err != nil {
		return nil, bad("", "not strict JSON: %v", err)
	}
	digest, err := wire.Digest(raw)
	if err != nil {
		return nil, bad("", "cannot be canonicalized: %v", err)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return nil, bad("", "cannot be decoded: %v", err)
	}
	obj, ok := doc.(map[string]any)
	if !ok {
		return nil, bad("", "must be a JSON object {apiVersion, kind, …}")
	}
	m := &Manifest{Raw: bytes.Clone(raw), Digest: digest}
	if r := checkTop(obj, m, c); r != nil {
		return nil, r
	}
	if r := checkRules(m, maxBundleBytes, c); r != nil {
		return nil, r
	}
	return m, nil
}

var topMembers = []string{"apiVersion", "kind", "mainModule", "modules", "files"}

func checkTop(obj map[string]any, m *Manifest, c Caller) *rules.Refusal {
	for _, k := range sortedKeys(obj) {
		if !slices.Contains(topMembers, k) {
			return bad("/"+wire.EscapePointerToken(k), "unknown member %q; a manifest has only %s", k, strings.Join(topMembers, ", "))
		}
	}
	if v, _ := obj["apiVersion"].(string); v != APIVersion {
		return bad("/apiVersion", "apiVersion is %s; it must be %q", show(obj["apiVersion"]), APIVersion)
	}
	kind, _ := obj["kind"].(string)
	if !slices.Contains(Kinds, kind) {
		return bad("/kind", "kind is %s; accepted: %s", show(obj["kind"]), strings.Join(Kinds, ", "))
	}
	m.Kind = kind
	_, hasMain := obj["mainModule"]
	_, hasModules := obj["modules"]
	_, hasFiles := obj["files"]
	if kind == KindWorkerBundle {
		if hasFiles {
			if !c.Faults.On(fault.ArtifactsMixedKinds) {
				return bad("/files", "a %s manifest carries mainModule and modules, never files", kind)
			}
		}
		switch {
		case !hasMain:
			return bad("/mainModule", "a %s manifest requires mainModule (the path of its loadable entry module)", kind)
		case !hasModules:
			return bad("/modules", "a %s manifest requires modules (1..%d entries)", kind, MaxModules)
		}
		main, ok := obj["mainModule"].(string)
		if !ok {
			return bad("/mainModule", "mainModule is %s; it must be a path string", show(obj["mainModule"]))
		}
		if r := checkPath("/mainModule", main); r != nil {
			return r
		}
		m.MainModule = main
		var r *rules.Refusal
		m.Modules, r = entries(obj["modules"], "/modules", "name", MaxModules, true)
		return r
	}
	switch {
	case hasMain:
		return bad("/mainModule", "a %s manifest carries files only; mainModule belongs to WorkerBundle", kind)
	case hasModules:
		return bad("/modules", "a %s manifest carries files only; modules belong to WorkerBundle", kind)
	case !hasFiles:
		return bad("/files", "a %s manifest requires files (1..%d entries)", kind, MaxFiles)
	}
	var r *rules.Refusal
	m.Files, r = entries(obj["files"], "/files", "path", MaxFiles, false)
	return r
}

// checkRules applies the host rules over the decoded entries.
func checkRules(m *Manifest, maxBundleBytes int64, c Caller) *rules.Refusal {
	seen := map[string]string{}
	sizes := map[string]Entry{}
	for _, e := range m.Entries() {
		if first, dup := seen[e.Path]; dup {
			if !c.Faults.On(fault.ArtifactsDuplicateNames) {
				return bad(e.Pointer, "%q is declared twice (first at manifest%s); names and paths are unique", e.Path, first)
			}
		}
		seen[e.Path] = e.Pointer
		if prev, ok := sizes[e.Digest]; ok && prev.Size != e.Size {
			return bad(e.Pointer+"/size", "digest %s is declared with size %d here and %d at manifest%s; one digest has one size",
				e.Digest, e.Size, prev.Size, prev.Pointer)
		}
		sizes[e.Digest] = e
	}
	if m.Kind == KindWorkerBundle {
		if r := checkMainModule(m); r != nil {
			if !c.Faults.On(fault.ArtifactsAnyMainModule) {
				return r
			}
		}
		for _, e := range m.Modules {
			if e.MediaType != SourceMapMediaType {
				continue
			}
			target, ok := strings.CutSuffix(e.Path, ".map")
			if !ok {
				return bad(e.Pointer+"/name", "source map %q is not named <module>.map", e.Path)
			}
			if _, ok := m.Module(target); !ok {
				return bad(e.Pointer+"/name", "source map %q maps module %q, which is not declared", e.Path, target)
			}
		}
	}
	if r := checkFilePolicy(m); r != nil {
		return r
	}
	if total := m.TotalSize(); total > maxBundleBytes {
		what := "file"
		if m.Kind == KindWorkerBundle {
			what = "module"
		}
		return bad("", "declared %s sizes sum to %d bytes, over maximumBundleBytes %d", what, total, maxBundleBytes)
	}
	return nil
}

// checkMainModule requires mainModule to name a declared, loadable module.
func checkMainModule(m *Manifest) *rules.Refusal {
	main, ok := m.Module(m.MainModule)
	if !ok {
		return bad("/mainModule", "mainModule %q names no declared module; declare it in modules", m.MainModule)
	}
	if !slices.Contains(LoadableMediaTypes, main.MediaType) {
		return bad("/mainModule", "mainModule %q has media type %q, which is not loadable; accepted: %s",
			m.MainModule, main.MediaType, strings.Join(LoadableMediaTypes, ", "))
	}
	return nil
}
