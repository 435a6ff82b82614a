package conformance

import (
	"context"
	"net/http"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
)

// endpointForm is an attachment-role Form with declared outputs.
func endpointForm(f *catalog.Form) bool { return f.Role == "attachment" && f.HasOutputs() }

func checkEndpointHostAssigned(ctx context.Context, p *Probe) error {
	a, err := p.build(ctx, "of the attachment role with outputs", endpointForm)
	if err != nil {
		return err
	}
	if msg := outputsProblem(a.f, a.res); msg != "" {
		return failf("PUT %s: %s", ResourcePath(a.f.Ref, a.res.Metadata.Name), msg)
	}
	for _, o := range a.f.Outputs {
		if _, ok := a.f.Field(o.Wire); ok {
			return failf("%s declares %q both as desired field and output", a.f.Ref, o.Wire)
		}
	}
	p.world = nil
	b, err := p.buildOf(ctx, a.f)
	if err != nil {
		return err
	}
	if string(a.res.Status.Outputs) == string(b.res.Status.Outputs) {
		return failf("PUT %s: two endpoints of two workers got the same address %s", ResourcePath(b.f.Ref, b.res.Metadata.Name), snippet(b.res.Status.Outputs))
	}
	return nil
}

func checkEndpointSinglePerWorker(ctx context.Context, p *Probe) error {
	a, err := p.build(ctx, "of the attachment role with outputs", endpointForm)
	if err != nil {
		return err
	}
	second := p.Name(slugPrefix(a.f))
	r, err := p.apply(ctx, p.P, a.f.Ref, second, a.spec, "")
	if err != nil {
		return err
	}
	if err := expectCode(r, wire.CodeInvalidArgument); err != nil {
		return failf("%s (a second endpoint for the same worker)", err)
	}
	return p.notCreated(ctx, a.f.Ref, second, "a second endpoint")
}

func checkEndpointStable(ctx context.Context, p *Probe) error {
	a, err := p.build(ctx, "of the attachment role with outputs", endpointForm)
	if err != nil {
		return err
	}
	want := string(a.res.Status.Outputs)
	same := func(what string, res *Resource) error {
		if string(res.Status.Outputs) != want {
			return failf("%s: the address moved from %s to %s for the same uid", what, want, snippet(res.Status.Outputs))
		}
		return nil
	}
	r, err := p.observe(ctx, p.P, a.f.Ref, a.res.Metadata.Name, "1", nil)
	if err != nil {
		return err
	}
	o, err := observed(r)
	if err != nil {
		return err
	}
	if err := same(r.What(), o); err != nil {
		return err
	}
	r, err = p.apply(ctx, p.P, a.f.Ref, a.res.Metadata.Name, a.spec, "1")
	if err != nil {
		return err
	}
	re, err := p.settle(ctx, p.P, r, http.StatusOK)
	if err != nil {
		return err
	}
	if err := same(r.What(), re); err != nil {
		return err
	}
	for _, made := range sorted(p.world.made) {
		if f, ok := p.Cat.Form(made.Ref()); ok && f.Role == "deployment" {
			spec := map[string]any{}
			_ = jsonUnmarshal(made.Spec, &spec)
			if _, err := p.update(ctx, made, spec); err != nil {
				return err
			}
		}
	}
	now, err := p.readResource(ctx, a.f.Ref, a.res.Metadata.Name)
	if err != nil {
		return err
	}
	return same("GET "+ResourcePath(a.f.Ref, a.res.Metadata.Name), now)
}
