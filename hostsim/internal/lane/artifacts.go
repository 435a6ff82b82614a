package lane

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"

	"github.com/takokit/takokit/hostsim/internal/artifact"
	"github.com/takokit/takokit/hostsim/internal/rules"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// The artifact routes of host-api.md §17.1: every flow step runs inside one
// write transaction over artifact.SQL, so a refusal stores nothing. Upload
// start, blob PUT and commit that succeed count as uploads (hostsim.md §7);
// replays and refusals do not.

// bundleLimitKind is the profile limits key whose maximumBundleBytes bounds
// an upload commit, which names no Form (docs/decisions.md: bundle byte limits).
const bundleLimitKind = "WorkerBundle"

// maxBundleBytes is the profile's maximumBundleBytes for kind (default when silent).
func (s *Server) maxBundleBytes(kind string) int64 {
	if l, ok := s.Host.P.Limits[kind]; ok {
		if n, ok := l["maximumBundleBytes"]; ok {
			return n
		}
	}
	return artifact.DefaultMaximumBundleBytes
}

func (c *call) caller() artifact.Caller {
	return artifact.Caller{Tenant: c.who.Tenant, Principal: c.who.Principal, Lapse: c.faultOn}
}

// refusalOf turns an artifact or rules error into the wire refusal.
func refusalOf(err error) *apiError {
	if r, ok := rules.AsRefusal(err); ok {
		e := fail(r.Code, "%s", r.Message)
		if r.Pointer != "" {
			e.at(r.Pointer)
		}
		return e
	}
	var a *apiError
	if errors.As(err, &a) {
		return a
	}
	return internal(err)
}

// keyedArtifact runs a keyed artifact step: replay, or fn inside the write
// transaction with its 2xx answer recorded under space "" (host-api.md §11.1).
func (c *call) keyedArtifact(fn func(tx store.Q) (int, []byte, error)) *apiError {
	var rec *store.Record
	var status int
	var body []byte
	werr := c.s.Store.Write(c.ctx, func(tx store.Q) error {
		r, e := c.lookupRecord(tx, "")
		if e != nil {
			return e
		}
		if r != nil {
			rec = r
			return nil
		}
		var err error
		if status, body, err = fn(tx); err != nil {
			return refusalOf(err)
		}
		return c.record(tx, "", status, body, "", "", "")
	})
	if werr != nil {
		return asAPI(werr)
	}
	if rec != nil {
		c.replay(rec)
		return nil
	}
	c.send(status, body, "")
	return nil
}

type uploadDoc struct {
	Manifest json.RawMessage `json:"manifest,required"`
}

// uploadStart answers POST {api}/artifacts/uploads.
func (c *call) uploadStart() *apiError {
	var d uploadDoc
	if err := c.decodeBody(&d); err != nil {
		return err
	}
	return c.keyedArtifact(func(tx store.Q) (int, []byte, error) {
		s, err := artifact.Start(c.flowStore(tx), c.caller(), d.Manifest, c.s.maxBundleBytes(bundleLimitKind))
		if err != nil {
			return 0, nil, err
		}
		if err := store.AddCounter(tx, "uploads", 1); err != nil {
			return 0, nil, err
		}
		if c.faultOn("artifacts.list-none") {
			s.MissingBlobs = []string{}
		}
		return http.StatusCreated, marshal(map[string]any{"uploadId": s.UploadID, "missingBlobs": s.MissingBlobs}), nil
	})
}

// blobPut answers PUT {api}/artifacts/uploads/{uploadId}/blobs/{sha256}; the
// body is raw bytes, streamed (never through the 8 MiB JSON cap).
func (c *call) blobPut() *apiError {
	digest := c.params["sha256"]
	var created bool
	werr := c.s.Store.Write(c.ctx, func(tx store.Q) error {
		var err error
		body := c.r.Body
		if body == nil {
			body = http.NoBody
		}
		if created, err = artifact.PutBlob(c.flowStore(tx), c.caller(), c.params["uploadId"], digest, body); err != nil {
			return refusalOf(err)
		}
		return store.AddCounter(tx, "uploads", 1)
	})
	if werr != nil {
		return asAPI(werr)
	}
	if created {
		c.send(http.StatusCreated, nil, "")
	} else {
		c.send(http.StatusNoContent, nil, "")
	}
	return nil
}

