// Package artifact holds hostsim's artifact logic (docs/protocol.md#artifacts): the manifest rules,
// the manifest digest, and the upload flow (start, blob PUT, commit, read, HEAD,
// abandon) with per-tenant holding, over a small persistence interface (Store) that the
// host backs with SQLite. It performs no HTTP and owns no state of its own.
package artifact

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/fault"
	"github.com/takokit/takokit/hostsim/internal/jsonvalue"
	"github.com/takokit/takokit/hostsim/internal/rules"
)

// Manifest facts hostsim adds to the shared table of catalog/wire/artifact.go
// (the manifest kinds, their members, media-type policies and portable ceilings):
// the per-entry size bound and the one auxiliary rule, a source map's target.
const (
	MaxEntrySize int64 = 268435456
	// sourceMapMediaType is the auxiliary module type a source map carries; it names
	// the module it maps (docs/protocol.md#artifacts).
	sourceMapMediaType = "application/source-map+json"
)

var digestRe = regexp.MustCompile(`^sha256:[0-9a-f]{64}$`)

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
	Kind       *wire.ManifestKind
	MainModule string  // a kind with a main module (WorkerBundle) only
	List       []Entry // the modules or files, in manifest order
	Raw        []byte  // the manifest member exactly as uploaded
	Digest     string  // RFC 8785 digest of Raw (docs/protocol.md#digests)
}

// Entries returns the modules of a WorkerBundle or the files of another kind.
func (m *Manifest) Entries() []Entry { return m.List }

// Digests returns the declared blob digests, unique and sorted.
func (m *Manifest) Digests() []string {
	var out []string
	for _, e := range m.List {
		out = append(out, e.Digest)
	}
	sort.Strings(out)
	return slices.Compact(out)
}

// DeclaredSize returns the size every entry with digest declares; ok is false when the
// manifest does not declare digest.
func (m *Manifest) DeclaredSize(digest string) (int64, bool) {
	for _, e := range m.List {
		if e.Digest == digest {
			return e.Size, true
		}
	}
	return 0, false
}

// Entry returns the module or file at path.
func (m *Manifest) Entry(path string) (Entry, bool) {
	for _, e := range m.List {
		if e.Path == path {
			return e, true
		}
	}
	return Entry{}, false
}

// Has reports whether the manifest declares path (the asset lookup's question).
func (m *Manifest) Has(path string) bool {
	_, ok := m.Entry(path)
	return ok
}

