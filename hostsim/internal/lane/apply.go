package lane

import (
	"strings"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/core"
	"github.com/takokit/takokit/hostsim/internal/fault"
)

// apply answers PUT {api}/resources/{group}/{version}/{kind}/{name}.
func apply(c *call) *wire.Error {
	pre, err := core.ParsePreconditions(c.r.Header)
	if err != nil {
		return err
	}
	var d applyDoc
	if err := c.decodeBody(&d); err != nil {
		return err
	}
	in, err := envelopeOf(d.APIVersion, d.Kind, d.Form, d.Metadata, d.Spec)
	if err != nil {
		return err
	}
	if d.Review == nil || !wire.ValidDigest(d.Review.PrepareDigest) {
		return core.Invalid("/review/prepareDigest must be the sha256: digest prepare returned")
	}
	if d.ExpectedUID != nil && !wire.ValidUID(*d.ExpectedUID) {
		return core.Invalid("/expectedUid %q is not a uid", *d.ExpectedUID)
	}
	var bodyFence int64
	if d.ExpectedGeneration != nil {
		n, ok := wire.ParseDecimal(*d.ExpectedGeneration)
		if !ok {
			return core.Invalid("/expectedGeneration %q is not a canonical decimal 1..9223372036854775807", *d.ExpectedGeneration)
		}
		bodyFence = n
	}
	m, g, early := c.stateless(in, pre, bodyFence, "/expectedGeneration")
	if m != nil {
		m.Action, m.ExpectedUID, m.PrepareDigest = "apply", d.ExpectedUID, d.Review.PrepareDigest
	}
	return c.mutate(in.space, m, g, early)
}

// importResource answers POST …/{name}/import (docs/protocol.md#import).
func importResource(c *call) *wire.Error {
	pre, err := core.ParsePreconditions(c.r.Header)
	if err != nil {
		return err
	}
	var d importDoc
	if err := c.decodeBody(&d); err != nil {
		return err
	}
	in, err := envelopeOf(d.APIVersion, d.Kind, d.Form, d.Metadata, d.Spec)
	if err != nil {
		return err
	}
	nid := ""
	if d.NativeID != nil {
		nid = *d.NativeID
	}
	if len(nid) < 1 || len([]rune(nid)) > 4096 || strings.TrimSpace(nid) != nid {
		return core.Invalid("/nativeId must be 1..4096 characters with no leading or trailing whitespace")
	}
	var bodyFence int64
	if in.generation != nil {
		bodyFence, _ = wire.ParseDecimal(*in.generation)
	}
	m, g, early := c.stateless(in, pre, bodyFence, "/metadata/generation")
	if m != nil {
		m.Action, m.NativeID = "import", nid
	}
	return c.mutate(in.space, m, g, early)
}

// stateless runs steps 8-11 of the order of checks, gating the spec once; its
// refusal is held until the idempotency lookup (step 7) has had its say.
func (c *call) stateless(in *request, pre core.Preconditions, bodyFence int64, bodyFenceName string) (*core.Mutation, *core.Gated, *wire.Error) {
	if in.apiVersion != c.group() || in.kind != c.params["kind"] || in.name != c.params["name"] {
		return nil, nil, core.Invalid("the body names %s %s %q but the path names %s %s %q; they must agree",
			in.apiVersion, in.kind, in.name, c.group(), c.params["kind"], c.params["name"])
	}
	f, err := c.installed(in.ref)
	if err != nil {
		return nil, nil, err
	}
	if err := c.grammars(in); err != nil {
		return nil, nil, err
	}
	g, err := c.gate(f, in.spec, c.rt.name)
	if err != nil {
		return nil, nil, err
	}
	intent, err := core.ResolveIntent(pre, bodyFence, bodyFenceName, c.fs)
	if err != nil {
		return nil, nil, err
	}
	return &core.Mutation{Tenant: c.who.Tenant, Principal: c.who.Principal, Ref: in.ref, Space: in.space, Name: in.name,
		Spec: in.spec, IfNoneMatch: intent.Create, Fence: intent.Fence, IfMatch: intent.IfMatch}, g, nil
}

// gate is the spec gate of an apply or import (step 10).
func (c *call) gate(f *catalog.Form, spec map[string]any, action string) (*core.Gated, *wire.Error) {
	g, err := core.GateOrRefuse(f, spec)
	if err == nil || action != "import" {
		return g, err
	}
	if !c.fs.On(fault.ImportUnchecked) {
		return nil, err
	}
	return core.Ungated(f, spec)
}

// installed resolves an exact FormRef among the Forms this host installs.
func (c *call) installed(ref wire.FormRef) (*catalog.Form, *wire.Error) {
	if f, ok := c.s.Host.Form(ref); ok {
		return f, nil
	}
	if f, ok := c.looseForm(ref); ok {
		return f, nil
	}
	return nil, core.Refuse(wire.CodeFormUnknown, "Form %s is not installed on this host (profile %q); read GET %s/support/forms for what it serves",
		ref, c.s.Host.P.Name, APIRoot)
}

// looseForm resolves an uninstalled FormRef by group and kind alone (fault
// formref.loose): the first installed version of the kind answers.
func (c *call) looseForm(ref wire.FormRef) (*catalog.Form, bool) {
	k, ok := c.s.Host.Cat.Kind(ref.APIVersion, ref.Kind)
	if !ok {
		return nil, false
	}
	for _, v := range k.Versions {
		if f, ok := c.s.Host.Form(v.Ref); ok {
			if c.fs.On(fault.FormRefLoose) {
				return f, true
			}
			return nil, false
		}
	}
	return nil, false
}
