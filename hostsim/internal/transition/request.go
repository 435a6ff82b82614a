package transition

import (
	"encoding/json"
	"net/url"
	"strings"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
)

// The request and its digests are wire's (docs/protocol.md#transitions).
type (
	FormEvidence = wire.FormEvidence
	Request      = wire.TransitionRequest
)

// EvidenceDigest is transitionEvidence.digest.
func EvidenceDigest(marker string, from, to FormEvidence) (string, error) {
	return wire.TransitionEvidenceDigest(marker, from, to)
}

// NewRequest builds a sealed request moving a resource along t (used by tests
// and tools): spec is materialized with to's defaults before sealing.
func NewRequest(t *catalog.Transition, from, to *catalog.Form, space, name, uid string, generation, revision int64, spec map[string]any) (*Request, error) {
	raw, err := json.Marshal(to.Materialize(spec))
	if err != nil {
		return nil, err
	}
	r := &Request{FromForm: FormEvidence{FormRef: from.Ref, PackageDigest: from.PackageDigest}, ToForm: FormEvidence{FormRef: to.Ref, PackageDigest: to.PackageDigest},
		Expected: wire.TransitionExpected{UID: uid, Generation: itoa(generation), Revision: itoa(revision)}}
	r.Resource = wire.TransitionResource{APIVersion: to.Ref.APIVersion, Kind: to.Ref.Kind, Form: wire.TransitionResourceForm{FormRef: to.Ref},
		Metadata: wire.TransitionMetadata{Name: name, Space: space, UID: uid, Generation: itoa(generation)}, Spec: raw}
	r.TransitionEvidence = wire.TransitionEvidence{Format: wire.DomainTransitionEvidence, Marker: t.Marker}
	if r.TransitionEvidence.Digest, err = EvidenceDigest(t.Marker, r.FromForm, r.ToForm); err != nil {
		return nil, err
	}
	_, r.OperationID, _, err = r.Seal()
	return r, err
}

// ReadbackPath is the GET route of an operation with its space query on lane (the
// operation object's reconcilePath, docs/protocol.md#transitions).
func ReadbackPath(lane *wire.Lane, apiVersion, kind, name, space, operationID string) string {
	return lane.ResourcePath(apiVersion, kind, name) + "/form-transitions/" + operationID +
		"?space=" + strings.ReplaceAll(url.QueryEscape(space), "+", "%20")
}

// readbackPath is row's reconcilePath on the lane the host speaks.
func (s *Service) readbackPath(row *opRow) string {
	return ReadbackPath(s.Host.Cat.Lane(), row.APIVersion, row.Kind, row.Name, row.Space, row.OperationID)
}

func itoa(n int64) string { return wire.FormatDecimal(n) }
