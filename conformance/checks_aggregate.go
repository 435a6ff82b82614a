package conformance

import (
	"context"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
)

// weightedList returns the deployment's object-list field holding references.
func weightedList(d *catalog.Form) (catalog.Field, bool) {
	for _, fl := range d.Fields {
		if fl.Kind != catalog.FieldObjectList {
			continue
		}
		for _, m := range fl.Members {
			if m.Kind == catalog.FieldReference {
				return fl, true
			}
		}
	}
	return catalog.Field{}, false
}

func checkDeploymentVersionDuplicate(ctx context.Context, p *Probe) error {
	d, err := p.deploymentForm()
	if err != nil {
		return err
	}
	fl, ok := weightedList(d)
	if !ok {
		return notApplicable("%s has no weighted list of references", d.Ref)
	}
	spec, err := p.specFor(ctx, d)
	if err != nil {
		return err
	}
	bad := cloneSpec(spec)
	list, _ := bad[fl.Wire].([]any)
	if len(list) == 0 {
		return notApplicable("the canonical %s weights nothing", d.Ref.Kind)
	}
	first := list[0].(map[string]any)
	a, b := cloneSpec(first), cloneSpec(first)
	for _, m := range fl.Members {
		if v, ok := first[m.Wire].(float64); ok && m.Kind == catalog.FieldInteger {
			// Unequal shares of the same whole, so the two entries differ.
			share := float64(int64(v) * 2 / 5)
			a[m.Wire], b[m.Wire] = share, v-share
		}
	}
	bad[fl.Wire] = []any{a, b}
	if d.ValidateDesired(bad) != nil {
		return notApplicable("weighting one version twice does not fit the %s schema", d.Ref.Kind)
	}
	name := p.Name(slugPrefix(d))
	r, err := p.apply(ctx, p.P, d.Ref, name, bad, "")
	if err != nil {
		return err
	}
	if err := expectCode(r, wire.CodeInvalidArgument); err != nil {
		return failf("%s (one version weighted twice)", err)
	}
	return p.notCreated(ctx, d.Ref, name, "a deployment weighting one version twice")
}

func checkDeploymentVersionOwnership(ctx context.Context, p *Probe) error {
	d, err := p.deploymentForm()
	if err != nil {
		return err
	}
	spec, err := p.specFor(ctx, d)
	if err != nil {
		return err
	}
	for _, rel := range d.Relations {
		toks := splitPointer(rel.Pointer)
		if len(toks) != 1 {
			continue
		}
		tf, err := p.targetForm(rel)
		if err != nil {
			return err
		}
		other, err := p.makeFresh(ctx, tf)
		if err != nil {
			return err
		}
		bad := cloneSpec(spec)
		bad[toks[0]].(map[string]any)["name"] = other.Metadata.Name
		name := p.Name(slugPrefix(d))
		r, err := p.apply(ctx, p.P, d.Ref, name, bad, "")
		if err != nil {
			return err
		}
		if err := expectCode(r, wire.CodeInvalidArgument); err != nil {
			return failf("%s (a deployment of %s %q weighting a version of another)", err, other.Kind, other.Metadata.Name)
		}
		return p.notCreated(ctx, d.Ref, name, "a deployment weighting another worker's version")
	}
	return notApplicable("%s has no top-level reference to its worker", d.Ref)
}

func checkBindingNameCollision(ctx context.Context, p *Probe) error {
	f, rel, tf, err := p.bindingRelation(true)
	if err != nil {
		return err
	}
	spec, err := p.specFor(ctx, f)
	if err != nil {
		return err
	}
	var taken string
	for _, fl := range f.Fields {
		if m, ok := spec[fl.Wire].(map[string]any); ok && fl.Kind == catalog.FieldJSONMap {
			for k := range sorted(m) {
				taken = k
			}
		}
	}
	if taken == "" {
		return notApplicable("the canonical %s names no environment entry to collide with", f.Ref.Kind)
	}
	target, err := p.makeFresh(ctx, tf)
	if err != nil {
		return err
	}
	bad := withBinding(spec, rel, taken, target.Metadata.Name)
	if f.ValidateDesired(bad) != nil {
		return notApplicable("the name %q does not fit the binding entry grammar", taken)
	}
	name := p.Name(slugPrefix(f))
	r, err := p.apply(ctx, p.P, f.Ref, name, bad, "")
	if err != nil {
		return err
	}
	if err := expectCode(r, wire.CodeInvalidArgument); err != nil {
		return failf("%s (a binding named like an existing entry %q)", err, taken)
	}
	return p.notCreated(ctx, f.Ref, name, "a colliding binding name")
}

