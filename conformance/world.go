package conformance

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
)

// world builds, inside one check's space, the resources a Form's canonical fixture
// refers to. Everything is derived from catalog data: reference nodes from the
// Form's relations, target Forms from their FormRefs or required interfaces, the
// deployment an attachment needs from the roles, and the bundle an
// artifact-addressed Form names from an upload. One resource per kind is made and
// shared, so a version, its deployment and an attachment all name the same worker.
type world struct {
	made     map[string]*Resource // by "apiVersion/Kind"
	order    []*Resource          // everything made, in creation order
	noDeploy bool                 // leave attachments' workers without a deployment
	onlyEnum string               // declare just this value in revision enum sets ("" = all the host accepts)
	// cut are the values a revision enum set accepted by the host left out
	// because of the host's maximum (a version may declare one handler): an
	// attachment refused for a value left out is built again declaring it.
	cut []string
}

// artifactAddressed reports a Form whose desired schema has exactly one property,
// manifestDigest (docs/resources/worker_bundle.md).
func artifactAddressed(f *catalog.Form) bool {
	return len(f.Fields) == 1 && f.Fields[0].Wire == "manifestDigest"
}

// specFor returns a valid, materialized spec for f, creating what it refers to.
//
// A worker attachment may need its worker's versions to declare one handler (a
// cron trigger, the scheduled one); the runner cannot know which from the
// catalog, and the host decides it when the attachment is created. When the
// host's maximum cut the handlers a version declares, the attachment is created
// once under a name of its own and deleted again: refused
// unsupported_capability, a fresh world is built once per value that was cut,
// declaring just that one, until one is accepted. None accepted, the first
// world stays (docs/guides/conformance.md#partial-hosts).
func (p *Probe) specFor(ctx context.Context, f *catalog.Form) (map[string]any, error) {
	spec, err := p.specOnce(ctx, f)
	if err != nil || len(p.world.cut) == 0 || !p.workerAttachment(f) {
		return spec, err
	}
	first, firstSpec := p.world, spec
	declined, err := p.tryAttachment(ctx, f, spec)
	if err != nil || declined == nil {
		return spec, err
	}
	for _, v := range first.cut {
		p.world = &world{made: map[string]*Resource{}, noDeploy: first.noDeploy, onlyEnum: v}
		spec, err := p.specOnce(ctx, f)
		if err != nil {
			return nil, err
		}
		again, err := p.tryAttachment(ctx, f, spec)
		if err != nil || again == nil {
			return spec, err
		}
	}
	// refused whichever it declares: the first world's spec, for a check that
	// measures a refusal coming before the handler's; one that needs the
	// attachment made, or a rule the host answers after the handler's refusal,
	// is not-applicable (declinedWhatever)
	p.world = first
	if p.declined == nil {
		p.declined = map[wire.FormRef]string{}
	}
	p.declined[f.Ref] = declined.Got()
	return firstSpec, nil
}

// declinedWhatever is not-applicable when the host refused f whichever handler
// its worker's versions declared (specFor): a host whose profile leaves out the
// handler f needs cannot have one made, nor be judged on a rule it answers after
// that refusal.
func (p *Probe) declinedWhatever(f *catalog.Form) error {
	if why, ok := p.declined[f.Ref]; ok {
		return notApplicable("the host declines %s whichever handler its worker's versions declare (%s)", f.Ref.Kind, why)
	}
	return nil
}

// tryAttachment creates f with spec under a fresh name and deletes it again,
// settling either; it returns the answer when the host declined it
// (unsupported_capability), nil when the host took it.
func (p *Probe) tryAttachment(ctx context.Context, f *catalog.Form, spec map[string]any) (*Resp, error) {
	step := "trying which handler " + f.Ref.Kind + " needs"
	r, err := p.apply(ctx, p.P, f.Ref, p.Name(slugPrefix(f)), spec, "")
	if err != nil {
		return nil, setup(step, err)
	}
	if r.Code() == wire.CodeUnsupportedCapability {
		return r, nil
	}
	res, err := p.settle(ctx, p.P, r, http.StatusCreated)
	if err != nil {
		return nil, setup(step, err)
	}
	return nil, setup(step, p.deleted(ctx, res))
}

