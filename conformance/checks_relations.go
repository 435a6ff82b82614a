package conformance

import (
	"context"
	"net/http"
	"slices"
	"strings"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
)

// bindingRelation finds an installed Form with a binding relation whose binding the
// host implements and whose target Form it installs.
func (p *Probe) bindingRelation(implemented bool) (*catalog.Form, catalog.Relation, *catalog.Form, error) {
	for _, f := range p.S.Forms {
		if !p.S.Offers(f, "create", "read", "delete") || len(f.Fixtures) == 0 {
			continue
		}
		for _, rel := range f.Relations {
			if rel.Binding == nil || p.S.Bindings[rel.Binding.Name+"@"+rel.Binding.Version] != implemented {
				continue
			}
			if tf, err := p.targetForm(rel); err == nil {
				return f, rel, tf, nil
			}
		}
	}
	state := "implements"
	if !implemented {
		state = "does not implement"
	}
	why := p.unbuildable(func(f *catalog.Form) bool {
		for _, rel := range f.Relations {
			if rel.Binding != nil && p.S.Bindings[rel.Binding.Name+"@"+rel.Binding.Version] == implemented {
				if _, err := p.targetForm(rel); err == nil {
					return true
				}
			}
		}
		return false
	})
	if why != "" {
		return nil, catalog.Relation{}, nil, notApplicable("no installed Form that accepts a binding the host %s with an installed target can be built here: %s", state, why)
	}
	return nil, catalog.Relation{}, nil, notApplicable("no installed Form accepts a binding the host %s with an installed target", state)
}

// withBinding returns spec plus one entry of rel's binding list naming target.
func withBinding(spec map[string]any, rel catalog.Relation, entry, target string) map[string]any {
	toks := strings.Split(strings.TrimPrefix(rel.Pointer, "/"), "/")
	field, member := toks[0], toks[len(toks)-1]
	c := cloneSpec(spec)
	list, _ := c[field].([]any)
	c[field] = append(list, map[string]any{"name": entry,
		member: map[string]any{"apiVersion": rel.TargetAPIVersion, "kind": rel.TargetKind, "name": target}})
	return c
}

func checkBindingTargetMissing(ctx context.Context, p *Probe) error {
	f, rel, _, err := p.bindingRelation(true)
	if err != nil {
		return err
	}
	spec, err := p.specFor(ctx, f)
	if err != nil {
		return err
	}
	name := p.Name(slugPrefix(f))
	bad := withBinding(spec, rel, "CONFORMANCE_MISSING", p.Name("absent"))
	r, err := p.apply(ctx, p.P, f.Ref, name, bad, "")
	if err != nil {
		return err
	}
	if err := expectCode(r, wire.CodeResourceNotFound); err != nil {
		return failf("%s (a binding to a target that does not exist)", err)
	}
	field := strings.Split(strings.TrimPrefix(rel.Pointer, "/"), "/")[0]
	if !strings.Contains(r.Err.Message, "/"+field) {
		return failf("%s: the refusal must name the pointer under /%s, got %q", r.What(), field, r.Err.Message)
	}
	return p.notCreated(ctx, f.Ref, name, "a binding to a missing target")
}

func checkDependencyInUseOnBoundTarget(ctx context.Context, p *Probe) error {
	f, rel, tf, err := p.bindingRelation(true)
	if err != nil {
		return err
	}
	spec, err := p.specFor(ctx, f)
	if err != nil {
		return err
	}
	target, err := p.makeFresh(ctx, tf)
	if err != nil {
		return err
	}
	src, err := p.create(ctx, f, p.Name(slugPrefix(f)), withBinding(spec, rel, "CONFORMANCE_BOUND", target.Metadata.Name))
	if err != nil {
		return err
	}
	r, err := p.del(ctx, p.P, target.Ref(), target.Metadata.Name, target.Metadata.Generation, nil)
	if err != nil {
		return err
	}
	if err := expectCode(r, wire.CodeDependencyInUse); err != nil {
		return failf("%s (delete of a binding target %s %q holds)", err, src.Kind, src.Metadata.Name)
	}
	if !strings.Contains(r.Err.Message, src.Metadata.Name) {
		return failf("%s: the refusal must name the holder %q, got %q", r.What(), src.Metadata.Name, r.Err.Message)
	}
	_, err = p.readResource(ctx, target.Ref(), target.Metadata.Name)
	return err
}

func checkRelationTargetDeletionBlocked(ctx context.Context, p *Probe) error {
	b, err := p.build(ctx, "with a reference to another resource", func(f *catalog.Form) bool {
		return slices.ContainsFunc(f.Relations, func(r catalog.Relation) bool { return r.Binding == nil })
	})
	if err != nil {
		return err
	}
	for _, rel := range b.f.Relations {
		if rel.Binding != nil {
			continue
		}
		tf, err := p.targetForm(rel)
		if err != nil {
			continue
		}
		t := p.world.made[tf.Ref.APIVersion+"/"+tf.Ref.Kind]
		if t == nil {
			continue
		}
		r, err := p.del(ctx, p.P, t.Ref(), t.Metadata.Name, t.Metadata.Generation, nil)
		if err != nil {
			return err
		}
		if err := expectCode(r, wire.CodeDependencyInUse); err != nil {
			return failf("%s (delete of the %s that %s %q refers to at %s)", err, t.Kind, b.f.Ref.Kind, b.res.Metadata.Name, rel.Pointer)
		}
		_, err = p.readResource(ctx, t.Ref(), t.Metadata.Name)
		return err
	}
	return notApplicable("no reference of %s resolved to a resource the runner made", b.f.Ref)
}