func checkDeploymentDeleteBlocked(ctx context.Context, p *Probe) error {
	a, err := p.build(ctx, "an attachment of a worker", p.workerAttachment)
	if err != nil {
		return err
	}
	for _, made := range sorted(p.world.made) {
		if f, ok := p.Cat.Form(made.Ref()); ok && f.Role == "deployment" {
			r, err := p.del(ctx, p.P, made.Ref(), made.Metadata.Name, made.Metadata.Generation, nil)
			if err != nil {
				return err
			}
			if err := expectCode(r, wire.CodeDependencyInUse); err != nil {
				return failf("%s (delete of the deployment serving %s %q)", err, a.f.Ref.Kind, a.res.Metadata.Name)
			}
			return nil
		}
	}
	return notApplicable("%s needed no deployment", a.f.Ref)
}

func checkDependentRevisionAdvances(ctx context.Context, p *Probe) error {
	d, err := p.deploymentForm()
	if err != nil {
		return err
	}
	spec, err := p.specFor(ctx, d)
	if err != nil {
		return err
	}
	var before []*Resource
	for _, rel := range d.Relations {
		if toks := splitPointer(rel.Pointer); len(toks) == 1 {
			if tf, err := p.targetForm(rel); err == nil {
				if t := p.world.made[tf.Ref.APIVersion+"/"+tf.Ref.Kind]; t != nil {
					now, err := p.readResource(ctx, t.Ref(), t.Metadata.Name)
					if err != nil {
						return err
					}
					before = append(before, now)
				}
			}
		}
	}
	if len(before) == 0 {
		return notApplicable("%s refers to no resource the runner made", d.Ref)
	}
	if _, err := p.create(ctx, d, p.Name(slugPrefix(d)), spec); err != nil {
		return err
	}
	for _, t := range before {
		now, err := p.readResource(ctx, t.Ref(), t.Metadata.Name)
		if err != nil {
			return err
		}
		if now.Metadata.Generation != t.Metadata.Generation || now.Metadata.Revision == t.Metadata.Revision || readyOf(now).Status == readyOf(t).Status {
			return failf("GET %s: creating its deployment must change its derived readiness and revision, never its generation; Ready %s→%s, revision %s→%s, generation %s→%s", ResourcePath(t.Ref(), t.Metadata.Name), readyOf(t).Status, readyOf(now).Status, t.Metadata.Revision, now.Metadata.Revision, t.Metadata.Generation, now.Metadata.Generation)
		}
	}
	return nil
}

func checkHandlerNotExported(ctx context.Context, p *Probe) error {
	af, err := p.artifactForm()
	if err != nil {
		return err
	}
	handlers := p.exportedHandlers(af)
	if len(handlers) < 2 {
		return notApplicable("no Form referring to %s declares two handlers to choose from", af.Ref.Kind)
	}
	src := []byte("// conformance " + p.run + " exports one handler\nexport default { async " + handlers[0] + "() { return undefined; } };\n")
	m := module{Name: "index.js", MediaType: "application/javascript+module", Bytes: src}
	digest, err := p.upload(ctx, p.P, manifestOf(manifestKind(af).Kind, m.Name, m), m)
	if err != nil {
		return err
	}
	bundle, err := p.create(ctx, af, p.Name(slugPrefix(af)), map[string]any{af.Fields[0].Wire: digest})
	if err != nil {
		return err
	}
	for _, f := range p.S.Forms {
		for _, rel := range f.Relations {
			if rel.TargetKind != af.Ref.Kind || len(splitPointer(rel.Pointer)) != 1 {
				continue
			}
			spec, err := p.specFor(ctx, f)
			if err != nil {
				return err
			}
			if !declaresBeyond(f, spec, handlers[0]) {
				return notApplicable("the host lets %s declare no handler beyond %q", f.Ref.Kind, handlers[0])
			}
			spec[splitPointer(rel.Pointer)[0]].(map[string]any)["name"] = bundle.Metadata.Name
			name := p.Name(slugPrefix(f))
			r, err := p.apply(ctx, p.P, f.Ref, name, spec, "")
			if err != nil {
				return err
			}
			if err := expectCode(r, wire.CodeInvalidArgument); err != nil {
				return failf("%s (declaring handlers the bundle's main module does not export)", err)
			}
			return p.notCreated(ctx, f.Ref, name, "a version declaring unexported handlers")
		}
	}
	return notApplicable("no installed Form refers to %s", af.Ref.Kind)
}

func splitPointer(ptr string) []string {
	var out []string
	cur := ""
	for _, c := range ptr[1:] {
		if c == '/' {
			out = append(out, cur)
			cur = ""
			continue
		}
		cur += string(c)
	}
	return append(out, cur)
}

// declaresBeyond reports whether a string-set field of spec holds a value other than v.
func declaresBeyond(f *catalog.Form, spec map[string]any, v string) bool {
	for _, fl := range f.Fields {
		if fl.Kind != catalog.FieldStringSet {
			continue
		}
		list, _ := spec[fl.Wire].([]any)
		for _, x := range list {
			if x != v {
				return true
			}
		}
	}
	return false
}
