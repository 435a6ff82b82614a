package conformance

// Tenant and space scoping beyond the basic isolation checks: observe, prepare, endpoint
// addresses and relation resolution answer only inside the caller's tenant.

import (
	"context"
	"net/http"
	"slices"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
)

func checkObserveTenantIsolated(ctx context.Context, p *Probe) error {
	f, _, a, err := p.simpleResource(ctx, "tobs")
	if err != nil {
		return err
	}
	if err := p.strangerRefused(ctx, "observe", func(n string) (*Resp, error) { return p.observe(ctx, p.Other, f.Ref, n, "1", nil) }, a.Metadata.Name); err != nil {
		return err
	}
	return p.unchanged(ctx, a)
}

func checkPrepareTenantScoped(ctx context.Context, p *Probe) error {
	f, spec, err := p.pickSpec(ctx, p.simpleForm)
	if err != nil {
		return err
	}
	name := p.Name("tprep")
	digest, err := p.prepared(ctx, p.P, f.Ref, name, spec, "")
	if err != nil {
		return err
	}
	r, err := p.Other.Do(ctx, p.applyReq(f.Ref, name, spec, digest, ""))
	if err != nil {
		return err
	}
	if err := expectCode(r, wire.CodeInvalidArgument); err != nil {
		return failf("%s (another tenant spending a prepareDigest minted for the first)", err)
	}
	if r, err := p.read(ctx, p.Other, f.Ref, name); err != nil {
		return err
	} else if r.Code() != wire.CodeResourceNotFound {
		return failf("%s: the refused create left a resource in the other tenant's plane: %s", r.What(), r.Got())
	}
	r, err = p.P.Do(ctx, p.applyReq(f.Ref, name, spec, digest, ""))
	if err != nil {
		return err
	}
	_, err = p.settle(ctx, p.P, r, http.StatusCreated)
	return err
}

func checkAddressTenantScoped(ctx context.Context, p *Probe) error {
	f, spec, a, err := p.simpleResource(ctx, "addr")
	if err != nil {
		return err
	}
	r, err := p.apply(ctx, p.Other, f.Ref, a.Metadata.Name, spec, "")
	if err != nil {
		return err
	}
	b, err := p.settle(ctx, p.Other, r, http.StatusCreated)
	if err != nil {
		return failf("%v (another tenant holds the same space, kind and name independently)", err)
	}
	if b.Metadata.UID == a.Metadata.UID {
		return failf("%s: both tenants' resources share uid %q", r.What(), a.Metadata.UID)
	}
	theirs, err := p.read(ctx, p.Other, f.Ref, a.Metadata.Name)
	if err != nil {
		return err
	}
	if err := expectStatus(theirs, http.StatusOK); err != nil {
		return failf("%s (the other tenant reading its own resource)", err)
	}
	got, err := decodeResource(theirs)
	if err != nil {
		return err
	}
	if got.Metadata.UID != b.Metadata.UID {
		return failf("%s: the other tenant reads uid %q, expected its own %q", theirs.What(), got.Metadata.UID, b.Metadata.UID)
	}
	return p.unchanged(ctx, a)
}

func checkRelationResolutionTenantScoped(ctx context.Context, p *Probe) error {
	f, err := p.pickForm("with a reference to another resource", func(f *catalog.Form) bool {
		return slices.ContainsFunc(f.Relations, func(r catalog.Relation) bool { return r.Binding == nil })
	})
	if err != nil {
		return err
	}
	spec, err := p.specFor(ctx, f)
	if err != nil {
		return err
	}
	name := p.Name(slugPrefix(f))
	r, err := p.apply(ctx, p.Other, f.Ref, name, spec, "")
	if err != nil {
		return err
	}
	if err := expectCode(r, wire.CodeResourceNotFound); err != nil {
		return failf("%s (another tenant referring to names only the first tenant holds)", err)
	}
	if r, err := p.read(ctx, p.Other, f.Ref, name); err != nil {
		return err
	} else if r.Code() != wire.CodeResourceNotFound {
		return failf("%s: the refused apply stored a resource: %s", r.What(), r.Got())
	}
	return nil
}