// specOnce is specFor in the world as it is.
func (p *Probe) specOnce(ctx context.Context, f *catalog.Form) (map[string]any, error) {
	if p.world == nil {
		p.world = &world{made: map[string]*Resource{}}
	}
	if artifactAddressed(f) {
		d, err := p.uploadBundle(ctx, f)
		if err != nil {
			return nil, setup("uploading the "+f.Ref.Kind+" bundle", err)
		}
		return map[string]any{f.Fields[0].Wire: d}, nil
	}
	if _, why, ok := f.CanonicalFixture(); !ok {
		return nil, notApplicable("%s (in the runner's catalog)", why)
	}
	var spec map[string]any
	if err := json.Unmarshal(f.Fixtures[0].Desired, &spec); err != nil {
		return nil, fmt.Errorf("fixture %s of %s: %v", f.Fixtures[0].Name, f.Ref, err)
	}
	// Keep the world small: optional references, binding lists and objects holding
	// a reference are dropped.
	for _, fl := range f.Fields {
		if fl.Required {
			continue
		}
		switch fl.Kind {
		case catalog.FieldReference, catalog.FieldBindingList:
			delete(spec, fl.Wire)
		case catalog.FieldObject:
			if slices.ContainsFunc(fl.Members, func(m catalog.Field) bool { return m.Kind == catalog.FieldReference }) {
				delete(spec, fl.Wire)
			}
		case catalog.FieldStringSet, catalog.FieldStringList:
			if fl.Default != nil {
				delete(spec, fl.Wire)
			}
		}
	}
	p.widenEnumSets(f, spec)
	p.clampToRanges(f, spec)
	p.freshStrings(f, spec)
	var targets []*Resource
	for _, rel := range f.Relations {
		for _, node := range refNodes(spec, strings.Split(strings.TrimPrefix(rel.Pointer, "/"), "/")) {
			t, err := p.ensure(ctx, f, rel)
			if err != nil {
				return nil, err
			}
			node["name"] = t.Metadata.Name
			targets = append(targets, t)
		}
	}
	if f.Role == "attachment" && !p.world.noDeploy {
		for _, t := range targets {
			if err := p.ensureDeployment(ctx, t); err != nil {
				return nil, err
			}
		}
	}
	return f.Materialize(spec), nil
}

// widenEnumSets sets every required string-set field of a revision Form with a
// closed enum (the handlers a version declares) to what the host accepts, so one
// version serves every attachment. The host's supportedEnums and maximum* limit
// narrow it.
func (p *Probe) widenEnumSets(f *catalog.Form, spec map[string]any) {
	if f.Role != "revision" {
		return
	}
	for _, fl := range f.Fields {
		if fl.Kind != catalog.FieldStringSet || len(fl.Enum) == 0 || !fl.Required {
			continue
		}
		vals := slices.Clone(fl.Enum)
		if p.world.onlyEnum != "" && slices.Contains(vals, p.world.onlyEnum) {
			vals = []string{p.world.onlyEnum}
		}
		if prof := p.profile(f); prof != nil {
			if allowed, ok := prof.SupportedEnums[fl.Wire]; ok {
				vals = slices.DeleteFunc(vals, func(v string) bool { return !slices.Contains(allowed, v) })
			}
			if max, ok := prof.Limits["maximum"+strings.ToUpper(fl.Wire[:1])+fl.Wire[1:]]; ok && int64(len(vals)) > max {
				p.world.cut = append(p.world.cut, vals[max:]...)
				vals = vals[:max]
			}
		}
		if len(vals) > 0 {
			out := make([]any, len(vals))
			for i, v := range vals {
				out[i] = v
			}
			spec[fl.Wire] = out
		}
	}
}

func (p *Probe) profile(f *catalog.Form) *formSupport {
	if p.S.Profiles == nil {
		return nil
	}
	return p.S.Profiles[f.Ref]
}

// refNodes walks spec along a relation pointer ("*" = every array element) and
// returns the reference objects found.
func refNodes(v any, toks []string) []map[string]any {
	if len(toks) == 0 {
		if m, ok := v.(map[string]any); ok {
			return []map[string]any{m}
		}
		return nil
	}
	switch x := v.(type) {
	case map[string]any:
		if toks[0] == "*" {
			return nil
		}
		return refNodes(x[toks[0]], toks[1:])
	case []any:
		if toks[0] != "*" {
			return nil
		}
		var out []map[string]any
		for _, e := range x {
			out = append(out, refNodes(e, toks[1:])...)
		}
		return out
	}
	return nil
}

