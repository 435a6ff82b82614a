package conformance

import (
	"slices"

	"github.com/takokit/takokit/catalog"
)

// The parts Forms play in the worker aggregate, derived from catalog data alone
// (docs/protocol.md#aggregate): a worker is what an installed deployment-role Form's
// top-level reference targets, a worker attachment an attachment-role Form with a
// top-level reference to a worker, and what else such an attachment refers to at
// the top level is what it is fed from (a queue). No Form kind is named here.

// workerKinds returns the kinds ("apiVersion/Kind") the installed deployment-role
// Forms name at a top-level reference: the workers of the aggregate.
func (p *Probe) workerKinds() map[string]bool {
	out := map[string]bool{}
	for _, f := range p.S.Forms {
		if f.Role != "deployment" {
			continue
		}
		for _, rel := range f.Relations {
			if len(splitPointer(rel.Pointer)) == 1 {
				out[rel.TargetAPIVersion+"/"+rel.TargetKind] = true
			}
		}
	}
	return out
}

// workerRelation returns f's top-level reference to a worker.
func (p *Probe) workerRelation(f *catalog.Form) (catalog.Relation, bool) {
	workers := p.workerKinds()
	for _, rel := range f.Relations {
		if len(splitPointer(rel.Pointer)) == 1 && rel.Binding == nil && workers[rel.TargetAPIVersion+"/"+rel.TargetKind] {
			return rel, true
		}
	}
	return catalog.Relation{}, false
}

// workerAttachment reports an attachment-role Form that activates a worker.
func (p *Probe) workerAttachment(f *catalog.Form) bool {
	_, ok := p.workerRelation(f)
	return f.Role == "attachment" && ok
}

// feedRelations returns a worker attachment's top-level references to what is not a
// worker, required ones first: the source it drains (required) and the optional
// destinations of the same kind (a dead-letter queue).
func (p *Probe) feedRelations(f *catalog.Form) (source catalog.Relation, others []catalog.Relation, ok bool) {
	if !p.workerAttachment(f) {
		return catalog.Relation{}, nil, false
	}
	workers := p.workerKinds()
	for _, rel := range f.Relations {
		if len(splitPointer(rel.Pointer)) != 1 || rel.Binding != nil || workers[rel.TargetAPIVersion+"/"+rel.TargetKind] {
			continue
		}
		fl, _ := f.Field(splitPointer(rel.Pointer)[0])
		if fl != nil && fl.Required && !ok {
			source, ok = rel, true
			continue
		}
		others = append(others, rel)
	}
	others = slices.DeleteFunc(others, func(r catalog.Relation) bool {
		return r.TargetAPIVersion != source.TargetAPIVersion || r.TargetKind != source.TargetKind
	})
	return source, others, ok
}
