package conformance

import (
	"bytes"
	"context"
	"maps"
	"net/http"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
)

// keyedCreate prepares and sends one create, returning the exact request so it
// can be resent, its first answer, and the resource once settled (a 202 is awaited).
func (p *Probe) keyedCreate(ctx context.Context, prefix string) (*catalog.Form, Req, *Resp, *Resource, error) {
	f, err := p.simpleForm()
	if err != nil {
		return nil, Req{}, nil, nil, err
	}
	spec, err := p.specFor(ctx, f)
	if err != nil {
		return nil, Req{}, nil, nil, err
	}
	name := p.Name(prefix)
	digest, err := p.prepared(ctx, p.P, f.Ref, name, spec, "")
	if err != nil {
		return nil, Req{}, nil, nil, err
	}
	req := p.applyReq(f.Ref, name, spec, digest, "")
	r, err := p.P.Do(ctx, req)
	if err != nil {
		return nil, Req{}, nil, nil, err
	}
	res, err := p.settle(ctx, p.P, r, http.StatusCreated)
	if err != nil {
		return nil, Req{}, nil, nil, err
	}
	return f, req, r, res, nil
}

// sameAnswer fails unless b replays a byte for byte (status, ETag, body).
func sameAnswer(a, b *Resp) error {
	if a.Status != b.Status || a.Header.Get(wire.HeaderETag) != b.Header.Get(wire.HeaderETag) || !bytes.Equal(a.Body, b.Body) {
		return failf("%s: the resend with the same key and bytes answered %d ETag %q %s; expected the recorded %d ETag %q byte for byte",
			b.What(), b.Status, b.Header.Get(wire.HeaderETag), snippet(b.Body), a.Status, a.Header.Get(wire.HeaderETag))
	}
	return nil
}

func checkIdempotencyReplay(ctx context.Context, p *Probe) error {
	f, req, first, res, err := p.keyedCreate(ctx, "replay")
	if err != nil {
		return err
	}
	again, err := p.P.Do(ctx, req)
	if err != nil {
		return err
	}
	if err := sameAnswer(first, again); err != nil {
		return err
	}
	// The store moves; the replay does not.
	if err := p.moveStore(ctx, f.Ref, res.Metadata.Name); err != nil {
		return err
	}
	later, err := p.P.Do(ctx, req)
	if err != nil {
		return err
	}
	if err := sameAnswer(first, later); err != nil {
		return err
	}
	reused := req
	reused.Body = append(bytes.Clone(req.Body), ' ', '\n')
	r, err := p.P.Do(ctx, reused)
	if err != nil {
		return err
	}
	if err := expectCode(r, wire.CodeInvalidArgument); err != nil {
		return failf("%s (the same Idempotency-Key with other body bytes)", err)
	}
	// The precondition headers belong to the fingerprint: the same key and
	// bytes with an If-Match beside them are another request.
	fenced := req
	fenced.Header = maps.Clone(req.Header)
	fenced.Header[wire.HeaderIfMatch] = `"1"`
	if r, err = p.P.Do(ctx, fenced); err != nil {
		return err
	}
	if err := expectCode(r, wire.CodeInvalidArgument); err != nil {
		return failf("%s (the same Idempotency-Key and bytes with If-Match added: the precondition headers belong to the request's fingerprint)", err)
	}
	return nil
}

func checkReplayRetires(ctx context.Context, p *Probe) error {
	f, req, _, a, err := p.keyedCreate(ctx, "retire")
	if err != nil {
		return err
	}
	if err := p.deleted(ctx, a); err != nil {
		return err
	}
	r, err := p.P.Do(ctx, req)
	if err != nil {
		return err
	}
	b, err := p.settle(ctx, p.P, r, http.StatusCreated)
	if err != nil {
		return failf("%v (the record retired with the deleted uid, so the resend runs as a new create)", err)
	}
	if b.Metadata.UID == a.Metadata.UID {
		return failf("%s: the resend after delete replayed the retired answer (uid %s) instead of creating a new incarnation", r.What(), a.Metadata.UID)
	}
	_, err = p.readResource(ctx, f.Ref, a.Metadata.Name)
	return err
}

func checkCrossPrincipalIdempotency(ctx context.Context, p *Probe) error {
	_, req, first, _, err := p.keyedCreate(ctx, "xprin")
	if err != nil {
		return err
	}
	r, err := p.Alt.Do(ctx, req)
	if err != nil {
		return err
	}
	if bytes.Equal(r.Body, first.Body) {
		return failf("%s: another principal of the tenant received the first principal's recorded answer", r.What())
	}
	if err := expectCode(r, wire.CodeGenerationConflict); err != nil {
		return failf("%s (another principal's resend of the same key runs fresh and meets the existing name)", err)
	}
	return nil
}

func checkIdempotencyTenantScoped(ctx context.Context, p *Probe) error {
	f, req, first, res, err := p.keyedCreate(ctx, "xten")
	if err != nil {
		return err
	}
	r, err := p.Other.Do(ctx, req)
	if err != nil {
		return err
	}
	if bytes.Equal(r.Body, first.Body) || r.Status == http.StatusCreated {
		return failf("%s: another tenant received the recorded answer or created with a foreign prepareDigest: %s", r.What(), r.Got())
	}
	if err := expectCode(r, wire.CodeInvalidArgument); err != nil {
		return failf("%s (another tenant resending the bytes carries a foreign prepareDigest)", err)
	}
	spec, err := p.specFor(ctx, f)
	if err != nil {
		return err
	}
	r, err = p.apply(ctx, p.Other, f.Ref, res.Metadata.Name, spec, "")
	if err != nil {
		return err
	}
	theirs, err := p.settle(ctx, p.Other, r, http.StatusCreated)
	if err != nil {
		return failf("%v (the other tenant creates the same name in its own plane)", err)
	}
	if theirs.Metadata.UID == res.Metadata.UID {
		return failf("%s: the other tenant's resource has the first tenant's uid", r.What())
	}
	return nil
}
