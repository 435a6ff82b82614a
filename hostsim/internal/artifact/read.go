package artifact

import (
	"bytes"
	"fmt"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/rules"
)

// ReadManifest is `GET {api}/artifacts/{manifestDigest}`: the manifest exactly as
// stored when tenant holds it; otherwise (never committed, another tenant's, or not a
// digest) artifact_missing.
func ReadManifest(st Store, tenant, digest string) ([]byte, error) {
	if !digestRe.MatchString(digest) {
		return nil, missing("%q is not a manifest digest (sha256: followed by 64 lowercase hex characters); nothing to read", digest)
	}
	held, err := st.HoldsManifest(tenant, digest)
	if err != nil {
		return nil, err
	}
	if held {
		raw, ok, err := st.ManifestBytes(digest)
		if err != nil || ok {
			return bytes.Clone(raw), err
		}
	}
	return nil, missing("manifest %s is not held by this tenant: it was never committed here; upload and commit it first", digest)
}

// HeadBlob is `HEAD {api}/artifacts/blobs/{sha256}`: true (200) only when tenant
// holds the blob; a malformed digest is simply not held (404).
func HeadBlob(st Store, tenant, digest string) (bool, error) {
	if !digestRe.MatchString(digest) {
		return false, nil
	}
	return st.HoldsBlob(tenant, digest)
}

// ResolveBundle resolves a manifestDigest (the value at pointer, e.g. "/manifestDigest")
// on apply, import and commit (docs/protocol.md#artifacts) for a Form that commits to
// manifest kind want: not held by the caller's tenant → artifact_missing; stored bytes
// that do not canonicalize to the digest, cannot be decoded, are of another kind than
// want or break a rule of docs/protocol.md#artifacts (the ceilings limits answers
// included) → artifact_invalid.
func ResolveBundle(st Store, c Caller, pointer, digest string, want *wire.ManifestKind, limits Limits) (*Manifest, error) {
	raw, err := ReadManifest(st, c.Tenant, digest)
	if err != nil {
		if r, ok := rules.AsRefusal(err); ok {
			return nil, &rules.Refusal{Code: r.Code, Pointer: pointer, Message: pointer + ": " + r.Message}
		}
		return nil, err
	}
	m, r := parseManifest(raw, limits, c)
	if r != nil {
		return nil, &rules.Refusal{Code: wire.CodeArtifactInvalid, Pointer: pointer,
			Message: fmt.Sprintf("%s: stored manifest %s breaks the manifest rules: %s", pointer, digest, r.Message)}
	}
	if m.Digest != digest {
		return nil, &rules.Refusal{Code: wire.CodeArtifactInvalid, Pointer: pointer,
			Message: fmt.Sprintf("%s: stored manifest %s canonicalizes to %s; the stored bytes are corrupt", pointer, digest, m.Digest)}
	}
	if m.Kind != want {
		return nil, &rules.Refusal{Code: wire.CodeArtifactInvalid, Pointer: pointer,
			Message: fmt.Sprintf("%s: manifest %s is a %s manifest; this reference needs a %s manifest; upload one of that kind and reference its digest",
				pointer, digest, m.Kind.Kind, want.Kind)}
	}
	return m, nil
}

// MainModuleExports reads the main module of a resolved bundle manifest and returns the
// handlers it exports by the scanner of docs/protocol.md#artifacts, with the module entry for
// messages. Missing bytes are artifact_missing.
func MainModuleExports(st Store, m *Manifest) ([]string, Entry, error) {
	main, ok := m.Entry(m.MainModule)
	if !ok {
		return nil, Entry{}, artifactInvalid("manifest %s: mainModule %q names no declared module", m.Digest, m.MainModule)
	}
	data, ok, err := st.BlobBytes(main.Digest)
	if err != nil {
		return nil, main, err
	}
	if !ok {
		return nil, main, missing("manifest %s: the bytes of main module %q (%s) are not stored", m.Digest, main.Path, main.Digest)
	}
	return rules.ExportedHandlers(main.MediaType, data), main, nil
}
