package wire

import (
	"encoding/json"
	"strings"
)

// The Form transition request and its digests (docs/protocol.md#transitions):
// one shape and one computation for the client that builds a request, the
// host that recomputes it and the runner that measures both.

// TransitionOperationPrefix starts every Form transition operationId.
const TransitionOperationPrefix = "formtx_"

// FormEvidence is a {formRef, packageDigest} object.
type FormEvidence struct {
	FormRef       FormRef `json:"formRef,required"`
	PackageDigest string  `json:"packageDigest,required"`
}

// TransitionResourceForm is resource.form: packageDigest is optional there.
type TransitionResourceForm struct {
	FormRef       FormRef `json:"formRef,required"`
	PackageDigest *string `json:"packageDigest,omitempty"`
}

// TransitionMetadata is resource.metadata of a request.
type TransitionMetadata struct {
	Name       string `json:"name,required"`
	Space      string `json:"space,required"`
	UID        string `json:"uid,required"`
	Generation string `json:"generation,required"`
}

// TransitionResource is the desired resource under toForm (no status).
type TransitionResource struct {
	APIVersion string                 `json:"apiVersion,required"`
	Kind       string                 `json:"kind,required"`
	Form       TransitionResourceForm `json:"form,required"`
	Metadata   TransitionMetadata     `json:"metadata,required"`
	Spec       json.RawMessage        `json:"spec,required"`
}

// TransitionExpected are the fences the client read: its uid, generation and revision.
type TransitionExpected struct {
	UID        string `json:"uid,required"`
	Generation string `json:"generation,required"`
	Revision   string `json:"revision,required"`
}

// TransitionEvidence is transitionEvidence.
type TransitionEvidence struct {
	Format string `json:"format,required"`
	Marker string `json:"marker,required"`
	Digest string `json:"digest,required"`
}

// TransitionRequest is the closed POST body of a Form transition.
type TransitionRequest struct {
	OperationID        string             `json:"operationId,required"`
	FromForm           FormEvidence       `json:"fromForm,required"`
	ToForm             FormEvidence       `json:"toForm,required"`
	Resource           TransitionResource `json:"resource,required"`
	Expected           TransitionExpected `json:"expected,required"`
	TransitionEvidence TransitionEvidence `json:"transitionEvidence,required"`
}

// TransitionKey is the logical identity bound into the operationId.
type TransitionKey struct {
	Space      string `json:"space"`
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Name       string `json:"name"`
}

// TransitionEvidenceDigest is transitionEvidence.digest: the digest of the
// marker and both forms under the evidence format.
func TransitionEvidenceDigest(marker string, from, to FormEvidence) (string, error) {
	return DomainDigest(DomainTransitionEvidence, map[string]any{"marker": marker, "fromForm": from, "toForm": to})
}

// TransitionIDs computes the operationId and the requestDigest of a request
// from its parts; specDigest is the digest of resource.spec exactly as sent.
func TransitionIDs(key TransitionKey, from, to FormEvidence, specDigest string, expected TransitionExpected, evidence TransitionEvidence) (operationID, requestDigest string, err error) {
	hex, err := DomainHex(DomainTransitionOperation, map[string]any{"resource": key, "fromForm": from, "toForm": to,
		"desiredSpecDigest": specDigest, "expected": expected, "transitionEvidence": evidence})
	if err != nil {
		return "", "", err
	}
	operationID = TransitionOperationPrefix + hex
	requestDigest, err = DomainDigest(DomainTransitionRequest, map[string]any{"operationId": operationID,
		"fromForm": from, "toForm": to, "desiredSpecDigest": specDigest, "expected": expected, "transitionEvidence": evidence})
	return operationID, requestDigest, err
}

// Seal computes desiredSpecDigest, operationId and requestDigest of r as
// sent. It does not change r.
func (r *TransitionRequest) Seal() (specDigest, operationID, requestDigest string, err error) {
	if specDigest, err = Digest(r.Resource.Spec); err != nil {
		return "", "", "", err
	}
	key := TransitionKey{Space: r.Resource.Metadata.Space, APIVersion: r.Resource.APIVersion, Kind: r.Resource.Kind, Name: r.Resource.Metadata.Name}
	operationID, requestDigest, err = TransitionIDs(key, r.FromForm, r.ToForm, specDigest, r.Expected, r.TransitionEvidence)
	return specDigest, operationID, requestDigest, err
}

// ValidTransitionOperationID reports whether s is "formtx_" + 64 lowercase hex.
func ValidTransitionOperationID(s string) bool {
	h, ok := strings.CutPrefix(s, TransitionOperationPrefix)
	return ok && ValidDigest(DigestPrefix+h)
}
