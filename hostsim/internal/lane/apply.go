package lane

import (
	"strings"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/decide"
	"github.com/takokit/takokit/hostsim/internal/request"
)

// apply answers PUT {api}/resources/{group}/{version}/{kind}/{name}.
func apply(c *call) *wire.Error {
	pre, err := request.ParsePreconditions(c.r.Header)
	if err != nil {
		return err
	}
	var d request.ApplyDoc
	if err := request.DecodeBody(c.body, &d, c.fs); err != nil {
		return err
	}
	in, err := request.ParseResource(d.APIVersion, d.Kind, d.Form, d.Metadata, d.Spec)
	if err != nil {
		return err
	}
	if d.Review == nil || !wire.ValidDigest(d.Review.PrepareDigest) {
		return decide.Invalid("/review/prepareDigest must be the sha256: digest prepare returned")
	}
	if d.ExpectedUID != nil && !wire.ValidUID(*d.ExpectedUID) {
		return decide.Invalid("/expectedUid %q is not a uid", *d.ExpectedUID)
	}
	var bodyFence int64
	if d.ExpectedGeneration != nil {
		n, ok := wire.ParseDecimal(*d.ExpectedGeneration)
		if !ok {
			return decide.Invalid("/expectedGeneration %q is not a canonical decimal 1..9223372036854775807", *d.ExpectedGeneration)
		}
		bodyFence = n
	}
	m, g, early := c.stateless(in, pre, bodyFence, "/expectedGeneration")
	if m != nil {
		m.Action, m.ExpectedUID, m.PrepareDigest = "apply", d.ExpectedUID, d.Review.PrepareDigest
	}
	return c.mutate(in.Space, m, g, early)
}

// importResource answers POST …/{name}/import (docs/protocol.md#import).
func importResource(c *call) *wire.Error {
	pre, err := request.ParsePreconditions(c.r.Header)
	if err != nil {
		return err
	}
	var d request.ImportDoc
	if err := request.DecodeBody(c.body, &d, c.fs); err != nil {
		return err
	}
	in, err := request.ParseResource(d.APIVersion, d.Kind, d.Form, d.Metadata, d.Spec)
	if err != nil {
		return err
	}
	nid := ""
	if d.NativeID != nil {
		nid = *d.NativeID
	}
	if len(nid) < 1 || len([]rune(nid)) > 4096 || strings.TrimSpace(nid) != nid {
		return decide.Invalid("/nativeId must be 1..4096 characters with no leading or trailing whitespace")
	}
	var bodyFence int64
	if in.Generation != nil {
		bodyFence, _ = wire.ParseDecimal(*in.Generation)
	}
	m, g, early := c.stateless(in, pre, bodyFence, "/metadata/generation")
	if m != nil {
		m.Action, m.NativeID = "import", nid
	}
	return c.mutate(in.Space, m, g, early)
}

// stateless runs steps 8-11 of the order of checks, gating the spec once; its
// refusal is held until the idempotency lookup (step 7) has had its say.
func (c *call) stateless(in *request.Request, pre decide.Preconditions, bodyFence int64, bodyFenceName string) (*decide.Mutation, *decide.Gated, *wire.Error) {
	if in.APIVersion != c.group() || in.Kind != c.params["kind"] || in.Name != c.params["name"] {
		return nil, nil, decide.Invalid("the body names %s %s %q but the path names %s %s %q; they must agree",
			in.APIVersion, in.Kind, in.Name, c.group(), c.params["kind"], c.params["name"])
	}
	f, err := c.s.Engine.Installed(in.Ref, c.fs)
	if err != nil {
		return nil, nil, err
	}
	if err := in.CheckGrammars(c.fs); err != nil {
		return nil, nil, err
	}
	g, err := c.s.Engine.Gate(f, in.Spec, c.rt.name, c.fs)
	if err != nil {
		return nil, nil, err
	}
	var intent decide.Intent
	c.fs.Decide(func(a *decide.Acts) { intent, err = decide.ResolveIntent(pre, bodyFence, bodyFenceName, a) })
	if err != nil {
		return nil, nil, err
	}
	return &decide.Mutation{Tenant: c.who.Tenant, Principal: c.who.Principal, Ref: in.Ref, Space: in.Space, Name: in.Name,
		Spec: in.Spec, IfNoneMatch: intent.Create, Fence: intent.Fence, IfMatch: intent.IfMatch}, g, nil
}
