// Package artifacttest provides an in-memory artifact.Store for tests only. hostsim
// itself keeps all protocol state in SQLite; never use this double in the host.
package artifacttest

import (
	"bytes"
	"sort"
	"sync"

	"github.com/takokit/takokit/hostsim/internal/artifact"
)

// Mem is a goroutine-safe in-memory artifact.Store. Fail, when set, is returned by
// every method (to test store-error propagation).
type Mem struct {
	mu        sync.Mutex
	uploads   map[string]artifact.Upload
	blobs     map[string][]byte
	blobHolds map[string]map[string]bool // digest -> tenants
	manifests map[string][]byte
	manHolds  map[string]map[string]bool
	Fail      error
}

var _ artifact.Store = (*Mem)(nil)

// NewMem returns an empty store.
func NewMem() *Mem {
	return &Mem{uploads: map[string]artifact.Upload{}, blobs: map[string][]byte{}, blobHolds: map[string]map[string]bool{},
		manifests: map[string][]byte{}, manHolds: map[string]map[string]bool{}}
}

func (m *Mem) InsertUpload(u artifact.Upload) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.Fail != nil {
		return m.Fail
	}
	u.Manifest = bytes.Clone(u.Manifest)
	m.uploads[u.ID] = u
	return nil
}

func (m *Mem) UpdateUpload(u artifact.Upload) error { return m.InsertUpload(u) }

func (m *Mem) GetUpload(id string) (artifact.Upload, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	u, ok := m.uploads[id]
	return u, ok, m.Fail
}

func (m *Mem) OpenUploads(tenant string) ([]artifact.Upload, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []artifact.Upload
	for _, u := range m.uploads {
		if u.Tenant == tenant && u.State == artifact.UploadOpen {
			out = append(out, u)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, m.Fail
}

func (m *Mem) HoldsBlob(tenant, digest string) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.blobHolds[digest][tenant], m.Fail
}

func (m *Mem) BlobBytes(digest string) ([]byte, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	b, ok := m.blobs[digest]
	return bytes.Clone(b), ok, m.Fail
}

func (m *Mem) PutBlob(tenant, digest string, data []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.Fail != nil {
		return m.Fail
	}
	if _, ok := m.blobs[digest]; !ok {
		m.blobs[digest] = bytes.Clone(data)
	}
	if m.blobHolds[digest] == nil {
		m.blobHolds[digest] = map[string]bool{}
	}
	m.blobHolds[digest][tenant] = true
	return nil
}

func (m *Mem) ReleaseBlob(tenant, digest string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.Fail != nil {
		return m.Fail
	}
	delete(m.blobHolds[digest], tenant)
	if len(m.blobHolds[digest]) == 0 {
		delete(m.blobHolds, digest)
		delete(m.blobs, digest)
	}
	return nil
}

func (m *Mem) HoldsManifest(tenant, digest string) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.manHolds[digest][tenant], m.Fail
}

func (m *Mem) ManifestBytes(digest string) ([]byte, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	b, ok := m.manifests[digest]
	return bytes.Clone(b), ok, m.Fail
}

func (m *Mem) PutManifest(tenant, digest string, raw []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.Fail != nil {
		return m.Fail
	}
	if _, ok := m.manifests[digest]; !ok {
		m.manifests[digest] = bytes.Clone(raw)
	}
	if m.manHolds[digest] == nil {
		m.manHolds[digest] = map[string]bool{}
	}
	m.manHolds[digest][tenant] = true
	return nil
}

func (m *Mem) TenantManifests(tenant string) ([]string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []string
	for d, ts := range m.manHolds {
		if ts[tenant] {
			out = append(out, d)
		}
	}
	sort.Strings(out)
	return out, m.Fail
}

// StoredBlob reports whether any bytes are stored under digest (for tests asserting
// that bytes were freed or kept).
func (m *Mem) StoredBlob(digest string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	_, ok := m.blobs[digest]
	return ok
}

// CorruptManifest replaces stored manifest bytes (for docs/protocol.md#artifacts tests).
func (m *Mem) CorruptManifest(digest string, raw []byte) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.manifests[digest] = bytes.Clone(raw)
}

// CorruptBlob replaces stored blob bytes (for commit re-check tests).
func (m *Mem) CorruptBlob(digest string, data []byte) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.blobs[digest] = bytes.Clone(data)
}