// uploadCommit answers POST {api}/artifacts/uploads/{uploadId}/commit.
func (c *call) uploadCommit() *apiError {
	if err := c.requireEmptyBody(); err != nil {
		return err
	}
	return c.keyedArtifact(func(tx store.Q) (int, []byte, error) {
		digest, created, err := artifact.Commit(c.flowStore(tx), c.caller(), c.params["uploadId"], c.s.maxBundleBytes(bundleLimitKind))
		if err != nil {
			return 0, nil, err
		}
		if err := store.AddCounter(tx, "uploads", 1); err != nil {
			return 0, nil, err
		}
		status := http.StatusOK
		if created || c.faultOn("artifacts.recommit") {
			status = http.StatusCreated
		}
		return status, marshal(map[string]string{"manifestDigest": digest}), nil
	})
}

// uploadAbandon answers DELETE {api}/artifacts/uploads/{uploadId}.
func (c *call) uploadAbandon() *apiError {
	if err := c.requireEmptyBody(); err != nil {
		return err
	}
	return c.keyedArtifact(func(tx store.Q) (int, []byte, error) {
		if err := artifact.Abandon(c.flowStore(tx), c.caller(), c.params["uploadId"]); err != nil {
			return 0, nil, err
		}
		return http.StatusNoContent, nil, nil
	})
}

// manifestRead answers GET {api}/artifacts/{manifestDigest}.
func (c *call) manifestRead() *apiError {
	var raw []byte
	rerr := c.s.Store.Read(c.ctx, func(tx store.Q) error {
		var err error
		raw, err = artifact.ReadManifest(c.artifactStore(tx), c.who.Tenant, c.params["manifestDigest"])
		if err != nil {
			return refusalOf(err)
		}
		return nil
	})
	if rerr != nil {
		return asAPI(rerr)
	}
	c.send(http.StatusOK, bytes.Clone(raw), "")
	return nil
}

// blobHead answers HEAD {api}/artifacts/blobs/{sha256}: 200 when held, else a bare 404.
func (c *call) blobHead() *apiError {
	var held bool
	rerr := c.s.Store.Read(c.ctx, func(tx store.Q) error {
		var err error
		held, err = artifact.HeadBlob(c.flowStore(tx), c.who.Tenant, c.params["sha256"])
		return err
	})
	if rerr != nil {
		return asAPI(rerr)
	}
	if held {
		c.send(http.StatusOK, nil, "")
	} else {
		c.send(http.StatusNotFound, nil, "")
	}
	return nil
}

// forgetful is the artifact store under fault artifacts.forget: it holds no
// committed manifest.
type forgetful struct{ artifact.SQL }

func (forgetful) HoldsManifest(string, string) (bool, error) { return false, nil }

// sharedHoldings is the artifact store under fault artifacts.shared-holdings:
// every tenant holds every stored blob and manifest.
type sharedHoldings struct{ artifact.Store }

func (s sharedHoldings) HoldsBlob(_, digest string) (bool, error) {
	_, ok, err := s.BlobBytes(digest)
	return ok, err
}

func (s sharedHoldings) HoldsManifest(_, digest string) (bool, error) {
	_, ok, err := s.ManifestBytes(digest)
	return ok, err
}

// flowStore is the store the upload flow and blob HEAD use.
func (c *call) flowStore(q store.Q) artifact.Store {
	if c.faultOn("artifacts.shared-holdings") {
		return sharedHoldings{artifact.SQL{Q: q}}
	}
	return artifact.SQL{Q: q}
}

// artifactStore is the store manifest reads and bundle resolution use.
func (c *call) artifactStore(q store.Q) artifact.Store {
	if c.faultOn("artifacts.forget") {
		return forgetful{artifact.SQL{Q: q}}
	}
	return c.flowStore(q)
}
