package transition

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/decide"
	"github.com/takokit/takokit/hostsim/internal/fault"
	"github.com/takokit/takokit/hostsim/internal/request"
)

// parsed is a request that passed every check before anything is stored.
type parsed struct {
	Request
	space         string
	gen, rev      int64
	to            *catalog.Form  // the Form the resource moves to (its from-Form is checked installed, then read from the resource)
	spec          map[string]any // resource.spec as sent
	specDigest    string
	requestDigest string
	raw           []byte // the canonical request as stored in the ledger
}

func (p *parsed) what() string {
	return fmt.Sprintf("%s %q in space %q", p.Resource.Kind, p.Resource.Metadata.Name, p.space)
}

// secretNames are the member-name substrings refused in a transition spec.
var secretNames = []string{"password", "secret", "token", "privatekey", "private_key", "credential"}

// spaceQuery reads the only query key of both routes.
func spaceQuery(c *Call) (string, *wire.Error) {
	raw := c.RawQuery
	q, err := url.ParseQuery(raw)
	if err != nil {
		return "", invalid("", "the query string %q is malformed: %v", raw, err)
	}
	for k := range q {
		if k != "space" {
			return "", invalid("", "the form-transition routes take only the query key space; remove %q", k)
		}
	}
	if len(q["space"]) != 1 {
		return "", invalid("", "send the query key space exactly once (the resource's SpaceID)")
	}
	s := q.Get("space")
	if err := wire.ValidateSpaceID(s); err != nil {
		return "", invalid("", "query space %q is not a SpaceID: %v", s, err)
	}
	return s, nil
}

// parse runs every refusal of the request before anything is stored.
func parse(s *Service, c *Call) (*parsed, *wire.Error) {
	space, e := spaceQuery(c)
	if e != nil {
		return nil, e
	}
	gen, rev, e := headers(c)
	if e != nil {
		return nil, e
	}
	p := &parsed{space: space}
	if err := wire.DecodeStrict(c.Body, &p.Request); err != nil {
		return nil, invalid("", "the form-transition request body is not a valid closed request: %v", err)
	}
	if e := p.grammars(); e != nil {
		return nil, e
	}
	if e := p.agreement(c, gen, rev); e != nil {
		return nil, e
	}
	if e := p.pair(s, c); e != nil {
		return nil, e
	}
	if e := p.checkSpec(s); e != nil {
		return nil, e
	}
	return p, p.digests(c)
}

// headers checks the fence and If-Match syntax (Idempotency-Key syntax was
// checked by the lane; its value is compared with operationId later).
func headers(c *Call) (gen, rev int64, e *wire.Error) {
	h := c.Header
	if len(h.Values(wire.HeaderIfNoneMatch)) > 0 {
		return 0, 0, invalid("", "a Form transition changes an existing resource: send no If-None-Match")
	}
	g := h.Values(wire.HeaderExpectedGeneration)
	if len(g) != 1 {
		return 0, 0, invalid("", "send exactly one Takoform-Expected-Generation header equal to expected.generation")
	}
	gen, ok := wire.ParseDecimal(g[0])
	if !ok {
		return 0, 0, invalid("", "Takoform-Expected-Generation %q is not a canonical decimal 1..9223372036854775807 (no sign, no leading zero, no spaces)", g[0])
	}
	m := h.Values(wire.HeaderIfMatch)
	if len(m) != 1 {
		return 0, 0, invalid("", "send exactly one If-Match: \"<revision>\" equal to expected.revision (required on a Form transition)")
	}
	v := m[0]
	if rev, ok = request.ParseETag(v); !ok {
		return 0, 0, invalid("", "If-Match %q is not one strong entity tag \"<revision>\" (no W/, no list, no *)", v)
	}
	return gen, rev, nil
}

