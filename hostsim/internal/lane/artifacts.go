package lane

import (
	"bytes"
	"encoding/json"
	"net/http"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/artifact"
	"github.com/takokit/takokit/hostsim/internal/core"
	"github.com/takokit/takokit/hostsim/internal/fault"
	"github.com/takokit/takokit/hostsim/internal/gauntlet"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// The artifact routes (docs/protocol.md#artifacts): every flow step runs
// inside one write transaction over artifact.SQL, so a refusal stores
// nothing. Upload start, blob PUT and commit that succeed count as uploads;
// replays and refusals do not.

func (c *call) caller() artifact.Caller {
	return artifact.Caller{Tenant: c.who.Tenant, Principal: c.who.Principal, Faults: c.fs}
}

// keyedArtifact runs a keyed artifact step: replay, or fn inside the write
// transaction with its 2xx answer recorded under space "".
func (c *call) keyedArtifact(fn func(q store.Q) (int, []byte, error)) *wire.Error {
	var a answer
	werr := c.write(func(q store.Q) error {
		if rec, e := c.lookupRecord(q, ""); e != nil || rec != nil {
			a = replayOf(rec)
			return errOrNil(e)
		}
		status, body, err := fn(q)
		if err != nil {
			return gauntlet.Refusal(err)
		}
		a = answer{status: status, body: body}
		return c.record(q, "", a, "", "")
	})
	if werr != nil {
		return asRefusal(werr)
	}
	c.reply(a)
	return nil
}

type uploadDoc struct {
	Manifest json.RawMessage `json:"manifest,required"`
}

// uploadStart answers POST {api}/artifacts/uploads.
func uploadStart(c *call) *wire.Error {
	var d uploadDoc
	if err := core.DecodeBody(c.body, &d, c.fs); err != nil {
		return err
	}
	return c.keyedArtifact(func(q store.Q) (int, []byte, error) {
		s, err := artifact.Start(gauntlet.FlowStore(q, c.fs), c.caller(), d.Manifest, c.s.Gauntlet.MaxBundleBytes(gauntlet.BundleLimitKind))
		if err != nil {
			return 0, nil, err
		}
		if err := store.AddCounter(q, "uploads", 1); err != nil {
			return 0, nil, err
		}
		if c.fs.On(fault.ArtifactsListNone) {
			s.MissingBlobs = []string{}
		}
		return http.StatusCreated, marshal(map[string]any{"uploadId": s.UploadID, "missingBlobs": s.MissingBlobs}), nil
	})
}

// blobPut answers PUT {api}/artifacts/uploads/{uploadId}/blobs/{sha256}; the
// body is raw bytes, streamed (never through the 8 MiB JSON cap).
func blobPut(c *call) *wire.Error {
	var created bool
	werr := c.write(func(q store.Q) error {
		body := c.r.Body
		if body == nil {
			body = http.NoBody
		}
		var err error
		if created, err = artifact.PutBlob(gauntlet.FlowStore(q, c.fs), c.caller(), c.params["uploadId"], c.params["sha256"], body); err != nil {
			return gauntlet.Refusal(err)
		}
		return store.AddCounter(q, "uploads", 1)
	})
	if werr != nil {
		return asRefusal(werr)
	}
	if created {
		c.send(http.StatusCreated, nil, "")
	} else {
		c.send(http.StatusNoContent, nil, "")
	}
	return nil
}

// uploadCommit answers POST {api}/artifacts/uploads/{uploadId}/commit.
func uploadCommit(c *call) *wire.Error {
	if err := c.requireEmptyBody(); err != nil {
		return err
	}
	return c.keyedArtifact(func(q store.Q) (int, []byte, error) {
		digest, created, err := artifact.Commit(gauntlet.FlowStore(q, c.fs), c.caller(), c.params["uploadId"], c.s.Gauntlet.MaxBundleBytes(gauntlet.BundleLimitKind))
		if err != nil {
			return 0, nil, err
		}
		if err := store.AddCounter(q, "uploads", 1); err != nil {
			return 0, nil, err
		}
		status := http.StatusOK
		if created {
			status = http.StatusCreated
		} else if c.fs.On(fault.ArtifactsRecommit) {
			status = http.StatusCreated
		}
		return status, marshal(map[string]string{"manifestDigest": digest}), nil
	})
}

// uploadAbandon answers DELETE {api}/artifacts/uploads/{uploadId}.
func uploadAbandon(c *call) *wire.Error {
	if err := c.requireEmptyBody(); err != nil {
		return err
	}
	return c.keyedArtifact(func(q store.Q) (int, []byte, error) {
		if err := artifact.Abandon(gauntlet.FlowStore(q, c.fs), c.caller(), c.params["uploadId"]); err != nil {
			return 0, nil, err
		}
		return http.StatusNoContent, nil, nil
	})
}

// manifestRead answers GET {api}/artifacts/{manifestDigest}.
func manifestRead(c *call) *wire.Error {
	var raw []byte
	rerr := c.s.Store.Read(c.ctx, func(q store.Q) error {
		var err error
		raw, err = artifact.ReadManifest(gauntlet.ArtifactStore(q, c.fs), c.who.Tenant, c.params["manifestDigest"])
		if err != nil {
			return gauntlet.Refusal(err)
		}
		return nil
	})
	if rerr != nil {
		return asRefusal(rerr)
	}
	c.send(http.StatusOK, bytes.Clone(raw), "")
	return nil
}

// blobHead answers HEAD {api}/artifacts/blobs/{sha256}: 200 when held, else a bare 404.
func blobHead(c *call) *wire.Error {
	var held bool
	rerr := c.s.Store.Read(c.ctx, func(q store.Q) error {
		var err error
		held, err = artifact.HeadBlob(gauntlet.FlowStore(q, c.fs), c.who.Tenant, c.params["sha256"])
		return err
	})
	if rerr != nil {
		return asRefusal(rerr)
	}
	if held {
		c.send(http.StatusOK, nil, "")
	} else {
		c.send(http.StatusNotFound, nil, "")
	}
	return nil
}
