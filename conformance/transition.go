package conformance

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
)

// EvidenceFormat is the transitionEvidence format (docs/protocol.md#transitions).
const EvidenceFormat = "takoform.module-form-transition@v1"

// The request's parts and digests are wire's (docs/protocol.md#transitions);
// the runner builds its own request so its checks can break one part at a time.
type (
	formEvidence = wire.FormEvidence
	txExpected   = wire.TransitionExpected
	txEvidence   = wire.TransitionEvidence
)

// txRequest is a form-transition POST body.
type txRequest struct {
	OperationID string       `json:"operationId"`
	FromForm    formEvidence `json:"fromForm"`
	ToForm      formEvidence `json:"toForm"`
	Resource    struct {
		APIVersion string       `json:"apiVersion"`
		Kind       string       `json:"kind"`
		Form       formEvidence `json:"form"`
		Metadata   struct {
			Name       string `json:"name"`
			Space      string `json:"space"`
			UID        string `json:"uid"`
			Generation string `json:"generation"`
		} `json:"metadata"`
		Spec map[string]any `json:"spec"`
	} `json:"resource"`
	Expected           txExpected `json:"expected"`
	TransitionEvidence txEvidence `json:"transitionEvidence"`

	requestDigest string
	from, to      *catalog.Form
}

// txOperation is the closed operation object of docs/protocol.md#transitions.
type txOperation struct {
	OperationID       string `json:"operationId,required"`
	Status            string `json:"status,required"`
	DispatchAttempted bool   `json:"dispatchAttempted,required"`
	RequestDigest     string `json:"requestDigest,required"`
	ReconcilePath     string `json:"reconcilePath,required"`
}

type txReceipt struct {
	Operation       txOperation `json:"operation,required"`
	Resource        rawJSON     `json:"resource,required"`
	TransitionProof struct {
		OperationID              string       `json:"operationId,required"`
		FromForm                 formEvidence `json:"fromForm,required"`
		ToForm                   formEvidence `json:"toForm,required"`
		TransitionEvidenceDigest string       `json:"transitionEvidenceDigest,required"`
		ObservedSpecDigest       string       `json:"observedSpecDigest,required"`
		UID                      string       `json:"uid,required"`
		Generation               string       `json:"generation,required"`
		NativeIdentityDigest     string       `json:"nativeIdentityDigest,required"`
		Committed                bool         `json:"committed,required"`
	} `json:"transitionProof,required"`
}

// transitionPair picks a declared transition whose both ends the host installs,
// preferring one whose from-Form needs no other resource.
func (p *Probe) transitionPair() (*catalog.Transition, *catalog.Form, *catalog.Form, error) {
	var best *catalog.Transition
	var bf, bt *catalog.Form
	var bare, withheld []string // installed pairs whose from-Form has no fixture, or no create and read
	for _, tr := range p.Cat.Transitions() {
		from, ok1 := p.S.Installed(tr.From)
		to, ok2 := p.S.Installed(tr.To)
		switch {
		case !ok1 || !ok2:
			continue
		case len(from.Fixtures) == 0:
			bare = named(bare, from)
			continue
		case !p.S.Offers(from, "create", "read"):
			withheld = named(withheld, from)
			continue
		}
		if best == nil || (standalone(from) && !standalone(bf)) {
			best, bf, bt = tr, from, to
		}
	}
	switch {
	case best != nil:
		return best, bf, bt, nil
	case len(bare) > 0:
		return nil, nil, nil, notApplicable("the host installs both ends of a declared transition, but none can be tried here: %s", noFixtures(bare))
	case len(withheld) > 0:
		return nil, nil, nil, notApplicable("the host installs both ends of a declared transition, but offers create and read of no from-Form of one (%s)", few(withheld))
	}
	return nil, nil, nil, notApplicable("the host installs both ends of no transition the runner's catalog declares")
}

// txResource creates a resource under the transition's from-Form.
func (p *Probe) txResource(ctx context.Context) (*catalog.Transition, *Resource, error) {
	tr, from, _, err := p.transitionPair()
	if err != nil {
		return nil, nil, err
	}
	b, err := p.buildOf(ctx, from)
	if err != nil {
		return nil, nil, err
	}
	return tr, b.res, nil
}

// newTx builds the request moving res along tr (marker may be overridden).
func (p *Probe) newTx(tr *catalog.Transition, res *Resource, marker string) (*txRequest, error) {
	from, _ := p.Cat.Form(tr.From)
	to, _ := p.Cat.Form(tr.To)
	var spec map[string]any
	if err := json.Unmarshal(res.Spec, &spec); err != nil {
		return nil, err
	}
	spec = to.Materialize(spec)
	if err := to.ValidateDesired(spec); err != nil {
		return nil, notApplicable("the served spec of %q does not validate under %s: %v", res.Metadata.Name, to.Ref, err)
	}
	t := &txRequest{from: from, to: to,
		FromForm: formEvidence{FormRef: from.Ref, PackageDigest: from.PackageDigest},
		ToForm:   formEvidence{FormRef: to.Ref, PackageDigest: to.PackageDigest},
		Expected: txExpected{UID: res.Metadata.UID, Generation: res.Metadata.Generation, Revision: res.Metadata.Revision}}
	t.Resource.APIVersion, t.Resource.Kind, t.Resource.Form = to.Ref.APIVersion, to.Ref.Kind, t.ToForm
	t.Resource.Metadata.Name, t.Resource.Metadata.Space = res.Metadata.Name, res.Metadata.Space
	t.Resource.Metadata.UID, t.Resource.Metadata.Generation = res.Metadata.UID, res.Metadata.Generation
	t.Resource.Spec = spec
	t.TransitionEvidence = txEvidence{Format: EvidenceFormat, Marker: marker}
	return t, t.seal()
}

