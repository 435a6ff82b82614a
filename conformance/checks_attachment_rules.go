package conformance

import (
	"context"
	"fmt"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
)

// Shapes the structural cron pattern admits that name no schedule, and schedules the
// grammar exists for (docs/protocol.md#aggregate).
var (
	cronShapes    = []string{"0 24 * * *", "5-1 * * * *", "*/0 * * * *", "0 0 32 * *"}
	cronSchedules = []string{"*/5 * * * *", "0 * * * *"}
)

// cronField finds a worker attachment with a top-level free string field whose
// schema admits every shape and schedule above: a field holding a cron expression.
func (p *Probe) cronField() (*catalog.Form, catalog.Field, error) {
	return p.attachmentField("an attachment of a worker with a field whose pattern admits cron expressions", cronFieldOf)
}

// attachmentField picks the first worker attachment that fieldOf finds a field in
// (pickForm, need naming what it is) and gives that field. Without a fixture a field
// cannot be shown to admit anything, so such a worker attachment counts as fitting:
// pickForm passes it over and names it among the Forms that declare none.
func (p *Probe) attachmentField(need string, fieldOf func(*catalog.Form) (catalog.Field, bool)) (*catalog.Form, catalog.Field, error) {
	f, err := p.pickForm(need, func(f *catalog.Form) bool {
		_, ok := fieldOf(f)
		return p.workerAttachment(f) && (ok || len(f.Fixtures) == 0)
	})
	if err != nil {
		return nil, catalog.Field{}, err
	}
	fl, _ := fieldOf(f)
	return f, fl, nil
}

// cronFieldOf is f's first top-level free string field whose pattern admits every
// shape and schedule above.
func cronFieldOf(f *catalog.Form) (catalog.Field, bool) {
	for _, fl := range f.Fields {
		if fl.Kind != catalog.FieldString || len(fl.Enum) > 0 || fl.Pattern == "" {
			continue
		}
		all := true
		for _, v := range append(append([]string{}, cronShapes...), cronSchedules...) {
			if !admits(f, fl, v) {
				all = false
			}
		}
		if all {
			return fl, true
		}
	}
	return catalog.Field{}, false
}

// admits reports whether f's canonical fixture with fl set to v satisfies the
// schema; a Form without fixtures admits nothing it could be shown.
func admits(f *catalog.Form, fl catalog.Field, v any) bool {
	var spec map[string]any
	if len(f.Fixtures) == 0 || jsonUnmarshal(f.Fixtures[0].Desired, &spec) != nil {
		return false
	}
	spec[fl.Wire] = v
	return f.ValidateDesired(f.Materialize(spec)) == nil
}

func checkCronGrammar(ctx context.Context, p *Probe) error {
	f, fl, err := p.cronField()
	if err != nil {
		return err
	}
	spec, err := p.specFor(ctx, f)
	if err != nil {
		return err
	}
	for _, shape := range cronShapes {
		bad := cloneSpec(spec)
		bad[fl.Wire] = shape
		if err := p.refusedAtGate(ctx, f, bad, fmt.Sprintf("%s %q, a shape its pattern admits that names no schedule", fl.Wire, shape)); err != nil {
			return err
		}
	}
	for _, sched := range cronSchedules {
		good := cloneSpec(spec)
		good[fl.Wire] = sched
		if _, err := p.create(ctx, f, p.Name(slugPrefix(f)), good); err != nil {
			return failf("%v (%s %q is a schedule and must be accepted)", err, fl.Wire, sched)
		}
	}
	return nil
}

// feedForm picks a worker attachment fed from a required top-level reference.
func (p *Probe) feedForm() (*catalog.Form, catalog.Relation, []catalog.Relation, error) {
	f, err := p.pickForm("an attachment of a worker fed from another resource", func(f *catalog.Form) bool {
		_, _, ok := p.feedRelations(f)
		return ok
	})
	if err != nil {
		return nil, catalog.Relation{}, nil, err
	}
	src, others, _ := p.feedRelations(f)
	return f, src, others, nil
}

func checkQueueSingleConsumer(ctx context.Context, p *Probe) error {
	f, src, _, err := p.feedForm()
	if err != nil {
		return err
	}
	first, err := p.buildOf(ctx, f)
	if err != nil {
		return err
	}
	second := p.Name(slugPrefix(f))
	r, err := p.apply(ctx, p.P, f.Ref, second, first.spec, "")
	if err != nil {
		return err
	}
	if err := expectCode(r, wire.CodeInvalidArgument); err != nil {
		return failf("%s (a second %s of the same %s %s)", err, f.Ref.Kind, src.TargetKind, src.Pointer)
	}
	if err := p.notCreated(ctx, f.Ref, second, "a second "+f.Ref.Kind); err != nil {
		return err
	}
	if err := p.deleted(ctx, first.res); err != nil {
		return err
	}
	if _, err := p.create(ctx, f, second, first.spec); err != nil {
		return failf("%v (once the first %s is gone the second is representable)", err, f.Ref.Kind)
	}
	return nil
}

func checkDeadLetterCycle(ctx context.Context, p *Probe) error {
	f, src, others, err := p.feedForm()
	if err != nil {
		return err
	}
	if len(others) == 0 {
		return notApplicable("%s refers to no second %s a drained message moves to", f.Ref.Kind, src.TargetKind)
	}
	dl := others[0]
	spec, err := p.specFor(ctx, f)
	if err != nil {
		return err
	}
	if err := p.declinedWhatever(f); err != nil { // every apply of f is refused for its handler first: the cycle rule is out of reach
		return err
	}
	tf, err := p.targetForm(src)
	if err != nil {
		return err
	}
	q := map[string]string{}
	for _, n := range []string{"A", "B", "C", "D", "E"} {
		r, err := p.makeFresh(ctx, tf)
		if err != nil {
			return err
		}
		q[n] = r.Metadata.Name
	}
	edge := func(from, to string) map[string]any {
		s := cloneSpec(spec)
		s[splitPointer(src.Pointer)[0]] = map[string]any{"apiVersion": src.TargetAPIVersion, "kind": src.TargetKind, "name": q[from]}
		s[splitPointer(dl.Pointer)[0]] = map[string]any{"apiVersion": dl.TargetAPIVersion, "kind": dl.TargetKind, "name": q[to]}
		return s
	}
	refused := func(from, to, what string) error {
		name := p.Name(slugPrefix(f))
		r, err := p.apply(ctx, p.P, f.Ref, name, edge(from, to), "")
		if err != nil {
			return err
		}
		if err := expectCode(r, wire.CodeInvalidArgument); err != nil {
			return failf("%s (%s)", err, what)
		}
		return p.notCreated(ctx, f.Ref, name, what)
	}
	accepted := func(from, to, what string) error {
		if _, err := p.create(ctx, f, p.Name(slugPrefix(f)), edge(from, to)); err != nil {
			return failf("%v (%s must be accepted)", err, what)
		}
		return nil
	}
	if err := refused("A", "A", "a dead-letter destination that is its own queue"); err != nil {
		return err
	}
	if err := accepted("A", "B", "A → B"); err != nil {
		return err
	}
	if err := accepted("B", "C", "B → C"); err != nil {
		return err
	}
	if err := refused("C", "A", "a dead-letter destination closing the three-queue cycle A → B → C → A"); err != nil {
		return err
	}
	if err := accepted("C", "D", "the four-queue chain A → B → C → D"); err != nil {
		return err
	}
	return accepted("E", "D", "a second chain ending at D (a diamond)")
}
