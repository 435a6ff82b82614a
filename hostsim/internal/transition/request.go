package transition

import (
	"encoding/json"
	"net/url"
	"strings"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
)

// FormEvidence is a {formRef, packageDigest} object (docs/protocol.md#transitions).
type FormEvidence struct {
	FormRef       wire.FormRef `json:"formRef,required"`
	PackageDigest string       `json:"packageDigest,required"`
}

// ResourceForm is resource.form: packageDigest is optional there.
type ResourceForm struct {
	FormRef       wire.FormRef `json:"formRef,required"`
	PackageDigest *string      `json:"packageDigest,omitempty"`
}

// Metadata is resource.metadata of the request.
type Metadata struct {
	Name       string `json:"name,required"`
	Space      string `json:"space,required"`
	UID        string `json:"uid,required"`
	Generation string `json:"generation,required"`
}

// Resource is the desired resource under toForm (no status).
type Resource struct {
	APIVersion string          `json:"apiVersion,required"`
	Kind       string          `json:"kind,required"`
	Form       ResourceForm    `json:"form,required"`
	Metadata   Metadata        `json:"metadata,required"`
	Spec       json.RawMessage `json:"spec,required"`
}

// Expected are the fences the client read (its state's uid, generation, revision).
type Expected struct {
	UID        string `json:"uid,required"`
	Generation string `json:"generation,required"`
	Revision   string `json:"revision,required"`
}

// Evidence is transitionEvidence.
type Evidence struct {
	Format string `json:"format,required"`
	Marker string `json:"marker,required"`
	Digest string `json:"digest,required"`
}

// Request is the closed POST body of docs/protocol.md#transitions.
type Request struct {
	OperationID        string       `json:"operationId,required"`
	FromForm           FormEvidence `json:"fromForm,required"`
	ToForm             FormEvidence `json:"toForm,required"`
	Resource           Resource     `json:"resource,required"`
	Expected           Expected     `json:"expected,required"`
	TransitionEvidence Evidence     `json:"transitionEvidence,required"`
}

// resourceKey is the logical identity bound into the operationId.
type resourceKey struct {
	Space      string `json:"space"`
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Name       string `json:"name"`
}

// EvidenceDigest is transitionEvidence.digest of docs/protocol.md#transitions.
func EvidenceDigest(marker string, from, to FormEvidence) (string, error) {
	return wire.DomainDigest(wire.DomainTransitionEvidence, map[string]any{"marker": marker, "fromForm": from, "toForm": to})
}

// Seal computes desiredSpecDigest, operationId and requestDigest of r as sent
// (docs/protocol.md#transitions). It does not change r.
func (r *Request) Seal() (specDigest, operationID, requestDigest string, err error) {
	if specDigest, err = wire.Digest(r.Resource.Spec); err != nil {
		return "", "", "", err
	}
	key := resourceKey{Space: r.Resource.Metadata.Space, APIVersion: r.Resource.APIVersion, Kind: r.Resource.Kind, Name: r.Resource.Metadata.Name}
	hex, err := wire.DomainHex(wire.DomainTransitionOperation, map[string]any{"resource": key,
		"fromForm": r.FromForm, "toForm": r.ToForm, "desiredSpecDigest": specDigest, "expected": r.Expected,
		"transitionEvidence": r.TransitionEvidence})
	if err != nil {
		return "", "", "", err
	}
	operationID = opPrefix + hex
	requestDigest, err = wire.DomainDigest(wire.DomainTransitionRequest, map[string]any{"operationId": operationID,
		"fromForm": r.FromForm, "toForm": r.ToForm, "desiredSpecDigest": specDigest, "expected": r.Expected,
		"transitionEvidence": r.TransitionEvidence})
	return specDigest, operationID, requestDigest, err
}

// NewRequest builds a sealed request moving a resource along t (used by tests
// and tools): spec is materialized with to's defaults before sealing.
func NewRequest(t *catalog.Transition, from, to *catalog.Form, space, name, uid string, generation, revision int64, spec map[string]any) (*Request, error) {
	raw, err := json.Marshal(to.Materialize(spec))
	if err != nil {
		return nil, err
	}
	r := &Request{FromForm: FormEvidence{from.Ref, from.PackageDigest}, ToForm: FormEvidence{to.Ref, to.PackageDigest},
		Expected: Expected{UID: uid, Generation: itoa(generation), Revision: itoa(revision)}}
	r.Resource = Resource{APIVersion: to.Ref.APIVersion, Kind: to.Ref.Kind, Form: ResourceForm{FormRef: to.Ref},
		Metadata: Metadata{Name: name, Space: space, UID: uid, Generation: itoa(generation)}, Spec: raw}
	r.TransitionEvidence = Evidence{Format: wire.DomainTransitionEvidence, Marker: t.Marker}
	if r.TransitionEvidence.Digest, err = EvidenceDigest(t.Marker, r.FromForm, r.ToForm); err != nil {
		return nil, err
	}
	_, r.OperationID, _, err = r.Seal()
	return r, err
}

// ReadbackPath is the GET route of an operation with its space query (the
// operation object's reconcilePath, docs/protocol.md#transitions).
func ReadbackPath(apiVersion, kind, name, space, operationID string) string {
	return apiRoot + "/resources/" + apiVersion + "/" + kind + "/" + name + "/form-transitions/" + operationID +
		"?space=" + strings.ReplaceAll(url.QueryEscape(space), "+", "%20")
}

const opPrefix = "formtx_"

// apiRoot is the lane's API root path.
const apiRoot = "/apis/forms.takoform.com/v1alpha3"

// validOperationID is "formtx_" + 64 lowercase hex.
func validOperationID(s string) bool {
	h, ok := strings.CutPrefix(s, opPrefix)
	if !ok || len(h) != 64 {
		return false
	}
	for i := 0; i < len(h); i++ {
		if !(h[i] >= '0' && h[i] <= '9' || h[i] >= 'a' && h[i] <= 'f') {
			return false
		}
	}
	return true
}

func itoa(n int64) string { return wire.FormatDecimal(n) }