func (p *parsed) grammars() *wire.Error {
	r := &p.Request
	switch {
	case !wire.ValidTransitionOperationID(r.OperationID):
		return invalid("", "/operationId %q is not formtx_ followed by 64 lowercase hex digits", r.OperationID)
	case r.FromForm.FormRef.Validate() != nil:
		return invalid("", "/fromForm/formRef is not a FormRef: %v", r.FromForm.FormRef.Validate())
	case r.ToForm.FormRef.Validate() != nil:
		return invalid("", "/toForm/formRef is not a FormRef: %v", r.ToForm.FormRef.Validate())
	case !wire.ValidDigest(r.FromForm.PackageDigest) || !wire.ValidDigest(r.ToForm.PackageDigest):
		return invalid("", "/fromForm/packageDigest and /toForm/packageDigest must be sha256:<64 lowercase hex>")
	case r.Resource.Form.PackageDigest != nil && !wire.ValidDigest(*r.Resource.Form.PackageDigest):
		return invalid("", "/resource/form/packageDigest must be sha256:<64 lowercase hex> when present")
	case !wire.ValidResourceName(r.Resource.Metadata.Name):
		return invalid("", "/resource/metadata/name %q must match ^[a-z][a-z0-9-]{0,62}$", r.Resource.Metadata.Name)
	case !wire.ValidUID(r.Expected.UID):
		return invalid("", "/expected/uid %q is not a uid", r.Expected.UID)
	case !wire.ValidDigest(r.TransitionEvidence.Digest):
		return invalid("", "/transitionEvidence/digest must be sha256:<64 lowercase hex>")
	case r.TransitionEvidence.Format != wire.DomainTransitionEvidence:
		return invalid("", "/transitionEvidence/format must be %q, got %q", wire.DomainTransitionEvidence, r.TransitionEvidence.Format)
	}
	var ok bool
	if p.gen, ok = wire.ParseDecimal(r.Expected.Generation); !ok {
		return invalid("", "/expected/generation %q is not a canonical decimal 1..9223372036854775807", r.Expected.Generation)
	}
	if p.rev, ok = wire.ParseDecimal(r.Expected.Revision); !ok {
		return invalid("", "/expected/revision %q is not a canonical decimal 1..9223372036854775807", r.Expected.Revision)
	}
	return nil
}

// agreement checks body against path, query, headers and itself.
func (p *parsed) agreement(c *Call, gen, rev int64) *wire.Error {
	r := &p.Request
	group, kind, name := c.Group, c.Kind, c.Name
	from, to := r.FromForm.FormRef, r.ToForm.FormRef
	switch {
	case r.Resource.APIVersion != group || r.Resource.Kind != kind || r.Resource.Metadata.Name != name:
		return invalid("", "the body names %s %s %q but the path names %s %s %q; they must agree",
			r.Resource.APIVersion, r.Resource.Kind, r.Resource.Metadata.Name, group, kind, name)
	case r.Resource.Metadata.Space != p.space:
		return invalid("", "/resource/metadata/space %q differs from the query space %q; they must agree", r.Resource.Metadata.Space, p.space)
	case from.APIVersion != group || from.Kind != kind || to.APIVersion != group || to.Kind != kind:
		return invalid("", "fromForm and toForm must both be %s %s (the path's group and kind); a transition never changes the kind", group, kind)
	case from == to:
		return invalid("", "fromForm and toForm are the same FormRef %s; a transition moves to another definition version", from)
	case r.Resource.Form.FormRef != to:
		return invalid("", "/resource/form/formRef must equal /toForm/formRef (%s)", to)
	case r.Resource.Form.PackageDigest != nil && *r.Resource.Form.PackageDigest != r.ToForm.PackageDigest:
		return invalid("", "/resource/form/packageDigest must equal /toForm/packageDigest when present")
	case r.Resource.Metadata.Generation != r.Expected.Generation:
		return invalid("", "/resource/metadata/generation %q and /expected/generation %q must be the same canonical decimal", r.Resource.Metadata.Generation, r.Expected.Generation)
	case r.Resource.Metadata.UID != r.Expected.UID:
		return invalid("", "/resource/metadata/uid %q and /expected/uid %q must be equal", r.Resource.Metadata.UID, r.Expected.UID)
	case c.Header.Get(wire.HeaderIdempotencyKey) != r.OperationID:
		return invalid("", "Idempotency-Key must equal /operationId (%s) on a Form transition", r.OperationID)
	case gen != p.gen:
		return invalid("", "Takoform-Expected-Generation %d and /expected/generation %d disagree; send the same fence", gen, p.gen)
	case rev != p.rev:
		return invalid("", "If-Match \"%d\" and /expected/revision %d disagree; send If-Match: \"%d\"", rev, p.rev, p.rev)
	}
	return nil
}

// pair checks the declared transition and that the host installs both ends.
func (p *parsed) pair(s *Service, c *Call) *wire.Error {
	r := &p.Request
	t, ok := s.Host.Cat.Transition(r.TransitionEvidence.Marker)
	if !ok || t.From != r.FromForm.FormRef || t.To != r.ToForm.FormRef {
		if !c.Faults.On(fault.TransitionAnyPair) {
			return invalid("form_transition_undeclared", "the catalog declares no transition %q from %s to %s; use a declared marker and pair (hostsim catalog lists them)",
				r.TransitionEvidence.Marker, r.FromForm.FormRef, r.ToForm.FormRef)
		}
		t = &catalog.Transition{Marker: r.TransitionEvidence.Marker, From: r.FromForm.FormRef, To: r.ToForm.FormRef}
	}
	for _, ref := range []wire.FormRef{t.From, t.To} {
		if _, ok := s.Host.Form(ref); !ok {
			return refuse(wire.CodeFormUnknown, "", "Form %s is not installed on this host (profile %q); it cannot take part in transition %s",
				ref, s.Host.P.Name, t.Marker)
		}
	}
	p.to, _ = s.Host.Form(t.To)
	return nil
}

