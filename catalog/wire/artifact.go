package wire

import (
	"regexp"
	"strings"
)

// Artifact manifests (docs/protocol.md#artifacts): the manifest kinds, what each one's
// entries are and may be, and which Form kind commits to which manifest kind. Client,
// host and runner read these facts from here.

// ArtifactAPIVersion is the apiVersion of every artifact manifest.
const ArtifactAPIVersion = "artifacts.takoform.com/v1alpha1"

// ManifestKind is one artifact manifest kind with its policy.
type ManifestKind struct {
	// Kind is the manifest's kind member.
	Kind string
	// Member is the list holding the entries: "modules" (WorkerBundle) or "files";
	// a manifest of one kind carries no other kind's member (per-kind exclusivity).
	Member string
	// PathMember is the member of an entry holding its path: "name" (a module) or "path".
	PathMember string
	// MediaTypes is the closed set of entry media types; empty means any normalized
	// lowercase type/subtype without parameters (MediaTypeRe).
	MediaTypes []string
	// Loadable is the subset of MediaTypes a runtime imports (WorkerBundle); a main
	// module must be one of them. The rest are auxiliary, carried but never imported.
	Loadable []string
	// MaxEntries is the portable ceiling on the number of entries (a host's
	// maximumBundleFiles may be lower).
	MaxEntries int64
	// Ordered is true when the entries' order is meaning (a migration history), not
	// an inventory.
	Ordered bool
}

// The manifest kinds.
var (
	WorkerBundleManifest = &ManifestKind{Kind: "WorkerBundle", Member: "modules", PathMember: "name",
		MediaTypes: []string{"application/javascript+module", "text/plain", "application/octet-stream", "application/wasm", "application/source-map+json"},
		Loadable:   []string{"application/javascript+module", "text/plain", "application/octet-stream", "application/wasm"},
		MaxEntries: 4096}
	StaticAssetBundleManifest = &ManifestKind{Kind: "StaticAssetBundle", Member: "files", PathMember: "path", MaxEntries: 16384}
	MigrationBundleManifest   = &ManifestKind{Kind: "MigrationBundle", Member: "files", PathMember: "path", MediaTypes: []string{"application/sql"},
		MaxEntries: 16384, Ordered: true}
)

// ManifestKinds lists the manifest kinds in the order the published schema names them.
var ManifestKinds = []*ManifestKind{WorkerBundleManifest, StaticAssetBundleManifest, MigrationBundleManifest}

// MaxBundleBytes is the portable ceiling on a manifest's summed entry sizes (a host's
// maximumBundleBytes may be lower).
const MaxBundleBytes int64 = 10 << 20

// MaxArtifactPath is the longest module name or file path of a manifest.
const MaxArtifactPath = 240

// ArtifactPathRe is the grammar of a module name or file path: relative,
// slash-separated segments that each start with a letter, digit or underscore.
var ArtifactPathRe = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9._-]*(?:/[A-Za-z0-9_][A-Za-z0-9._-]*)*$`)

// ValidArtifactPath reports whether p is a manifest path: 1..MaxArtifactPath
// characters of ArtifactPathRe, without a "." or ".." segment.
func ValidArtifactPath(p string) bool {
	if len(p) == 0 || len(p) > MaxArtifactPath || !ArtifactPathRe.MatchString(p) {
		return false
	}
	for _, seg := range strings.Split(p, "/") {
		if seg == "." || seg == ".." {
			return false
		}
	}
	return true
}

// MediaTypeRe is the grammar of an entry media type: normalized lowercase
// type/subtype, no parameters.
var MediaTypeRe = regexp.MustCompile(`^[a-z0-9][a-z0-9!#$&^_.+-]*/[a-z0-9][a-z0-9!#$&^_.+-]*$`)

// manifestOfForm maps an artifact-addressed Form kind to the manifest kind its
// manifestDigest must name; a Form kind and its manifest kind share a name except
// where listed.
var manifestOfForm = map[string]*ManifestKind{
	"WorkerBundle":       WorkerBundleManifest,
	"StaticAssetBundle":  StaticAssetBundleManifest,
	"SQLiteMigrationSet": MigrationBundleManifest,
}

// ManifestKindOf returns the manifest kind an artifact-addressed Form kind commits to.
func ManifestKindOf(formKind string) (*ManifestKind, bool) {
	m, ok := manifestOfForm[formKind]
	return m, ok
}

// HasMainModule reports whether the kind names a main module beside its entries
// (the kinds whose entries a runtime loads).
func (m *ManifestKind) HasMainModule() bool { return len(m.Loadable) > 0 }

// Auxiliary lists the media types the kind carries but never loads.
func (m *ManifestKind) Auxiliary() []string {
	var out []string
	for _, t := range m.MediaTypes {
		if !m.IsLoadable(t) {
			out = append(out, t)
		}
	}
	return out
}

// ManifestKindNamed returns the manifest kind whose kind member is kind.
func ManifestKindNamed(kind string) (*ManifestKind, bool) {
	for _, m := range ManifestKinds {
		if m.Kind == kind {
			return m, true
		}
	}
	return nil, false
}

// Admits reports whether mediaType is a valid entry media type of the kind.
func (m *ManifestKind) Admits(mediaType string) bool {
	if len(m.MediaTypes) == 0 {
		return len(mediaType) <= 255 && MediaTypeRe.MatchString(mediaType)
	}
	for _, t := range m.MediaTypes {
		if t == mediaType {
			return true
		}
	}
	return false
}

// IsLoadable reports whether mediaType may be a main module.
func (m *ManifestKind) IsLoadable(mediaType string) bool {
	for _, t := range m.Loadable {
		if t == mediaType {
			return true
		}
	}
	return false
}
