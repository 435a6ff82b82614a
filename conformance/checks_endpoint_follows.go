package conformance

import (
	"context"
	"fmt"
	"net/http"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
)

// reweighted is a deployment spec weighting only the version named v, with the
// whole of the weights the spec held. ok is false when the Form has no weighted
// list or the spec weights nothing; bad says what is missing when the spec (as
// the host answered it) has entries that are not objects or lack their
// reference: a lying host fails the check, it does not break the runner.
func reweighted(d *catalog.Form, spec map[string]any, v string) (out map[string]any, ok bool, bad error) {
	fl, ok := weightedList(d)
	if !ok {
		return nil, false, nil
	}
	list, _ := spec[fl.Wire].([]any)
	if len(list) == 0 {
		return nil, false, nil
	}
	first, isObject := list[0].(map[string]any)
	if !isObject {
		return nil, false, fmt.Errorf("/%s/0 is %s, not an object", fl.Wire, snippet(mustJSON(list[0])))
	}
	entry := cloneSpec(first)
	total := 0.0
	for _, e := range list {
		em, _ := e.(map[string]any)
		for _, m := range fl.Members {
			if w, ok := em[m.Wire].(float64); ok && m.Kind == catalog.FieldInteger {
				total += w
			}
		}
	}
	for _, m := range fl.Members {
		switch m.Kind {
		case catalog.FieldInteger:
			entry[m.Wire] = total
		case catalog.FieldReference:
			r, isObject := entry[m.Wire].(map[string]any)
			if !isObject {
				return nil, false, fmt.Errorf("/%s/0 has no reference object /%s", fl.Wire, m.Wire)
			}
			ref := cloneSpec(r)
			ref["name"] = v
			entry[m.Wire] = ref
		}
	}
	out = cloneSpec(spec)
	out[fl.Wire] = []any{entry}
	return out, true, nil
}

// madeOf returns the world's resource of the first Form that fits, and its Form.
func (p *Probe) madeOf(fits func(*catalog.Form) bool) (*Resource, *catalog.Form) {
	for _, made := range sorted(p.world.made) {
		if f, ok := p.Cat.Form(made.Ref()); ok && fits(f) {
			return made, f
		}
	}
	return nil, nil
}

func checkEndpointFollowsActiveDeployment(ctx context.Context, p *Probe) error {
	e, err := p.pickForm("an attachment of a worker with outputs", func(f *catalog.Form) bool { return endpointForm(f) && p.workerAttachment(f) })
	if err != nil {
		return err
	}
	rt, err := p.runtimeContract()
	if err != nil {
		return err
	}
	values, _ := p.revisionEnum()
	var served, refused []string
	for _, v := range values {
		p.world = &world{made: map[string]*Resource{}, onlyEnum: v}
		spec, err := p.specFor(ctx, e)
		if err != nil {
			return err
		}
		r, err := p.apply(ctx, p.P, e.Ref, p.Name(slugPrefix(e)), spec, "")
		if err != nil {
			return err
		}
		switch {
		case r.Status < 300:
			served = append(served, v)
		case expectCode(r, wire.CodeUnsupportedCapability) == nil:
			refused = append(refused, v)
		default:
			return failf("%s: %s with a version declaring only %q answered %s, expected it created or refused %d %s",
				r.What(), e.Ref.Kind, v, r.Got(), wire.CodeUnsupportedCapability.Status(), wire.CodeUnsupportedCapability)
		}
	}
	if len(served) == 0 || len(refused) == 0 {
		return notApplicable("%s was served for %q and refused for %q; the check needs a handler it invokes and one it does not", e.Ref.Kind, served, refused)
	}
	h, o := served[0], refused[0]
	p.world = &world{made: map[string]*Resource{}, onlyEnum: o}
	spec, err := p.specFor(ctx, e)
	if err != nil {
		return err
	}
	dep, d := p.madeOf(func(f *catalog.Form) bool { return f.Role == "deployment" })
	ver, _ := p.madeOf(func(f *catalog.Form) bool { return f == rt.version })
	if dep == nil || ver == nil {
		return notApplicable("%s's world holds no deployment weighting a %s", e.Ref.Kind, rt.version.Ref.Kind)
	}
	version := func(handler string) (*Resource, error) {
		var vs map[string]any
		_ = jsonUnmarshal(ver.Spec, &vs)
		vs[rt.handlers.Wire] = []any{handler}
		return p.create(ctx, rt.version, p.Name(slugPrefix(rt.version)), vs)
	}
	promote := func(to *Resource) (*Resp, error) {
		var ds map[string]any
		_ = jsonUnmarshal(dep.Spec, &ds)
		next, ok, bad := reweighted(d, ds, to.Metadata.Name)
		if bad != nil {
			return nil, failf("PUT %s: the spec the host answered for %s %q is not one it was given: %v", ResourcePath(dep.Ref(), dep.Metadata.Name), d.Ref.Kind, dep.Metadata.Name, bad)
		}
		if !ok {
			return nil, notApplicable("%s has no weighted list to promote a version in", d.Ref.Kind)
		}
		cur, err := p.readResource(ctx, dep.Ref(), dep.Metadata.Name)
		if err != nil {
			return nil, err
		}
		return p.apply(ctx, p.P, dep.Ref(), dep.Metadata.Name, next, cur.Metadata.Generation)
	}
	stored, err := version(h)
	if err != nil {
		return err
	}
	name := p.Name(slugPrefix(e))
	r, err := p.apply(ctx, p.P, e.Ref, name, spec, "")
	if err != nil {
		return err
	}
	if err := expectCode(r, wire.CodeUnsupportedCapability); err != nil {
		return failf("%s (%s admitted against a stored version declaring %q that the active deployment does not weight)", err, e.Ref.Kind, h)
	}
	if err := p.notCreated(ctx, e.Ref, name, "an endpoint its worker's active deployment does not serve"); err != nil {
		return err
	}
	if r, err := promote(stored); err != nil {
		return err
	} else if _, err := p.settle(ctx, p.P, r, http.StatusOK); err != nil {
		return err
	}
	ep, err := p.create(ctx, e, name, spec)
	if err != nil {
		return failf("%v (once the active deployment weights a version declaring %q the endpoint is served)", err, h)
	}
	next, err := version(h)
	if err != nil {
		return err
	}
	if r, err := promote(next); err != nil {
		return err
	} else if _, err := p.settle(ctx, p.P, r, http.StatusOK); err != nil {
		return err
	}
	now, err := p.readResource(ctx, e.Ref, name)
	if err != nil {
		return err
	}
	if now.Metadata.UID != ep.Metadata.UID || now.Metadata.Generation != ep.Metadata.Generation || string(now.Status.Outputs) != string(ep.Status.Outputs) {
		return failf("GET %s: a promotion must move what answers without the endpoint changing; uid %s→%s, generation %s→%s, outputs %s→%s",
			ResourcePath(e.Ref, name), ep.Metadata.UID, now.Metadata.UID, ep.Metadata.Generation, now.Metadata.Generation, snippet(ep.Status.Outputs), snippet(now.Status.Outputs))
	}
	r, err = promote(ver)
	if err != nil {
		return err
	}
	if err := expectCode(r, wire.CodeUnsupportedCapability); err != nil {
		return failf("%s (%s)", err, fmt.Sprintf("promoting a version declaring only %q while the endpoint lives", o))
	}
	return nil
}