// checkSpec: no secret material (checked first: a secret is refused as such
// whatever else is wrong), valid under toForm, materialized, inside the profile.
func (p *parsed) checkSpec(s *Service) *wire.Error {
	// Numbers stay json.Number, as an apply decodes them: the profile's
	// supportedRanges compare only json.Number values.
	var spec map[string]any
	if err := wire.DecodeNumbers(p.Resource.Spec, &spec); err != nil || spec == nil {
		return invalid("", "/resource/spec must be a JSON object (the desired spec under %s)", p.to.Ref)
	}
	if ptr, ok := secretAt(spec, ""); ok {
		return decide.AtField(invalid("form_transition_secret_material", "/resource/spec%s looks like secret material; a Form transition never carries secrets (remove it)", ptr), ptr)
	}
	if err := p.to.ValidateDesired(p.to.Materialize(spec)); err != nil {
		var se *catalog.SchemaError
		if errors.As(err, &se) && len(se.Problems) > 0 {
			pr := se.Problems[0]
			return decide.AtField(invalid("", "/resource/spec%s does not satisfy the desiredSchema of %s %s: %s", pr.Pointer, p.to.Ref.Kind,
				p.to.Ref.DefinitionVersion, pr.Message), pr.Pointer)
		}
		return invalid("", "/resource/spec does not satisfy the desiredSchema of %s: %v", p.to.Ref, err)
	}
	for _, f := range p.to.Fields {
		if _, ok := spec[f.Wire]; !ok && f.Default != nil {
			ptr := "/" + wire.EscapePointerToken(f.Wire)
			return decide.AtField(invalid("form_transition_spec_not_materialized", "/resource/spec%s is missing: send the spec with every default of %s %s materialized (the digests cover the spec exactly as sent)",
				ptr, p.to.Ref.Kind, p.to.Ref.DefinitionVersion), ptr)
		}
	}
	if v := s.Host.CheckSpec(p.to, spec); v != nil {
		return decide.AtField(refuse(wire.CodeUnsupportedCapability, "", "%s: %s", p.what(), v.Message), v.Field)
	}
	p.spec = spec
	return nil
}

// secretAt finds a secret-like member name or PEM-looking string value.
func secretAt(v any, ptr string) (string, bool) {
	switch t := v.(type) {
	case map[string]any:
		for k, sub := range t {
			here := ptr + "/" + wire.EscapePointerToken(k)
			low := strings.ToLower(k)
			for _, s := range secretNames {
				if strings.Contains(low, s) {
					return here, true
				}
			}
			if p, ok := secretAt(sub, here); ok {
				return p, true
			}
		}
	case []any:
		for i, sub := range t {
			if p, ok := secretAt(sub, fmt.Sprintf("%s/%d", ptr, i)); ok {
				return p, true
			}
		}
	case string:
		return ptr, strings.HasPrefix(t, "-----BEGIN")
	}
	return "", false
}

// digests recomputes transitionEvidence.digest and operationId.
func (p *parsed) digests(c *Call) *wire.Error {
	r := &p.Request
	ev, err := EvidenceDigest(r.TransitionEvidence.Marker, r.FromForm, r.ToForm)
	if err != nil {
		return invalid("", "transitionEvidence cannot be digested: %v", err)
	}
	if ev != r.TransitionEvidence.Digest {
		if !c.Faults.On(fault.TransitionUnverified) {
			return invalid("form_transition_digest_mismatch", "/transitionEvidence/digest %s does not recompute (expected %s over format, marker, fromForm and toForm)", r.TransitionEvidence.Digest, ev)
		}
	}
	d, id, rd, err := r.Seal()
	if err != nil {
		return invalid("", "the request cannot be digested: %v", err)
	}
	if id != r.OperationID {
		if !c.Faults.On(fault.TransitionUnverified) {
			return invalid("form_transition_digest_mismatch", "/operationId %s does not recompute from the request (expected %s); rebuild it as docs/protocol.md#transitions defines", r.OperationID, id)
		}
	}
	p.specDigest, p.requestDigest = d, rd
	p.raw, _ = json.Marshal(r)
	return nil
}
