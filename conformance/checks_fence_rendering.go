package conformance

// The delete fence holds across derived rendering of the fenced resource.

import (
	"context"
	"slices"
)

func checkDeleteFenceSurvivesRendering(ctx context.Context, p *Probe) error {
	d, err := p.deploymentForm()
	if err != nil {
		return err
	}
	dep, err := p.buildOf(ctx, d)
	if err != nil {
		return err
	}
	var target *Resource
	for _, rel := range d.Relations {
		if len(splitPointer(rel.Pointer)) == 1 {
			if tf, err := p.targetForm(rel); err == nil {
				target = p.world.made[tf.Ref.APIVersion+"/"+tf.Ref.Kind]
			}
		}
	}
	if target == nil {
		return notApplicable("%s refers to no resource the runner made", d.Ref)
	}
	if err := p.deleted(ctx, dep.res); err != nil {
		return err
	}
	at := slices.Index(p.world.order, target)
	for i := len(p.world.order) - 1; i > at; i-- {
		if err := p.deleted(ctx, p.world.order[i]); err != nil {
			return err
		}
	}
	now, err := p.readResource(ctx, target.Ref(), target.Metadata.Name)
	if err != nil {
		return err
	}
	if now.Metadata.Revision == target.Metadata.Revision {
		return notApplicable("deploying and removing %s %q moved nothing of its rendering", target.Kind, target.Metadata.Name)
	}
	r, err := p.del(ctx, p.P, target.Ref(), target.Metadata.Name, now.Metadata.Generation, nil)
	if err != nil {
		return err
	}
	if err := p.deleteSucceeded(ctx, r); err != nil {
		return failf("%v (a delete fenced by the current generation, after derived rendering moved the revision %s→%s)", err, target.Metadata.Revision, now.Metadata.Revision)
	}
	return nil
}