// TotalSize sums the declared entry sizes (the bound of maximumBundleBytes).
func (m *Manifest) TotalSize() int64 {
	var n int64
	for _, e := range m.List {
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
// every host rule of docs/protocol.md#artifacts: per-kind exclusivity, the kind's
// media-type policy, and the ceilings limits answers for its kind (nil: the portable
// ones). Every refusal is artifact_invalid naming the manifest pointer, the value and
// what is accepted.
func ParseManifest(raw []byte, limits Limits) (*Manifest, *rules.Refusal) {
	return parseManifest(raw, limits, Caller{})
}

// parseManifest is ParseManifest for a caller whose faults may switch one rule off.
func parseManifest(raw []byte, limits Limits, c Caller) (*Manifest, *rules.Refusal) {
	if err := wire.CheckIJSON(raw); err != nil {
		return nil, bad("", "not strict JSON: %v", err)
	}
	doc, err := jsonvalue.Decode(raw)
	if err != nil {
		return nil, bad("", "cannot be decoded: %v", err)
	}
	obj, ok := doc.(map[string]any)
	if !ok {
		return nil, bad("", "must be a JSON object {apiVersion, kind, …}")
	}
	m := &Manifest{Raw: bytes.Clone(raw)}
	if r := checkTop(obj, m, c); r != nil {
		return nil, r
	}
	if r := checkRules(m, c); r != nil {
		return nil, r
	}
	if r := checkCeilings(m, limits.of(m.Kind), c); r != nil {
		return nil, r
	}
	// The digest of the decoded document, canonicalized as a spec is: for bytes
	// CheckIJSON passed it is the digest of the bytes (TestParseManifestDigestsItsBytes),
	// without canonicalizing the text again, which was three-fifths of a parse.
	// Taken last: a manifest refused above is not hashed (one over a ceiling is
	// the largest a client sends).
	digest, err := wire.DigestValue(doc)
	if err != nil {
		return nil, bad("", "cannot be canonicalized: %v", err)
	}
	m.Digest = digest
	return m, nil
}

var topMembers = []string{"apiVersion", "kind", "mainModule", "modules", "files"}

func checkTop(obj map[string]any, m *Manifest, c Caller) *rules.Refusal {
	for _, k := range sortedKeys(obj) {
		if !slices.Contains(topMembers, k) {
			return bad("/"+wire.EscapePointerToken(k), "unknown member %q; a manifest has only %s", k, strings.Join(topMembers, ", "))
		}
	}
	if v, _ := obj["apiVersion"].(string); v != wire.ArtifactAPIVersion {
		return bad("/apiVersion", "apiVersion is %s; it must be %q", show(obj["apiVersion"]), wire.ArtifactAPIVersion)
	}
	name, _ := obj["kind"].(string)
	k, ok := wire.ManifestKindNamed(name)
	if !ok {
		return bad("/kind", "kind is %s; accepted: %s", show(obj["kind"]), strings.Join(kindNames(), ", "))
	}
	m.Kind = k
	if r := checkExclusive(obj, k, c); r != nil {
		return r
	}
	if _, has := obj[k.Member]; !has {
		return bad("/"+k.Member, "a %s manifest requires %s (1..%d entries)", k.Kind, k.Member, k.MaxEntries)
	}
	if k.HasMainModule() {
		if _, has := obj["mainModule"]; !has {
			return bad("/mainModule", "a %s manifest requires mainModule (the path of its loadable entry module)", k.Kind)
		}
		main, ok := obj["mainModule"].(string)
		if !ok {
			return bad("/mainModule", "mainModule is %s; it must be a path string", show(obj["mainModule"]))
		}
		if r := checkPath("/mainModule", main); r != nil {
			return r
		}
		m.MainModule = main
	}
	var r *rules.Refusal
	m.List, r = entries(obj[k.Member], k)
	return r
}

// checkExclusive is per-kind exclusivity: a manifest carries its own kind's members
// and no other kind's; the fault artifacts.mixed-kinds lets another kind's member
// through (it is then ignored).
func checkExclusive(obj map[string]any, k *wire.ManifestKind, c Caller) *rules.Refusal {
	own := []string{k.Member}
	if k.HasMainModule() {
		own = append(own, "mainModule")
	}
	for _, member := range []string{"mainModule", "modules", "files"} {
		if _, has := obj[member]; !has || slices.Contains(own, member) {
			continue
		}
		if c.Faults.On(fault.ArtifactsMixedKinds) {
			continue // another kind's member rides along
		}
		return bad("/"+member, "a %s manifest carries %s only, never %s; %s belongs to another manifest kind",
			k.Kind, strings.Join(own, " and "), member, member)
	}
	return nil
}

// kindNames are the manifest kinds of the shared table, in schema order.
func kindNames() []string {
	out := make([]string, len(wire.ManifestKinds))
	for i, k := range wire.ManifestKinds {
		out[i] = k.Kind
	}
	return out
}

// checkRules applies the host rules over the decoded entries.
func checkRules(m *Manifest, c Caller) *rules.Refusal {
	seen := map[string]string{}
	sizes := map[string]Entry{}
	for _, e := range m.List {
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
	if !m.Kind.HasMainModule() {
		return nil
	}
	if r := checkMainModule(m); r != nil {
		if !c.Faults.On(fault.ArtifactsAnyMainModule) {
			return r
		}
	}
	for _, e := range m.List {
		if e.MediaType != sourceMapMediaType {
			continue
		}
		target, ok := strings.CutSuffix(e.Path, ".map")
		if !ok {
			return bad(e.Pointer+"/"+m.Kind.PathMember, "source map %q is not named <module>.map", e.Path)
		}
		if !m.Has(target) {
			return bad(e.Pointer+"/"+m.Kind.PathMember, "source map %q maps module %q, which is not declared", e.Path, target)
		}
	}
	return nil
}

// checkMainModule requires mainModule to name a declared, loadable module.
func checkMainModule(m *Manifest) *rules.Refusal {
	main, ok := m.Entry(m.MainModule)
	if !ok {
		return bad("/mainModule", "mainModule %q names no declared module; declare it in %s", m.MainModule, m.Kind.Member)
	}
	if !m.Kind.IsLoadable(main.MediaType) {
		return bad("/mainModule", "mainModule %q has media type %q, which is not loadable; accepted: %s",
			m.MainModule, main.MediaType, strings.Join(m.Kind.Loadable, ", "))
	}
	return nil
}
