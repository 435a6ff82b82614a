package conformance

import (
	"context"
	"net/http"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
)

func checkAttachmentClaimOnImport(ctx context.Context, p *Probe) error {
	a, err := p.build(ctx, "of the attachment role with outputs", endpointForm)
	if err != nil {
		return err
	}
	if !p.S.Offers(a.f, "import") {
		return notApplicable("the host does not offer import of %s", a.f.Ref.Kind)
	}
	second := p.Name(slugPrefix(a.f))
	r, err := p.P.Do(ctx, p.importReq(a.f.Ref, second, a.spec, p.nativeID("claim"), ""))
	if err != nil {
		return err
	}
	if err := expectCode(r, wire.CodeInvalidArgument); err != nil {
		return failf("%s (importing a second endpoint for the same worker)", err)
	}
	return p.notCreated(ctx, a.f.Ref, second, "a refused import")
}

func checkAttachmentClaimAtCommit(ctx context.Context, p *Probe) error {
	f, err := p.pickForm("of the attachment role with outputs", endpointForm)
	if err != nil {
		return err
	}
	spec, err := p.specFor(ctx, f)
	if err != nil {
		return err
	}
	first := p.Name(slugPrefix(f))
	digest, err := p.prepared(ctx, p.P, f.Ref, first, spec, "")
	if err != nil {
		return err
	}
	req := p.applyReq(f.Ref, first, spec, digest, "")
	req.Header[ProbeHeader] = "async"
	r, err := p.P.Do(ctx, req)
	if err != nil {
		return err
	}
	if err := expectStatus(r, http.StatusAccepted); err != nil {
		return err
	}
	op, err := accepted(r)
	if err != nil {
		return err
	}
	if _, err := p.create(ctx, f, p.Name(slugPrefix(f)), spec); err != nil {
		return failf("%v (a pending operation holds no claim)", err)
	}
	pr, done, err := p.settleOp(ctx, p.P, op.ID)
	if err != nil {
		return err
	}
	if done.Error == nil || done.Error.Code != wire.CodeInvalidArgument {
		return failf("%s: a create accepted before another endpoint took the worker must end with invalid_argument at commit; got %s", pr.What(), snippet(pr.Body))
	}
	return p.notCreated(ctx, f.Ref, first, "a commit refused for its claim")
}

func checkSameKindTwoGroups(ctx context.Context, p *Probe) error {
	var a, b *catalog.Form
	for _, f := range p.S.Forms {
		for _, g := range p.S.Forms {
			if f.Ref.Kind == g.Ref.Kind && f.Ref.APIVersion != g.Ref.APIVersion && standalone(f) && standalone(g) && a == nil {
				a, b = f, g
			}
		}
	}
	if a == nil {
		return notApplicable("the host installs no kind name in two groups")
	}
	name := p.Name("twogroups")
	x, err := p.buildNamed(ctx, a, name)
	if err != nil {
		return err
	}
	y, err := p.buildNamed(ctx, b, name)
	if err != nil {
		return failf("%v (a kind of the same name in another group is another kind)", err)
	}
	if x.Metadata.UID == y.Metadata.UID {
		return failf("PUT %s: two kinds of two groups share uid %q", ResourcePath(b.Ref, name), x.Metadata.UID)
	}
	return nil
}

func (p *Probe) buildNamed(ctx context.Context, f *catalog.Form, name string) (*Resource, error) {
	spec, err := p.specFor(ctx, f)
	if err != nil {
		return nil, err
	}
	return p.create(ctx, f, name, spec)
}

func checkPinRecordsTargetFormRef(ctx context.Context, p *Probe) error {
	// A source pinning a target that a transition then moves to another FormRef
	// must render the change (docs/protocol.md#relations).
	tr, from, _, err := p.transitionPair()
	if err != nil {
		return err
	}
	var src *catalog.Form
	for _, f := range p.S.Forms {
		for _, rel := range f.Relations {
			if p.freeRelation(rel) && rel.TargetKind == from.Ref.Kind && rel.TargetAPIVersion == from.Ref.APIVersion {
				if t, err := p.targetForm(rel); err == nil && t.Ref == from.Ref && src == nil && f.Role != "revision" {
					src = f
				}
			}
		}
	}
	if src == nil {
		return notApplicable("no installed Form refers to %s through a plain reference", from.Ref)
	}
	b, err := p.buildOf(ctx, src)
	if declined(err) {
		return notApplicable("%s needs something the host's profile declines: %v", src.Ref.Kind, err)
	}
	if err != nil {
		return err
	}
	target := p.world.made[from.Ref.APIVersion+"/"+from.Ref.Kind]
	if target == nil {
		return notApplicable("%s resolved its reference to no resource the runner made", src.Ref)
	}
	t, err := p.newTx(tr, target, tr.Marker)
	if err != nil {
		return err
	}
	r, err := p.P.Do(ctx, t.req(""))
	if err != nil {
		return err
	}
	if _, err := t.verifyReceipt(r); err != nil {
		return err
	}
	now, err := p.readResource(ctx, src.Ref, b.res.Metadata.Name)
	if err != nil {
		return err
	}
	ready := readyOf(now)
	if ready.Status != wire.StatusFalse || ready.Reason != wire.ReasonExternalChange || now.Metadata.Revision == b.res.Metadata.Revision {
		return failf("GET %s: after its %s target moved to %s the pin (recorded under %s) must render Ready=False/ExternalChange with a new revision; got Ready=%s/%s revision %s", ResourcePath(src.Ref, b.res.Metadata.Name), from.Ref.Kind, tr.To.DefinitionVersion, from.Ref.DefinitionVersion, ready.Status, ready.Reason, now.Metadata.Revision)
	}
	return nil
}