// seal computes the evidence digest, operationId and requestDigest (docs/protocol.md#transitions).
func (t *txRequest) seal() error {
	var err error
	t.TransitionEvidence.Digest, err = wire.TransitionEvidenceDigest(t.TransitionEvidence.Marker, t.FromForm, t.ToForm)
	if err != nil {
		return err
	}
	return t.sealIDs()
}

func (t *txRequest) sealIDs() error {
	d, err := wire.DigestValue(t.Resource.Spec)
	if err != nil {
		return err
	}
	key := wire.TransitionKey{Space: t.Resource.Metadata.Space, APIVersion: t.Resource.APIVersion,
		Kind: t.Resource.Kind, Name: t.Resource.Metadata.Name}
	t.OperationID, t.requestDigest, err = wire.TransitionIDs(key, t.FromForm, t.ToForm, d, t.Expected, t.TransitionEvidence)
	return err
}

func spaceQuery(space string) string {
	return "?space=" + strings.ReplaceAll(url.QueryEscape(space), "+", "%20")
}

// readbackPath is the GET route of one operation.
func (t *txRequest) readbackPath(id string) string {
	return ResourcePath(t.from.Ref, t.Resource.Metadata.Name) + "/form-transitions/" + id + spaceQuery(t.Resource.Metadata.Space)
}

// req renders the POST.
func (t *txRequest) req(probe string) Req {
	h := map[string]string{wire.HeaderIdempotencyKey: t.OperationID, wire.HeaderExpectedGeneration: t.Expected.Generation,
		wire.HeaderIfMatch: `"` + t.Expected.Revision + `"`}
	if probe != "" {
		h[ProbeHeader] = probe
	}
	return Req{Method: http.MethodPost, Target: ResourcePath(t.from.Ref, t.Resource.Metadata.Name) + "/form-transitions" + spaceQuery(t.Resource.Metadata.Space),
		Header: h, Body: mustJSON(t)}
}

// verifyReceipt checks a 200 committed answer against the request.
func (t *txRequest) verifyReceipt(r *Resp) (*Resource, error) {
	if err := expectStatus(r, http.StatusOK); err != nil {
		return nil, err
	}
	var rc txReceipt
	if err := wire.DecodeStrict(r.Body, &rc); err != nil {
		return nil, failf("%s: not a committed transition receipt: %v", r.What(), err)
	}
	op, pf := rc.Operation, rc.TransitionProof
	d, _ := wire.DigestValue(t.Resource.Spec)
	next := nextDecimal(t.Expected.Generation)
	switch {
	case op.OperationID != t.OperationID || op.Status != "committed" || !op.DispatchAttempted || op.RequestDigest != t.requestDigest:
		return nil, failf("%s: operation %+v, expected %s committed, dispatched, requestDigest %s", r.What(), op, t.OperationID, t.requestDigest)
	case op.ReconcilePath != expand(r.Lane, t.readbackPath(t.OperationID)):
		return nil, failf("%s: reconcilePath %q is not the readback path %q", r.What(), op.ReconcilePath, expand(r.Lane, t.readbackPath(t.OperationID)))
	case pf.OperationID != t.OperationID || pf.FromForm != t.FromForm || pf.ToForm != t.ToForm || pf.TransitionEvidenceDigest != t.TransitionEvidence.Digest:
		return nil, failf("%s: transitionProof does not name this request's operation, forms and evidence", r.What())
	case pf.ObservedSpecDigest != d || pf.UID != t.Expected.UID || pf.Generation != next || !pf.Committed || !wire.ValidDigest(pf.NativeIdentityDigest):
		return nil, failf("%s: transitionProof observedSpecDigest %s uid %s generation %s committed %v; expected %s, %s, %s, true", r.What(), pf.ObservedSpecDigest, pf.UID, pf.Generation, pf.Committed, d, t.Expected.UID, next)
	}
	inner := *r
	inner.Body = rc.Resource
	res, err := decodeResourceNoETag(&inner)
	if err != nil {
		return nil, err
	}
	if res.Ref() != t.to.Ref || res.Metadata.UID != t.Expected.UID || res.Metadata.Generation != next {
		return nil, failf("%s: the receipt's resource is %s uid %s generation %s, expected %s uid %s generation %s", r.What(), res.Ref(), res.Metadata.UID, res.Metadata.Generation, t.to.Ref, t.Expected.UID, next)
	}
	if et := r.Header.Get("ETag"); et != "" && et != `"`+res.Metadata.Revision+`"` {
		return nil, failf("%s: ETag %q is not the receipt resource's revision %q", r.What(), et, res.Metadata.Revision)
	}
	return res, nil
}

// decodeResourceNoETag decodes a representation embedded in another document.
func decodeResourceNoETag(r *Resp) (*Resource, error) {
	var res Resource
	if err := wire.DecodeStrict(r.Body, &res); err != nil {
		return nil, failf("%s: embedded resource is not a valid representation: %v", r.What(), err)
	}
	return &res, nil
}

// nextDecimal is the canonical decimal after s (docs/protocol.md#decimals).
func nextDecimal(s string) string {
	n, _ := wire.ParseDecimal(s)
	return wire.FormatDecimal(n + 1)
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
