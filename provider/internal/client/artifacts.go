package client

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/provider/internal/lazyre"
)

// UploadStatus is the answer to an upload start.
type UploadStatus struct {
	UploadID     string   `json:"uploadId"`
	MissingBlobs []string `json:"missingBlobs"`
}

var uploadIDRe = lazyre.New(`^up_[A-Za-z0-9][A-Za-z0-9._-]{0,124}$`)

func (c *Client) artifactsBase(ctx context.Context) (string, error) {
	d, err := c.Discover(ctx)
	if err != nil {
		return "", err
	}
	return d.Artifacts, nil
}

// StartUpload opens an upload session for manifest. Its key carries a random nonce
// so a re-run sees the current missingBlobs (docs/provider-design.md#bundles). Never resent.
func (c *Client) StartUpload(ctx context.Context, manifest any) (*UploadStatus, error) {
	base, err := c.artifactsBase(ctx)
	if err != nil {
		return nil, err
	}
	body, err := wire.CanonicalValue(map[string]any{"manifest": manifest})
	if err != nil {
		return nil, err
	}
	nonce := make([]byte, 16)
	if _, err := rand.Read(nonce); err != nil {
		return nil, err
	}
	h := http.Header{}
	h.Set(wire.HeaderIdempotencyKey, "takoform-upload-"+hex.EncodeToString(nonce))
	resp, err := c.exchange(ctx, Request{Method: http.MethodPost, URL: base + "/uploads", Header: h, Body: body}, false)
	if err != nil {
		return nil, err
	}
	if resp.Status != http.StatusCreated && resp.Status != http.StatusOK {
		return nil, &ProtocolError{Status: resp.Status, Reason: "upload start must answer 201 or 200"}
	}
	var st UploadStatus
	if err := wire.DecodeStrict(resp.Body, &st); err != nil {
		return nil, &ProtocolError{Status: resp.Status, Reason: "upload status: " + err.Error()}
	}
	if !uploadIDRe.MatchString(st.UploadID) || st.MissingBlobs == nil {
		return nil, &ProtocolError{Status: resp.Status, Reason: "upload status lacks a valid uploadId or missingBlobs"}
	}
	return &st, nil
}

// PutBlob uploads raw bytes for one missing blob (201 stored, 204 already held).
func (c *Client) PutBlob(ctx context.Context, uploadID, digest string, data []byte) error {
	base, err := c.artifactsBase(ctx)
	if err != nil {
		return err
	}
	resp, err := c.exchange(ctx, Request{Method: http.MethodPut, URL: base + "/uploads/" + uploadID + "/blobs/" + digest,
		Body: data, ContentType: "application/octet-stream"}, false)
	if err != nil {
		return err
	}
	if resp.Status != http.StatusCreated && resp.Status != http.StatusNoContent {
		return &ProtocolError{Status: resp.Status, Reason: "blob upload must answer 201 or 204"}
	}
	return nil
}

// CommitUpload commits the session under a deterministic key over the upload id and
// manifest digest, and returns the committed manifest digest.
func (c *Client) CommitUpload(ctx context.Context, uploadID, manifestDigest string) (string, error) {
	base, err := c.artifactsBase(ctx)
	if err != nil {
		return "", err
	}
	raw, err := wire.CanonicalValue([]string{"commit", uploadID, manifestDigest})
	if err != nil {
		return "", err
	}
	h := http.Header{}
	h.Set(wire.HeaderIdempotencyKey, "takoform-"+wire.RawDigest(raw)[len("sha256:"):])
	resp, err := c.exchange(ctx, Request{Method: http.MethodPost, URL: base + "/uploads/" + uploadID + "/commit", Header: h, Body: []byte{}}, false)
	if err != nil {
		return "", err
	}
	var result json.RawMessage = resp.Body
	switch resp.Status {
	case http.StatusOK, http.StatusCreated:
	case http.StatusAccepted:
		op, err := decodeAccepted(resp.Body)
		if err != nil {
			return "", &ProtocolError{Status: resp.Status, Reason: err.Error()}
		}
		last, err := c.Poll(ctx, op)
		if err != nil {
			return "", err
		}
		if last.Error != nil {
			return "", last.TerminalError()
		}
		result = last.Result
	default:
		return "", &ProtocolError{Status: resp.Status, Reason: "commit must answer 200, 201 or 202"}
	}
	var doc struct {
		ManifestDigest string `json:"manifestDigest"`
	}
	if err := wire.DecodeStrict(result, &doc); err != nil || !wire.ValidDigest(doc.ManifestDigest) {
		return "", &ProtocolError{Status: resp.Status, Reason: fmt.Sprintf("commit answer lacks a manifestDigest (%v)", err)}
	}
	return doc.ManifestDigest, nil
}
