package wire

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"github.com/gowebpki/jcs"
)

// DigestPrefix starts every digest string.
const DigestPrefix = "sha256:"

// EmptySpecDigest is the digest of `{}` (docs/protocol.md#digests).
const EmptySpecDigest = "sha256:44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a"

// Canonicalize returns the RFC 8785 (JCS) bytes of raw after the I-JSON gate.
func Canonicalize(raw []byte) ([]byte, error) {
	if err := CheckIJSON(raw); err != nil {
		return nil, err
	}
	out, err := jcs.Transform(raw)
	if err != nil {
		return nil, fmt.Errorf("canonicalizing JSON: %w", err)
	}
	return out, nil
}

// Digest is "sha256:" + hex(SHA-256(JCS(raw))).
func Digest(raw []byte) (string, error) {
	c, err := Canonicalize(raw)
	if err != nil {
		return "", err
	}
	return RawDigest(c), nil
}

// DigestValue marshals v with encoding/json and digests its canonical form.
func DigestValue(v any) (string, error) {
	if b, ok := canonicalFast(v); ok {
		return RawDigest(b), nil
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return "", fmt.Errorf("encoding value for its digest: %w", err)
	}
	return Digest(raw)
}

// CanonicalValue marshals v and returns its JCS bytes.
func CanonicalValue(v any) ([]byte, error) {
	if b, ok := canonicalFast(v); ok {
		return b, nil
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encoding value for canonical JSON: %w", err)
	}
	return Canonicalize(raw)
}

// RawDigest is "sha256:" + hex(SHA-256(b)) over the bytes exactly as given.
func RawDigest(b []byte) string {
	sum := sha256.Sum256(b)
	return DigestPrefix + hex.EncodeToString(sum[:])
}

// Domain formats of the digests of docs/protocol.md#transitions.
const (
	DomainTransitionEvidence  = "takoform.module-form-transition@v1"
	DomainTransitionOperation = "takoform.resource-form-transition-operation@v1"
	DomainTransitionRequest   = "takoform.resource-form-transition-request@v1"
)

// DomainDigest is D(v + {"format": domain}): v must encode as a JSON object without a
// "format" member; the domain string is added as that member before canonicalization,
// which keeps digests of different purposes from ever colliding.
func DomainDigest(domain string, v any) (string, error) {
	c, err := domainCanonical(domain, v)
	if err != nil {
		return "", err
	}
	return RawDigest(c), nil
}

// DomainHex is DomainDigest without the "sha256:" prefix: a Form transition's
// operationId is "formtx_" + this value (docs/protocol.md#transitions).
func DomainHex(domain string, v any) (string, error) {
	c, err := domainCanonical(domain, v)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(c)
	return hex.EncodeToString(sum[:]), nil
}

func domainCanonical(domain string, v any) ([]byte, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encoding %s value for its digest: %w", domain, err)
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		return nil, fmt.Errorf("a %s digest covers a JSON object; got %s", domain, truncate(raw))
	}
	if _, ok := obj["format"]; ok {
		return nil, fmt.Errorf("a %s digest adds its own \"format\" member; remove \"format\" from the value", domain)
	}
	obj["format"], _ = json.Marshal(domain)
	raw, err = json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	return Canonicalize(raw)
}

func truncate(b []byte) string {
	if len(b) > 60 {
		return string(b[:60]) + "…"
	}
	return string(b)
}