// targetForm chooses the installed Form a relation may point at.
func (p *Probe) targetForm(rel catalog.Relation) (*catalog.Form, error) {
	for _, ref := range rel.TargetFormRefs {
		if f, ok := p.S.Installed(ref); ok {
			return f, nil
		}
	}
	if in := rel.RequiredInterface; in != nil && p.S.Interfaces[in.Name+"@"+in.Version] {
		for _, f := range p.S.Forms {
			if f.Ref.APIVersion == rel.TargetAPIVersion && f.Ref.Kind == rel.TargetKind && f.Provides(*in) {
				return f, nil
			}
		}
	}
	return nil, notApplicable("relation %s needs a %s the host installs (and its contract), which it does not claim", rel.Pointer, rel.TargetKind)
}

// ensure returns the world's resource for a relation, creating it first.
func (p *Probe) ensure(ctx context.Context, src *catalog.Form, rel catalog.Relation) (*Resource, error) {
	tf, err := p.targetForm(rel)
	if err != nil {
		return nil, err
	}
	key := tf.Ref.APIVersion + "/" + tf.Ref.Kind
	if r, ok := p.world.made[key]; ok {
		return r, nil
	}
	return p.makeIn(ctx, tf, key)
}

// makeFresh creates one more resource of f in the world, not shared.
func (p *Probe) makeFresh(ctx context.Context, f *catalog.Form) (*Resource, error) {
	return p.makeIn(ctx, f, "")
}

func (p *Probe) makeIn(ctx context.Context, f *catalog.Form, key string) (*Resource, error) {
	spec, err := p.specFor(ctx, f)
	if err != nil {
		return nil, err
	}
	r, err := p.create(ctx, f, p.Name(slugPrefix(f)), spec)
	if err != nil {
		return nil, setup(settingUp(f), err)
	}
	if key != "" {
		p.world.made[key] = r
	}
	p.world.order = append(p.world.order, r)
	return r, nil
}

// ensureDeployment makes sure the target t (a worker) has a deployment: an
// installed deployment-role Form with a relation to t's kind.
func (p *Probe) ensureDeployment(ctx context.Context, t *Resource) error {
	for _, f := range p.S.Forms {
		if f.Role != "deployment" {
			continue
		}
		for _, rel := range f.Relations {
			if rel.TargetAPIVersion == t.APIVersion && rel.TargetKind == t.Kind {
				key := f.Ref.APIVersion + "/" + f.Ref.Kind
				if _, ok := p.world.made[key]; ok {
					return nil
				}
				_, err := p.makeIn(ctx, f, key)
				return err
			}
		}
	}
	return nil
}

// slugPrefix is a short name prefix derived from the Form's slug.
func slugPrefix(f *catalog.Form) string {
	s := f.Slug
	if s == "" {
		s = strings.ToLower(f.Ref.Kind)
	}
	if len(s) > 20 {
		s = s[:20]
	}
	return strings.Trim(s, "-")
}

// clampToRanges moves integer fields into the host's supportedRanges, so a narrowed
// host is asked only for what it advertises.
func (p *Probe) clampToRanges(f *catalog.Form, spec map[string]any) {
	prof := p.profile(f)
	if prof == nil {
		return
	}
	for field, rng := range sorted(prof.SupportedRanges) {
		v, ok := spec[field].(float64)
		if !ok {
			continue
		}
		if lo, ok := rng["minimum"].(float64); ok && v < lo {
			spec[field] = lo
		}
		if hi, ok := rng["maximum"].(float64); ok && v > hi {
			spec[field] = hi
		}
	}
}

// freshStrings gives every free-form string field that admits it a fresh first
// label ("<fresh>.<value>"), so values a host claims per tenant (a hostname) never
// collide between checks or runs. A value the schema refuses that way is kept.
func (p *Probe) freshStrings(f *catalog.Form, spec map[string]any) {
	for _, fl := range f.Fields {
		s, ok := spec[fl.Wire].(string)
		if !ok || fl.Kind != catalog.FieldString || len(fl.Enum) > 0 || strings.HasPrefix(s, "sha256:") {
			continue
		}
		p.seq++
		spec[fl.Wire] = fmt.Sprintf("c%s-%d-%d.%s", p.run, p.check, p.seq, s)
		if f.ValidateDesired(f.Materialize(spec)) != nil {
			spec[fl.Wire] = s
		}
	}
}
