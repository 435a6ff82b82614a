package artifact

import (
	"fmt"
	"strings"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/rules"
)

// The manifest-kind policies of catalog/wire/artifact.go that the files of a
// manifest meet beyond the media-type grammar, and resolution for a Form that
// commits to a kind other than WorkerBundle (docs/protocol.md#artifacts).

// checkFilePolicy holds each file of a files manifest to its kind's closed
// media-type set: a MigrationBundle's files are exactly application/sql.
func checkFilePolicy(m *Manifest) *rules.Refusal {
	k, ok := wire.ManifestKindNamed(m.Kind)
	if !ok || m.Kind == KindWorkerBundle {
		return nil
	}
	for _, e := range m.Files {
		if !k.Admits(e.MediaType) {
			return bad(e.Pointer+"/mediaType", "file media type %q is not accepted in a %s manifest; accepted: exactly %s",
				e.MediaType, m.Kind, strings.Join(k.MediaTypes, ", "))
		}
	}
	return nil
}

// ResolveManifest is ResolveBundle for a Form that commits to manifest kind
// want (catalog/wire.ManifestKindOf): not held by tenant → artifact_missing;
// corrupt, undecodable, of another kind or breaking a manifest rule →
// artifact_invalid.
func ResolveManifest(st Store, tenant, pointer, digest string, want *wire.ManifestKind, maxBundleBytes int64) (*Manifest, error) {
	raw, err := ReadManifest(st, tenant, digest)
	if err != nil {
		if r, ok := rules.AsRefusal(err); ok {
			return nil, &rules.Refusal{Code: r.Code, Pointer: pointer, Message: pointer + ": " + r.Message}
		}
		return nil, err
	}
	m, r := ParseManifest(raw, maxBundleBytes)
	if r != nil {
		return nil, &rules.Refusal{Code: wire.CodeArtifactInvalid, Pointer: pointer,
			Message: fmt.Sprintf("%s: stored manifest %s breaks the manifest rules: %s", pointer, digest, r.Message)}
	}
	if m.Digest != digest {
		return nil, &rules.Refusal{Code: wire.CodeArtifactInvalid, Pointer: pointer,
			Message: fmt.Sprintf("%s: stored manifest %s canonicalizes to %s; the stored bytes are corrupt", pointer, digest, m.Digest)}
	}
	if m.Kind != want.Kind {
		return nil, &rules.Refusal{Code: wire.CodeArtifactInvalid, Pointer: pointer,
			Message: fmt.Sprintf("%s: manifest %s is a %s manifest; this reference needs a %s manifest; upload one of that kind and reference its digest",
				pointer, digest, m.Kind, want.Kind)}
	}
	return m, nil
}
