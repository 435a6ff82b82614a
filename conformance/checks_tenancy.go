package conformance

import (
	"context"
	"net/http"

	"github.com/takokit/takokit/catalog/wire"
)

func checkCrossSpace(ctx context.Context, p *Probe) error {
	f, spec, a, err := p.simpleResource(ctx, "space")
	if err != nil {
		return err
	}
	name := a.Metadata.Name
	home := p.Space
	p.Space = home + "-other"
	defer func() { p.Space = home }()
	r, err := p.read(ctx, p.P, f.Ref, name)
	if err != nil {
		return err
	}
	if err := expectCode(r, wire.CodeResourceNotFound); err != nil {
		return failf("%s (the name in another space)", err)
	}
	b, err := p.create(ctx, f, name, spec)
	if err != nil {
		return failf("%v (the same name in another space is independent)", err)
	}
	if b.Metadata.UID == a.Metadata.UID {
		return failf("PUT %s: the resource in space %q has the uid of the one in %q", ResourcePath(f.Ref, name), p.Space, home)
	}
	if err := p.deleted(ctx, b); err != nil {
		return err
	}
	p.Space = home
	return p.unchanged(ctx, a)
}

// strangerRefused sends one request as the other tenant and expects exactly the
// answer a never-created name gets.
func (p *Probe) strangerRefused(ctx context.Context, label string, send func(name string) (*Resp, error), name string) error {
	r, err := send(name)
	if err != nil {
		return err
	}
	if err := expectCode(r, wire.CodeResourceNotFound); err != nil {
		return failf("%s (%s by another tenant)", err, label)
	}
	never, err := send(p.Name("never"))
	if err != nil {
		return err
	}
	if never.Status != r.Status || never.Code() != r.Code() {
		return failf("%s: another tenant's resource answered %s, a never-created one %s; they must be indistinguishable", r.What(), r.Got(), never.Got())
	}
	return nil
}

func checkReadTenantIsolated(ctx context.Context, p *Probe) error {
	f, _, a, err := p.simpleResource(ctx, "tread")
	if err != nil {
		return err
	}
	if err := p.strangerRefused(ctx, "read", func(n string) (*Resp, error) { return p.read(ctx, p.Other, f.Ref, n) }, a.Metadata.Name); err != nil {
		return err
	}
	if err := p.strangerRefused(ctx, "observe", func(n string) (*Resp, error) { return p.observe(ctx, p.Other, f.Ref, n, "1", nil) }, a.Metadata.Name); err != nil {
		return err
	}
	return p.unchanged(ctx, a)
}

func checkUpdateTenantIsolated(ctx context.Context, p *Probe) error {
	f, spec, a, err := p.simpleResource(ctx, "tupd")
	if err != nil {
		return err
	}
	name := a.Metadata.Name
	if err := p.strangerRefused(ctx, "prepare with a fence", func(n string) (*Resp, error) {
		r, _, err := p.prepare(ctx, p.Other, f.Ref, n, spec, "1")
		return r, err
	}, name); err != nil {
		return err
	}
	digest, err := p.prepared(ctx, p.P, f.Ref, name, spec, "1")
	if err != nil {
		return err
	}
	if err := p.strangerRefused(ctx, "fenced apply", func(n string) (*Resp, error) {
		return p.Other.Do(ctx, p.applyReq(f.Ref, n, spec, digest, "1"))
	}, name); err != nil {
		return err
	}
	return p.unchanged(ctx, a)
}

func checkDeleteTenantIsolated(ctx context.Context, p *Probe) error {
	f, _, a, err := p.simpleResource(ctx, "tdel")
	if err != nil {
		return err
	}
	if err := p.strangerRefused(ctx, "delete", func(n string) (*Resp, error) { return p.del(ctx, p.Other, f.Ref, n, "1", nil) }, a.Metadata.Name); err != nil {
		return err
	}
	return p.unchanged(ctx, a)
}

func checkEachTenantOwnPlane(ctx context.Context, p *Probe) error {
	f, spec, a, err := p.simpleResource(ctx, "plane")
	if err != nil {
		return err
	}
	name := a.Metadata.Name
	if r, err := p.del(ctx, p.Other, f.Ref, name, "1", nil); err != nil {
		return err
	} else if r.Code() != wire.CodeResourceNotFound {
		return failf("%s: another tenant's delete answered %s, expected resource_not_found", r.What(), r.Got())
	}
	r, err := p.apply(ctx, p.Other, f.Ref, name, spec, "")
	if err != nil {
		return err
	}
	theirs, err := p.settle(ctx, p.Other, r, http.StatusCreated)
	if err != nil {
		return failf("%v (each tenant creates the name in its own plane)", err)
	}
	if theirs.Metadata.UID == a.Metadata.UID {
		return failf("%s: both tenants' resources share uid %q", r.What(), a.Metadata.UID)
	}
	r, err = p.observe(ctx, p.Other, f.Ref, name, "1", nil)
	if err != nil {
		return err
	}
	if _, err := observed(r); err != nil {
		return err
	}
	r, err = p.del(ctx, p.Other, f.Ref, name, "1", nil)
	if err != nil {
		return err
	}
	if r.Status == http.StatusAccepted {
		if op, err := p.await(ctx, p.Other, r); err != nil {
			return err
		} else if op.Error != nil {
			return failf("%s: the other tenant's delete ended with %s", r.What(), op.Error.Code)
		}
	} else if err := expectStatus(r, http.StatusNoContent); err != nil {
		return err
	}
	return p.unchanged(ctx, a)
}
