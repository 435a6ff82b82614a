package artifact

// UploadState is the life of an upload session.
type UploadState string

const (
	UploadOpen      UploadState = "open"
	UploadCommitted UploadState = "committed"
	UploadAbandoned UploadState = "abandoned"
)

// Upload is one upload session. It belongs to the tenant and principal that started it.
type Upload struct {
	ID             string
	Tenant         string
	Principal      string
	Manifest       []byte // the manifest member exactly as uploaded
	ManifestDigest string
	State          UploadState
}

// Store is the persistence the artifact flow needs. hostsim backs it with SQLite (one
// implementation over the request's transaction, so every flow step is atomic); tests
// use artifacttest.Mem. Blob and manifest bytes live in storage shared by all tenants,
// but a tenant may only see what it holds: every authorization question goes through
// the Holds* methods, never through the existence of bytes.
type Store interface {
	// InsertUpload records a new session; UpdateUpload replaces the session with u.ID.
	InsertUpload(u Upload) error
	UpdateUpload(u Upload) error
	// GetUpload returns the session with id, whatever its tenant and state.
	GetUpload(id string) (Upload, bool, error)
	// OpenUploads lists the tenant's sessions in state open.
	OpenUploads(tenant string) ([]Upload, error)

	// HoldsBlob reports whether tenant holds the blob with digest.
	HoldsBlob(tenant, digest string) (bool, error)
	// BlobBytes returns the stored bytes of digest (held by some tenant), or false.
	BlobBytes(digest string) ([]byte, bool, error)
	// PutBlob stores data under digest if absent (the caller verified the digest) and
	// records tenant's hold. It never replaces bytes another tenant stored.
	PutBlob(tenant, digest string, data []byte) error
	// ReleaseBlob drops tenant's hold on digest and frees the bytes when no tenant
	// holds them any longer. It never touches another tenant's hold.
	ReleaseBlob(tenant, digest string) error

	// HoldsManifest reports whether tenant holds the committed manifest digest.
	HoldsManifest(tenant, digest string) (bool, error)
	// ManifestBytes returns the committed manifest exactly as stored, or false.
	ManifestBytes(digest string) ([]byte, bool, error)
	// PutManifest stores raw under digest if absent and records tenant's hold.
	PutManifest(tenant, digest string, raw []byte) error
	// TenantManifests lists the digests of the manifests tenant holds.
	TenantManifests(tenant string) ([]string, error)
}
