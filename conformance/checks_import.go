package conformance

import (
	"bytes"
	"context"
	"net/http"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
)

// importReq builds an import of name adopting nativeID; fence "" is a new adoption.
func (p *Probe) importReq(ref wire.FormRef, name string, spec any, nativeID, fence string) Req {
	h := map[string]string{wire.HeaderIdempotencyKey: newKey()}
	if fence == "" {
		h[wire.HeaderIfNoneMatch] = "*"
	} else {
		h[wire.HeaderExpectedGeneration] = fence
	}
	return Req{Method: http.MethodPost, Target: ResourcePath(ref, name) + "/import", Header: h,
		Body: body(ref, name, p.Space, spec, map[string]any{"nativeId": nativeID})}
}

// importable picks a standalone Form the host lets import.
func (p *Probe) importable() (*catalog.Form, error) {
	return p.pickForm("creatable without other resources and importable", func(f *catalog.Form) bool {
		return standalone(f) && p.S.Offers(f, "import")
	})
}

func (p *Probe) adopt(ctx context.Context, c *Client, f *catalog.Form, name string, spec any, nativeID, fence string, want int) (*Resource, *Resp, error) {
	r, err := c.Do(ctx, p.importReq(f.Ref, name, spec, nativeID, fence))
	if err != nil {
		return nil, nil, err
	}
	res, err := p.settle(ctx, c, r, want)
	return res, r, err
}

func checkImportAdopts(ctx context.Context, p *Probe) error {
	f, spec, err := p.pickSpec(ctx, p.importable)
	if err != nil {
		return err
	}
	native := p.nativeID("native")
	name := p.Name("imp")
	a, r, err := p.adopt(ctx, p.P, f, name, spec, native, "", http.StatusCreated)
	if err != nil {
		return err
	}
	if !wire.ValidUID(a.Metadata.UID) || a.Metadata.Generation != "1" || a.Metadata.Revision != "1" {
		return failf("%s: a new adoption answers a fresh uid at generation and revision \"1\", got uid %q generation %q revision %q", r.What(), a.Metadata.UID, a.Metadata.Generation, a.Metadata.Revision)
	}
	if bytes.Contains(r.Body, []byte(native)) {
		return failf("%s: the answer carries the nativeId, which never appears in a response", r.What())
	}
	b, r, err := p.adopt(ctx, p.P, f, name, spec, native, "1", http.StatusOK)
	if err != nil {
		return failf("%v (a fenced re-import of the same incarnation under the same nativeId)", err)
	}
	if b.Metadata.UID != a.Metadata.UID || b.Metadata.Generation != "1" {
		return failf("%s: re-adoption answered uid %q generation %q, expected the same uid %q at generation \"1\"", r.What(), b.Metadata.UID, b.Metadata.Generation, a.Metadata.UID)
	}
	return nil
}

func checkImportClaims(ctx context.Context, p *Probe) error {
	f, spec, err := p.pickSpec(ctx, p.importable)
	if err != nil {
		return err
	}
	native := p.nativeID("claim")
	first, _, err := p.adopt(ctx, p.P, f, p.Name("claim"), spec, native, "", http.StatusCreated)
	if err != nil {
		return err
	}
	second := p.Name("claim")
	r, err := p.P.Do(ctx, p.importReq(f.Ref, second, spec, native, ""))
	if err != nil {
		return err
	}
	if err := expectCode(r, wire.CodeImportConflict); err != nil {
		return failf("%s (a second resource adopting a claimed nativeId)", err)
	}
	if err := p.notCreated(ctx, f.Ref, second, "a refused adoption"); err != nil {
		return err
	}
	r, err = p.P.Do(ctx, p.importReq(f.Ref, first.Metadata.Name, spec, native+"-other", "1"))
	if err != nil {
		return err
	}
	if err := expectCode(r, wire.CodeImportConflict); err != nil {
		return failf("%s (re-importing a resource under another nativeId)", err)
	}
	if err := p.deleted(ctx, first); err != nil {
		return err
	}
	if _, _, err := p.adopt(ctx, p.P, f, second, spec, native, "", http.StatusCreated); err != nil {
		return failf("%v (deleting the holder releases the nativeId claim)", err)
	}
	return nil
}

func checkImportValidatesLikeApply(ctx context.Context, p *Probe) error {
	f, spec, err := p.pickSpec(ctx, p.importable)
	if err != nil {
		return err
	}
	for _, neg := range f.NegativeFixtures {
		if neg.Stage != "desired" {
			continue
		}
		name := p.Name("impbad")
		r, err := p.P.Do(ctx, p.importReq(f.Ref, name, neg.Input, p.nativeID("bad"), ""))
		if err != nil {
			return err
		}
		if err := expectCode(r, wire.CodeInvalidArgument); err != nil {
			return failf("%s (import of negative fixture %q)", err, neg.Name)
		}
		if err := p.notCreated(ctx, f.Ref, name, "a refused import"); err != nil {
			return err
		}
		break
	}
	a, err := p.create(ctx, f, p.Name("impdup"), spec)
	if err != nil {
		return err
	}
	dup := p.nativeID("dup")
	r, err := p.P.Do(ctx, p.importReq(f.Ref, a.Metadata.Name, spec, dup, ""))
	if err != nil {
		return err
	}
	if err := expectCode(r, wire.CodeGenerationConflict); err != nil {
		return failf("%s (a new adoption of a name that is taken)", err)
	}
	r, err = p.P.Do(ctx, p.importReq(f.Ref, a.Metadata.Name, spec, dup, "2"))
	if err != nil {
		return err
	}
	if err := expectCode(r, wire.CodeGenerationConflict); err != nil {
		return failf("%s (an import with a stale fence)", err)
	}
	return nil
}

func checkImportTenantIsolated(ctx context.Context, p *Probe) error {
	f, spec, err := p.pickSpec(ctx, p.importable)
	if err != nil {
		return err
	}
	native := p.nativeID("tenant")
	a, _, err := p.adopt(ctx, p.P, f, p.Name("timp"), spec, native, "", http.StatusCreated)
	if err != nil {
		return err
	}
	if err := p.strangerRefused(ctx, "fenced import", func(n string) (*Resp, error) {
		return p.Other.Do(ctx, p.importReq(f.Ref, n, spec, native, "1"))
	}, a.Metadata.Name); err != nil {
		return err
	}
	theirs, r, err := p.adopt(ctx, p.Other, f, a.Metadata.Name, spec, native, "", http.StatusCreated)
	if err != nil {
		return failf("%v (another tenant's claims are invisible: it adopts the same name and nativeId in its own plane)", err)
	}
	if theirs.Metadata.UID == a.Metadata.UID {
		return failf("%s: both tenants' adoptions share uid %q", r.What(), a.Metadata.UID)
	}
	return p.unchanged(ctx, a)
}
