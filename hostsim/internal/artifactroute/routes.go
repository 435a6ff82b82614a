package artifactroute

import (
	"bytes"
	"encoding/json"
	"net/http"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/artifact"
	"github.com/takokit/takokit/hostsim/internal/fault"
	"github.com/takokit/takokit/hostsim/internal/related"
	"github.com/takokit/takokit/hostsim/internal/request"
	"github.com/takokit/takokit/hostsim/internal/store"
)

type uploadDoc struct {
	Manifest json.RawMessage `json:"manifest,required"`
}

// Start answers POST {api}/artifacts/uploads.
func Start(c Call) *wire.Error {
	who := c.Caller()
	var d uploadDoc
	if err := request.DecodeBody(c.Body(), &d, who.Faults); err != nil {
		return err
	}
	return keyed(c, func(q store.Q) (Answer, error) {
		s, err := artifact.Start(related.FlowStore(q, who.Faults), who, d.Manifest, c.BundleLimits())
		if err != nil {
			return Answer{}, err
		}
		if err := store.AddCounter(q, "uploads", 1); err != nil {
			return Answer{}, err
		}
		if who.Faults.On(fault.ArtifactsListNone) {
			s.MissingBlobs = []string{}
		}
		return Answer{Status: http.StatusCreated, Body: marshal(map[string]any{"uploadId": s.UploadID, "missingBlobs": s.MissingBlobs})}, nil
	})
}

// PutBlob answers PUT {api}/artifacts/uploads/{uploadId}/blobs/{sha256}; the
// body is raw bytes, streamed (never through the 8 MiB JSON cap).
func PutBlob(c Call) *wire.Error {
	who := c.Caller()
	var created bool
	werr := c.Write(func(q store.Q) error {
		var err error
		if created, err = artifact.PutBlob(related.FlowStore(q, who.Faults), who, c.Param("uploadId"), c.Param("sha256"), c.Stream()); err != nil {
			return related.Refusal(err)
		}
		return store.AddCounter(q, "uploads", 1)
	})
	if werr != nil {
		return werr
	}
	if created {
		c.Send(http.StatusCreated, nil, "")
	} else {
		c.Send(http.StatusNoContent, nil, "")
	}
	return nil
}

// Commit answers POST {api}/artifacts/uploads/{uploadId}/commit.
func Commit(c Call) *wire.Error {
	if err := c.RequireEmptyBody(); err != nil {
		return err
	}
	who := c.Caller()
	return keyed(c, func(q store.Q) (Answer, error) {
		digest, created, err := artifact.Commit(related.FlowStore(q, who.Faults), who, c.Param("uploadId"), c.BundleLimits())
		if err != nil {
			return Answer{}, err
		}
		if err := store.AddCounter(q, "uploads", 1); err != nil {
			return Answer{}, err
		}
		status := http.StatusOK
		if created {
			status = http.StatusCreated
		} else if who.Faults.On(fault.ArtifactsRecommit) {
			status = http.StatusCreated
		}
		return Answer{Status: status, Body: marshal(map[string]string{"manifestDigest": digest})}, nil
	})
}

// Abandon answers DELETE {api}/artifacts/uploads/{uploadId}.
func Abandon(c Call) *wire.Error {
	if err := c.RequireEmptyBody(); err != nil {
		return err
	}
	who := c.Caller()
	return keyed(c, func(q store.Q) (Answer, error) {
		if err := artifact.Abandon(related.FlowStore(q, who.Faults), who, c.Param("uploadId")); err != nil {
			return Answer{}, err
		}
		return Answer{Status: http.StatusNoContent}, nil
	})
}

// ReadManifest answers GET {api}/artifacts/{manifestDigest}.
func ReadManifest(c Call) *wire.Error {
	who := c.Caller()
	var raw []byte
	rerr := c.Read(func(q store.Q) error {
		var err error
		raw, err = artifact.ReadManifest(related.ArtifactStore(q, who.Faults), who.Tenant, c.Param("manifestDigest"))
		if err != nil {
			return related.Refusal(err)
		}
		return nil
	})
	if rerr != nil {
		return rerr
	}
	c.Send(http.StatusOK, bytes.Clone(raw), "")
	return nil
}

// HeadBlob answers HEAD {api}/artifacts/blobs/{sha256}: 200 when held, else a bare 404.
func HeadBlob(c Call) *wire.Error {
	who := c.Caller()
	var held bool
	rerr := c.Read(func(q store.Q) error {
		var err error
		held, err = artifact.HeadBlob(related.FlowStore(q, who.Faults), who.Tenant, c.Param("sha256"))
		return err
	})
	if rerr != nil {
		return rerr
	}
	if held {
		c.Send(http.StatusOK, nil, "")
	} else {
		c.Send(http.StatusNotFound, nil, "")
	}
	return nil
}

func marshal(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}
