package artifact

import (
	"crypto/rand"
	"encoding/base32"
	"fmt"
	"io"
	"strings"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/fault"
	"github.com/takokit/takokit/hostsim/internal/rules"
)

// Caller is who makes an artifact request: sessions belong to a tenant and principal;
// holdings belong to a tenant.
type Caller struct {
	Tenant, Principal string
	// Faults are the request's armed hostsim faults, which may switch one rule
	// off (docs/protocol.md#faults); nil enforces every rule.
	Faults *fault.Set
}

// NewUploadID mints an upload id: "up_" + 26 random base32 characters.
func NewUploadID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return "up_" + strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(b[:]))
}

func missing(format string, args ...any) *rules.Refusal {
	return &rules.Refusal{Code: wire.CodeArtifactMissing, Message: fmt.Sprintf(format, args...)}
}

func artifactInvalid(format string, args ...any) *rules.Refusal {
	return &rules.Refusal{Code: wire.CodeArtifactInvalid, Message: fmt.Sprintf(format, args...)}
}

// Started is the answer of an upload start.
type Started struct {
	UploadID     string
	MissingBlobs []string // declared digests the tenant does not hold, unique and sorted (never nil)
	Manifest     *Manifest
}

// Start opens an upload session for manifest (the request's manifest member exactly as
// sent), docs/protocol.md#artifacts step 2: the manifest rules are applied, the
// ceilings limits answers for its kind included (artifact_invalid), and missingBlobs
// lists what the caller's tenant does not hold yet. Starting again opens a new session.
func Start(st Store, c Caller, manifest []byte, limits Limits) (*Started, error) {
	m, r := parseManifest(manifest, limits, c)
	if r != nil {
		return nil, r
	}
	miss := []string{}
	for _, d := range m.Digests() {
		held, err := st.HoldsBlob(c.Tenant, d)
		if err != nil {
			return nil, err
		}
		if !held {
			miss = append(miss, d)
		}
	}
	u := Upload{ID: NewUploadID(), Tenant: c.Tenant, Principal: c.Principal, Manifest: m.Raw,
		ManifestDigest: m.Digest, State: UploadOpen}
	if err := st.InsertUpload(u); err != nil {
		return nil, err
	}
	return &Started{UploadID: u.ID, MissingBlobs: miss, Manifest: m}, nil
}

// session finds the caller's live session: unknown, abandoned and foreign ids get one
// and the same artifact_missing answer (docs/protocol.md#artifacts).
func session(st Store, c Caller, id string) (Upload, *Manifest, error) {
	u, ok, err := st.GetUpload(id)
	if err != nil {
		return Upload{}, nil, err
	}
	unknown := missing("upload %q is unknown, abandoned or was started by another principal; start a new upload", id)
	if !ok || u.State == UploadAbandoned || u.Tenant != c.Tenant {
		return Upload{}, nil, unknown
	}
	if u.Principal != c.Principal {
		if !c.Faults.On(fault.ArtifactsSessionShared) {
			return Upload{}, nil, unknown
		}
	}
	m, r := parseManifest(u.Manifest, unbounded, c)
	if r != nil {
		return Upload{}, nil, r
	}
	return u, m, nil
}

// checkBlob: the bytes have exactly the declared size and digest.
func checkBlob(data []byte, size int64, digest, uploadID string) *rules.Refusal {
	switch {
	case int64(len(data)) > size:
		return artifactInvalid("blob %s of upload %q is larger than its declared size %d bytes; send exactly the file's bytes", digest, uploadID, size)
	case int64(len(data)) < size:
		return artifactInvalid("blob %s of upload %q has %d bytes; its declared size is %d", digest, uploadID, len(data), size)
	}
	if got := wire.RawDigest(data); got != digest {
		return artifactInvalid("bytes sent for blob %s of upload %q hash to %s; send the bytes the manifest declares", digest, uploadID, got)
	}
	return nil
}

// PutBlob is the blob PUT of docs/protocol.md#artifacts step 3. It reads at most the declared
// size plus one byte from body. The digest must be declared by the session's manifest
// and the bytes must have exactly its size and digest (artifact_invalid). created is true
// when the tenant holds the blob now for the first time (201), false when it already
// held it (204).
func PutBlob(st Store, c Caller, uploadID, digest string, body io.Reader) (created bool, err error) {
	u, m, err := session(st, c, uploadID)
	if err != nil {
		return false, err
	}
	size, ok := m.DeclaredSize(digest)
	if !ok {
		return false, artifactInvalid("blob %s is not declared by the manifest of upload %q; upload only the digests it declares (%s)",
			digest, u.ID, strings.Join(m.Digests(), ", "))
	}
	data, err := io.ReadAll(io.LimitReader(body, size+1))
	if err != nil {
		return false, fmt.Errorf("reading blob %s of upload %q: %w", digest, u.ID, err)
	}
	if r := checkBlob(data, size, digest, u.ID); r != nil {
		if !c.Faults.On(fault.ArtifactsUnverified) {
			return false, r // else the bytes are stored as sent, whatever their size and digest
		}
	}
	held, err := st.HoldsBlob(c.Tenant, digest)
	if err != nil || held {
		return false, err
	}
	return true, st.PutBlob(c.Tenant, digest, data)
}

