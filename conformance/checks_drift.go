package conformance

import (
	"context"
	"net/http"
	"slices"
	"strings"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
)

// pinned builds a resource with a plain (non-binding) reference and returns it
// with the world resource that reference resolved to.
func (p *Probe) pinned(ctx context.Context, nonRevision bool) (*builtResource, *Resource, catalog.Relation, error) {
	b, err := p.build(ctx, "with a reference to a resource no deployment weighs", func(f *catalog.Form) bool {
		return (!nonRevision || f.Role != "revision") && slices.ContainsFunc(f.Relations, p.freeRelation)
	})
	if err != nil {
		return nil, nil, catalog.Relation{}, err
	}
	for _, rel := range b.f.Relations {
		if !p.freeRelation(rel) || len(refNodes(b.spec, strings.Split(strings.TrimPrefix(rel.Pointer, "/"), "/"))) == 0 {
			continue
		}
		if tf, err := p.targetForm(rel); err == nil {
			if t := p.world.made[tf.Ref.APIVersion+"/"+tf.Ref.Kind]; t != nil {
				return b, t, rel, nil
			}
		}
	}
	return nil, nil, catalog.Relation{}, notApplicable("no reference of %s resolved to a resource the runner made", b.f.Ref)
}

func readyOf(r *Resource) Condition {
	for _, c := range r.Status.Conditions {
		if c.Type == wire.ConditionReady {
			return c
		}
	}
	return Condition{}
}

func checkRelationTargetMissing(ctx context.Context, p *Probe) error {
	f, err := p.pickForm("with a required reference", func(f *catalog.Form) bool {
		return slices.ContainsFunc(f.Relations, func(r catalog.Relation) bool { return r.Binding == nil })
	})
	if err != nil {
		return err
	}
	spec, err := p.specFor(ctx, f)
	if err != nil {
		return err
	}
	for _, rel := range f.Relations {
		toks := strings.Split(strings.TrimPrefix(rel.Pointer, "/"), "/")
		if rel.Binding != nil || len(toks) != 1 {
			continue
		}
		node, ok := spec[toks[0]].(map[string]any)
		if !ok {
			continue
		}
		bad := cloneSpec(spec)
		bad[toks[0]].(map[string]any)["name"] = p.Name("absent")
		name := p.Name(slugPrefix(f))
		r, err := p.apply(ctx, p.P, f.Ref, name, bad, "")
		if err != nil {
			return err
		}
		if err := expectCode(r, wire.CodeResourceNotFound); err != nil {
			return failf("%s (a %s reference at %s to a name that does not exist)", err, node["kind"], rel.Pointer)
		}
		if !strings.Contains(r.Err.Message, rel.Pointer) {
			return failf("%s: the refusal must name the pointer %s, got %q", r.What(), rel.Pointer, r.Err.Message)
		}
		return p.notCreated(ctx, f.Ref, name, "a reference to a missing target")
	}
	return notApplicable("%s has no top-level reference to point elsewhere", f.Ref)
}

// drift removes the target out of band, then re-creates its name, reading the
// source after each step; it returns the source as last read.
func (p *Probe) drift(ctx context.Context, b *builtResource, t *Resource) (*Resource, error) {
	r, err := p.del(ctx, p.P, t.Ref(), t.Metadata.Name, t.Metadata.Generation, map[string]string{ProbeHeader: "external-change"})
	if err != nil {
		return nil, err
	}
	if err := p.deleteSucceeded(ctx, r); err != nil {
		return nil, err
	}
	src, err := p.readResource(ctx, b.f.Ref, b.res.Metadata.Name)
	if err != nil {
		return nil, err
	}
	ready := readyOf(src)
	if ready.Status != wire.StatusFalse || ready.Reason != wire.ReasonDependencyMissing || src.Metadata.Generation != b.res.Metadata.Generation || src.Metadata.Revision == b.res.Metadata.Revision {
		return nil, failf("GET %s: after its %s target was removed expected Ready=False/DependencyMissing, a new revision and the same generation; got Ready=%s/%s revision %s generation %s", ResourcePath(b.f.Ref, b.res.Metadata.Name), t.Kind, ready.Status, ready.Reason, src.Metadata.Revision, src.Metadata.Generation)
	}
	tf, _ := p.Cat.Form(t.Ref())
	spec, err := p.specFor(ctx, tf)
	if err != nil {
		return nil, err
	}
	again, err := p.create(ctx, tf, t.Metadata.Name, spec)
	if err != nil {
		return nil, err
	}
	src, err = p.readResource(ctx, b.f.Ref, b.res.Metadata.Name)
	if err != nil {
		return nil, err
	}
	ready = readyOf(src)
	if ready.Status != wire.StatusFalse || ready.Reason != wire.ReasonExternalChange || !strings.Contains(ready.Message, again.Metadata.UID) {
		return nil, failf("GET %s: after its %s target was re-created as uid %s expected Ready=False/ExternalChange naming the new uid; got Ready=%s/%s %q", ResourcePath(b.f.Ref, b.res.Metadata.Name), t.Kind, again.Metadata.UID, ready.Status, ready.Reason, ready.Message)
	}
	return src, nil
}

func checkRelationIncarnationChange(ctx context.Context, p *Probe) error {
	b, t, _, err := p.pinned(ctx, false)
	if err != nil {
		return err
	}
	_, err = p.drift(ctx, b, t)
	return err
}

func checkRelationReapplyRepins(ctx context.Context, p *Probe) error {
	b, t, _, err := p.pinned(ctx, true)
	if err != nil {
		return err
	}
	src, err := p.drift(ctx, b, t)
	if err != nil {
		return err
	}
	r, err := p.apply(ctx, p.P, b.f.Ref, b.res.Metadata.Name, b.spec, src.Metadata.Generation)
	if err != nil {
		return err
	}
	healed, err := p.settle(ctx, p.P, r, http.StatusOK)
	if err != nil {
		return err
	}
	if readyOf(healed).Status != "True" || healed.Metadata.Revision != nextDecimal(src.Metadata.Revision) || healed.Metadata.Generation != src.Metadata.Generation {
		return failf("%s: a spec-identical re-apply must re-pin (Ready=True), move the revision once and keep the generation; got Ready=%s revision %s→%s generation %s", r.What(), readyOf(healed).Status, src.Metadata.Revision, healed.Metadata.Revision, healed.Metadata.Generation)
	}
	r, err = p.apply(ctx, p.P, b.f.Ref, b.res.Metadata.Name, b.spec, healed.Metadata.Generation)
	if err != nil {
		return err
	}
	same, err := p.settle(ctx, p.P, r, http.StatusOK)
	if err != nil {
		return err
	}
	if same.Metadata.Revision != healed.Metadata.Revision {
		return failf("%s: a second identical re-apply moved the revision %s→%s", r.What(), healed.Metadata.Revision, same.Metadata.Revision)
	}
	return nil
}

// freeRelation is a plain reference whose target kind no deployment-role Form
// refers to: replacing such a target out of band drifts its sources without
// taking the aggregate (a worker's active deployment) down with it.
func (p *Probe) freeRelation(rel catalog.Relation) bool {
	if rel.Binding != nil {
		return false
	}
	for _, f := range p.S.Forms {
		if f.Role != "deployment" {
			continue
		}
		for _, r := range f.Relations {
			if r.TargetAPIVersion == rel.TargetAPIVersion && r.TargetKind == rel.TargetKind {
				return false
			}
		}
	}
	return true
}
