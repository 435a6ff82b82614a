package conformance

// Operations that commit later than they were accepted: unrelated concurrent mutations and
// the revalidation a 202 commit owes.

import (
	"context"
	"fmt"
	"net/http"

	"github.com/takokit/takokit/catalog/wire"
)

func checkConcurrentUnrelated(ctx context.Context, p *Probe) error {
	f, spec, err := p.pickSpec(ctx, p.simpleForm)
	if err != nil {
		return err
	}
	const n = 8
	names := make([]string, n)
	for i := range names {
		names[i] = p.Name("conc")
	}
	uids := make([]string, n)
	errs := inParallel(n, func(i int) error {
		res, err := p.create(ctx, f, names[i], spec)
		if err == nil {
			uids[i] = res.Metadata.UID
		}
		return err
	})
	seen := map[string]bool{}
	for i, err := range errs {
		if err != nil {
			return fmt.Errorf("concurrent create %d of %d: %w", i+1, n, err)
		}
		if seen[uids[i]] {
			return failf("PUT %s: two concurrent creates got the same uid %q", ResourcePath(f.Ref, names[i]), uids[i])
		}
		seen[uids[i]] = true
	}
	for _, name := range names {
		if _, err := p.readResource(ctx, f.Ref, name); err != nil {
			return err
		}
	}
	return nil
}

func checkAsyncCommitRevalidates(ctx context.Context, p *Probe) error {
	b, err := p.build(ctx, "updatable with a mutable field", p.updatable)
	if err != nil {
		return err
	}
	alt, _, err := p.changed(b)
	if err != nil {
		return err
	}
	name, ref := b.res.Metadata.Name, b.f.Ref
	digest, err := p.prepared(ctx, p.P, ref, name, alt, "1")
	if err != nil {
		return err
	}
	req := p.applyReq(ref, name, alt, digest, "1")
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
	moved, err := p.update(ctx, b.res, alt)
	if err != nil {
		return err
	}
	pr, done, err := p.settleOp(ctx, p.P, op.ID)
	if err != nil {
		return err
	}
	if done.Error == nil || done.Error.Code != wire.CodeGenerationConflict {
		return failf("%s: an update accepted at generation 1, committing after the resource moved to generation %s, must end with generation_conflict; got %s", pr.What(), moved.Metadata.Generation, snippet(pr.Body))
	}
	return p.unchanged(ctx, moved)
}