func checkBindingContract(ctx context.Context, p *Probe) error {
	f, rel, tf, err := p.bindingRelation(true)
	if err != nil {
		return err
	}
	spec, err := p.specFor(ctx, f)
	if err != nil {
		return err
	}
	target, err := p.makeFresh(ctx, tf)
	if err != nil {
		return err
	}
	bad := withBinding(spec, rel, "1-not-a-binding-name", target.Metadata.Name)
	r, _, err := p.prepare(ctx, p.P, f.Ref, p.Name("badname"), bad, "")
	if err != nil {
		return err
	}
	if err := expectCode(r, wire.CodeInvalidArgument); err != nil {
		return failf("%s (a binding entry name outside the binding's name grammar)", err)
	}
	if _, err := p.create(ctx, f, p.Name(slugPrefix(f)), withBinding(spec, rel, "CONFORMANCE_OK", target.Metadata.Name)); err != nil {
		return failf("%v (a binding to a target of the allowed kind providing the contract is accepted)", err)
	}
	if g, grel, gtf, err := p.bindingRelation(false); err == nil {
		if _, ok := p.S.Installed(gtf.Ref); ok {
			gspec, err := p.specFor(ctx, g)
			if err != nil {
				return err
			}
			gt, err := p.makeFresh(ctx, gtf)
			if err != nil {
				return err
			}
			r, err := p.apply(ctx, p.P, g.Ref, p.Name("unimpl"), withBinding(gspec, grel, "CONFORMANCE_UNIMPL", gt.Metadata.Name), "")
			if err != nil {
				return err
			}
			if err := expectCode(r, wire.CodeUnsupportedCapability); err != nil {
				return failf("%s (a binding %s the host does not implement)", err, grel.Binding.Name)
			}
		}
	}
	return nil
}

// deploymentForm picks the installed deployment-role Form.
func (p *Probe) deploymentForm() (*catalog.Form, error) {
	return p.pickForm("of the deployment role", func(f *catalog.Form) bool { return f.Role == "deployment" })
}

// halveWeights halves every integer member of every object-list entry.
func halveWeights(f *catalog.Form, spec map[string]any) (map[string]any, bool) {
	c := cloneSpec(spec)
	changed := false
	for _, fl := range f.Fields {
		if fl.Kind != catalog.FieldObjectList {
			continue
		}
		list, _ := c[fl.Wire].([]any)
		for _, e := range list {
			m, _ := e.(map[string]any)
			for _, mem := range fl.Members {
				if v, ok := m[mem.Wire].(float64); ok && mem.Kind == catalog.FieldInteger && v >= 2 {
					m[mem.Wire] = float64(int64(v) / 2)
					changed = true
				}
			}
		}
	}
	return c, changed
}

func checkDeploymentWeightSum(ctx context.Context, p *Probe) error {
	d, err := p.deploymentForm()
	if err != nil {
		return err
	}
	spec, err := p.specFor(ctx, d)
	if err != nil {
		return err
	}
	bad, ok := halveWeights(d, spec)
	if !ok || d.ValidateDesired(bad) != nil {
		return notApplicable("no weighted entry of %s could be changed within its schema", d.Ref)
	}
	name := p.Name(slugPrefix(d))
	r, err := p.apply(ctx, p.P, d.Ref, name, bad, "")
	if err != nil {
		return err
	}
	if err := expectCode(r, wire.CodeInvalidArgument); err != nil {
		return failf("%s (weights that do not sum to the whole)", err)
	}
	if err := p.notCreated(ctx, d.Ref, name, "a refused weight sum"); err != nil {
		return err
	}
	_, err = p.create(ctx, d, name, spec)
	return err
}

func checkDeploymentSingleActive(ctx context.Context, p *Probe) error {
	d, err := p.deploymentForm()
	if err != nil {
		return err
	}
	b, err := p.buildOf(ctx, d)
	if err != nil {
		return err
	}
	second := p.Name(slugPrefix(d))
	r, err := p.apply(ctx, p.P, d.Ref, second, b.spec, "")
	if err != nil {
		return err
	}
	if err := expectCode(r, wire.CodeInvalidArgument); err != nil {
		return failf("%s (a second deployment for the same worker)", err)
	}
	if err := p.notCreated(ctx, d.Ref, second, "a second deployment"); err != nil {
		return err
	}
	r, err = p.apply(ctx, p.P, d.Ref, b.res.Metadata.Name, b.spec, "1")
	if err != nil {
		return err
	}
	_, err = p.settle(ctx, p.P, r, http.StatusOK)
	return err
}

func checkAttachmentRequiresDeployment(ctx context.Context, p *Probe) error {
	if _, err := p.deploymentForm(); err != nil {
		return err
	}
	f, err := p.pickForm("an attachment of a worker", p.workerAttachment)
	if err != nil {
		return err
	}
	p.world = &world{made: map[string]*Resource{}, noDeploy: true}
	spec, err := p.specFor(ctx, f)
	if err != nil {
		return err
	}
	name := p.Name(slugPrefix(f))
	r, err := p.apply(ctx, p.P, f.Ref, name, spec, "")
	if err != nil {
		return err
	}
	if err := expectCode(r, wire.CodeUnsupportedCapability); err != nil {
		return failf("%s (an attachment for a worker without an active deployment)", err)
	}
	return p.notCreated(ctx, f.Ref, name, "an attachment refused for its worker")
}