// Commit is docs/protocol.md#artifacts step 4: it re-validates every manifest rule (with the
// ceilings in force now), requires every declared blob to be held by the tenant
// (artifact_missing naming the missing digests), re-checks declared sizes and digests
// against the stored bytes (artifact_invalid), then makes the tenant hold the manifest.
// created is false when the session was already committed (200, same digest).
func Commit(st Store, c Caller, uploadID string, limits Limits) (digest string, created bool, err error) {
	u, _, err := session(st, c, uploadID)
	if err != nil {
		return "", false, err
	}
	if u.State == UploadCommitted {
		return u.ManifestDigest, false, nil
	}
	m, r := parseManifest(u.Manifest, limits, c)
	if r != nil {
		return "", false, r
	}
	var absent []string
	for _, d := range m.Digests() {
		held, err := st.HoldsBlob(c.Tenant, d)
		if err != nil {
			return "", false, err
		}
		if !held {
			absent = append(absent, d)
		}
	}
	if len(absent) > 0 {
		return "", false, missing("upload %q cannot commit: blob(s) %s were never uploaded by this tenant; PUT them first",
			u.ID, strings.Join(absent, ", "))
	}
	for _, e := range m.Entries() {
		data, ok, err := st.BlobBytes(e.Digest)
		if err != nil {
			return "", false, err
		}
		if !ok {
			return "", false, missing("upload %q cannot commit: the bytes of blob %s are gone; upload them again", u.ID, e.Digest)
		}
		// a blob the tenant held before this upload was checked against the manifest
		// that brought it: this one may declare it with another size; and bytes the
		// artifacts.unverified fault let in may not hash to their digest
		if int64(len(data)) != e.Size {
			if !c.Faults.On(fault.ArtifactsTrustDeclared) {
				return "", false, artifactInvalid("manifest%s declares %q with size %d, but the stored blob %s has %d bytes; fix the manifest and start a new upload",
					e.Pointer, e.Path, e.Size, e.Digest, len(data))
			}
		} else if got := wire.RawDigest(data); got != e.Digest {
			if !c.Faults.On(fault.ArtifactsTrustDeclared) {
				return "", false, artifactInvalid("manifest%s declares %q as blob %s, but the stored bytes hash to %s; upload the file again in a new upload",
					e.Pointer, e.Path, e.Digest, got)
			}
		}
	}
	if err := st.PutManifest(c.Tenant, m.Digest, m.Raw); err != nil {
		return "", false, err
	}
	u.State = UploadCommitted
	if err := st.UpdateUpload(u); err != nil {
		return "", false, err
	}
	return m.Digest, true, nil
}

// Abandon is docs/protocol.md#artifacts step 5: the session ends, and the tenant's hold on every
// blob of its manifest is dropped unless one of the tenant's committed manifests or
// other open sessions names it (bytes are freed by the Store only when no tenant holds
// them).
func Abandon(st Store, c Caller, uploadID string) error {
	u, m, err := session(st, c, uploadID)
	if err != nil {
		return err
	}
	u.State = UploadAbandoned
	if err := st.UpdateUpload(u); err != nil {
		return err
	}
	keep, err := keptDigests(st, c.Tenant, u.ID)
	if err != nil {
		return err
	}
	for _, d := range m.Digests() {
		if keep[d] {
			continue
		}
		held, err := st.HoldsBlob(c.Tenant, d)
		if err != nil {
			return err
		}
		if held {
			if err := st.ReleaseBlob(c.Tenant, d); err != nil {
				return err
			}
		}
	}
	return nil
}

// keptDigests are the blobs tenant still needs: named by its committed manifests or
// by its other open sessions.
func keptDigests(st Store, tenant, except string) (map[string]bool, error) {
	keep := map[string]bool{}
	digests, err := st.TenantManifests(tenant)
	if err != nil {
		return nil, err
	}
	var raws [][]byte
	for _, d := range digests {
		raw, ok, err := st.ManifestBytes(d)
		if err != nil {
			return nil, err
		}
		if ok {
			raws = append(raws, raw)
		}
	}
	open, err := st.OpenUploads(tenant)
	if err != nil {
		return nil, err
	}
	for _, u := range open {
		if u.ID != except {
			raws = append(raws, u.Manifest)
		}
	}
	for _, raw := range raws {
		if m, r := ParseManifest(raw, unbounded); r == nil {
			for _, d := range m.Digests() {
				keep[d] = true
			}
		}
	}
	return keep, nil
}
