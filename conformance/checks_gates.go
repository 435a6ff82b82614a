package conformance

import (
	"context"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
)

// revisionEnum returns the closed string-set enum a revision Form declares (the
// handlers a version offers), from the Form a deployment weighs.
func (p *Probe) revisionEnum() (values []string, narrowed bool) {
	for _, f := range p.S.Forms {
		if f.Role != "revision" {
			continue
		}
		for _, fl := range f.Fields {
			if fl.Kind == catalog.FieldStringSet && len(fl.Enum) > 1 && fl.Required {
				if prof := p.profile(f); prof != nil {
					if allowed, ok := prof.SupportedEnums[fl.Wire]; ok {
						return allowed, len(allowed) < len(fl.Enum)
					}
				}
				return fl.Enum, false
			}
		}
	}
	return nil, false
}

func checkHandlerGatedAttachments(ctx context.Context, p *Probe) error {
	if _, err := p.deploymentForm(); err != nil {
		return err
	}
	values, narrowed := p.revisionEnum()
	if len(values) < 2 {
		return notApplicable("no revision Form offers two handlers to gate attachments by")
	}
	measured := 0
	for _, f := range p.S.Forms {
		if !p.workerAttachment(f) || len(f.Fixtures) == 0 || !p.S.Offers(f, "create") {
			continue
		}
		var served, refused []string
		for _, v := range values {
			p.world = &world{made: map[string]*Resource{}, onlyEnum: v}
			spec, err := p.specFor(ctx, f)
			if err != nil {
				return err
			}
			r, err := p.apply(ctx, p.P, f.Ref, p.Name(slugPrefix(f)), spec, "")
			if err != nil {
				return err
			}
			switch {
			case r.Status < 300:
				served = append(served, v)
			case r.Code() == wire.CodeUnsupportedCapability:
				refused = append(refused, v)
			default:
				return failf("%s: an attachment whose worker's versions declare only %q must be created or refused unsupported_capability; got %s", r.What(), v, r.Got())
			}
		}
		// A host that narrows the handlers may serve an attachment with none of them.
		if len(refused) == 0 || (len(served) == 0 && !narrowed) {
			return failf("%s: with versions declaring one handler at a time it was created for %q and refused for %q; an attachment invokes one handler, so it must be served by some and refused for the others", f.Ref.Kind, served, refused)
		}
		measured++
	}
	if measured == 0 {
		return notApplicable("the host installs no attachment-role Form")
	}
	return nil
}

func checkDeploymentChangePreservesDependents(ctx context.Context, p *Probe) error {
	a, err := p.build(ctx, "an attachment of a worker", p.workerAttachment)
	if err != nil {
		return err
	}
	var dep *Resource
	var vrel catalog.Relation
	for _, made := range sorted(p.world.made) {
		if f, ok := p.Cat.Form(made.Ref()); ok && f.Role == "deployment" {
			dep = made
			for _, rel := range f.Relations {
				if len(splitPointer(rel.Pointer)) == 3 {
					vrel = rel
				}
			}
		}
	}
	if dep == nil || vrel.Pointer == "" {
		return notApplicable("%s needed no deployment weighing versions", a.f.Ref)
	}
	vf, err := p.targetForm(vrel)
	if err != nil {
		return err
	}
	values, _ := p.revisionEnum()
	var served, refused []string
	for _, v := range values {
		p.world.onlyEnum = v
		ver, err := p.makeFresh(ctx, vf)
		if err != nil {
			return err
		}
		now, err := p.readResource(ctx, dep.Ref(), dep.Metadata.Name)
		if err != nil {
			return err
		}
		spec := cloneSpec(map[string]any{})
		_ = jsonUnmarshal(now.Spec, &spec)
		for _, node := range refNodes(spec, splitPointer(vrel.Pointer)) {
			node["name"] = ver.Metadata.Name
		}
		r, err := p.apply(ctx, p.P, dep.Ref(), dep.Metadata.Name, spec, now.Metadata.Generation)
		if err != nil {
			return err
		}
		switch {
		case r.Status < 300:
			served = append(served, v)
		case r.Code() == wire.CodeUnsupportedCapability:
			refused = append(refused, v)
		default:
			return failf("%s: re-weighting to a version declaring only %q must be accepted or refused unsupported_capability; got %s", r.What(), v, r.Got())
		}
	}
	if len(refused) == 0 || len(served) == 0 {
		return failf("%s %q: re-weighting its deployment to one-handler versions was accepted for %q and refused for %q; the change that keeps %s served must be accepted and the others refused", a.f.Ref.Kind, a.res.Metadata.Name, served, refused, a.res.Metadata.Name)
	}
	_, err = p.readResource(ctx, a.f.Ref, a.res.Metadata.Name)
	return err
}

func checkDeploymentDeleteBlockedByInboundBinding(ctx context.Context, p *Probe) error {
	d, err := p.deploymentForm()
	if err != nil {
		return err
	}
	dep, err := p.buildOf(ctx, d)
	if err != nil {
		return err
	}
	var worker *Resource
	for _, rel := range d.Relations {
		if len(splitPointer(rel.Pointer)) == 1 {
			if tf, err := p.targetForm(rel); err == nil {
				worker = p.world.made[tf.Ref.APIVersion+"/"+tf.Ref.Kind]
			}
		}
	}
	if worker == nil {
		return notApplicable("%s refers to no resource the runner made", d.Ref)
	}
	for _, f := range p.S.Forms {
		for _, rel := range f.Relations {
			if rel.Binding == nil || !p.S.Bindings[rel.Binding.Name+"@"+rel.Binding.Version] ||
				rel.TargetKind != worker.Kind || rel.TargetAPIVersion != worker.APIVersion {
				continue
			}
			spec, err := p.specFor(ctx, f)
			if err != nil {
				return err
			}
			caller, err := p.create(ctx, f, p.Name(slugPrefix(f)), withBinding(spec, rel, "CONFORMANCE_INBOUND", worker.Metadata.Name))
			if err != nil {
				return err
			}
			r, err := p.del(ctx, p.P, dep.res.Ref(), dep.res.Metadata.Name, dep.res.Metadata.Generation, nil)
			if err != nil {
				return err
			}
			if err := expectCode(r, wire.CodeDependencyInUse); err != nil {
				return failf("%s (delete of the deployment serving %s %q, which %s %q binds to)", err, worker.Kind, worker.Metadata.Name, caller.Kind, caller.Metadata.Name)
			}
			return nil
		}
	}
	return notApplicable("no installed Form binds to a %s through a binding the host implements", worker.Kind)
}
