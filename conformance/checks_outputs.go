package conformance

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/takokit/takokit/catalog"
)

// outputsProblem measures status.outputs against f's declared outputs: exactly the
// declared members, each of its type, anchored pattern, bounds and enum; and no
// outputs member at all for a Form without outputs.
func outputsProblem(f *catalog.Form, res *Resource) string {
	raw := res.Status.Outputs
	if !f.HasOutputs() {
		if raw != nil {
			return fmt.Sprintf("status.outputs is present (%s) on %s, which declares no outputs; it must be omitted", snippet(raw), f.Ref.Kind)
		}
		return ""
	}
	if raw == nil {
		return "status lacks outputs, which " + f.Ref.Kind + " declares"
	}
	var got map[string]json.RawMessage
	if err := json.Unmarshal(raw, &got); err != nil || got == nil {
		return fmt.Sprintf("status.outputs is not an object: %s", snippet(raw))
	}
	for _, o := range f.Outputs {
		v, ok := got[o.Wire]
		if !ok {
			return fmt.Sprintf("status.outputs lacks %q", o.Wire)
		}
		if msg := outputValueProblem(o, v); msg != "" {
			return fmt.Sprintf("status.outputs.%s %s", o.Wire, msg)
		}
	}
	var extra []string
	for k := range got {
		if _, ok := f.Output(k); !ok {
			extra = append(extra, k)
		}
	}
	if len(extra) > 0 {
		sort.Strings(extra)
		return fmt.Sprintf("status.outputs carries undeclared %q", extra)
	}
	if err := f.ValidateOutputs(got); err != nil {
		return "status.outputs fails the declared outputSchema: " + err.Error()
	}
	return ""
}

func outputValueProblem(o catalog.Output, v json.RawMessage) string {
	var x any
	if err := json.Unmarshal(v, &x); err != nil {
		return "does not decode"
	}
	switch o.Type {
	case "string":
		s, ok := x.(string)
		if !ok {
			return fmt.Sprintf("is %s, declared string", v)
		}
		n := int64(utf8.RuneCountInString(s))
		if o.MinLength != nil && n < *o.MinLength || o.MaxLength != nil && n > *o.MaxLength {
			return fmt.Sprintf("%q has %d characters, outside the declared length", s, n)
		}
		if o.Pattern != "" {
			re, err := regexp.Compile(o.Pattern)
			if err == nil && !re.MatchString(s) {
				return fmt.Sprintf("%q does not match the declared pattern %s", s, o.Pattern)
			}
		}
		if len(o.Enum) > 0 && !slices.Contains(o.Enum, s) {
			return fmt.Sprintf("%q is not one of %q", s, o.Enum)
		}
	case "integer":
		f, ok := x.(float64)
		if !ok || f != math.Trunc(f) {
			return fmt.Sprintf("is %s, declared integer", v)
		}
		if o.Min != nil && f < float64(*o.Min) || o.Max != nil && f > float64(*o.Max) {
			return fmt.Sprintf("%s is outside the declared bounds", v)
		}
		if len(o.Enum) > 0 && !slices.Contains(o.Enum, strconv.FormatInt(int64(f), 10)) {
			return fmt.Sprintf("%s is not one of %s", v, strings.Join(o.Enum, ", "))
		}
	case "boolean":
		if _, ok := x.(bool); !ok {
			return fmt.Sprintf("is %s, declared boolean", v)
		}
	}
	return ""
}

// outputsHalf creates a resource of a Form that fits and measures its outputs in
// the create answer, a read and an observe.
func (p *Probe) outputsHalf(ctx context.Context, need string, fits func(*catalog.Form) bool) error {
	b, err := p.build(ctx, need, fits)
	if err != nil {
		return err
	}
	what := "PUT " + ResourcePath(b.f.Ref, b.res.Metadata.Name)
	if msg := outputsProblem(b.f, b.res); msg != "" {
		return failf("%s: %s", what, msg)
	}
	now, err := p.readResource(ctx, b.f.Ref, b.res.Metadata.Name)
	if err != nil {
		return err
	}
	if msg := outputsProblem(b.f, now); msg != "" {
		return failf("GET %s: %s", ResourcePath(b.f.Ref, b.res.Metadata.Name), msg)
	}
	r, err := p.observe(ctx, p.P, b.f.Ref, b.res.Metadata.Name, b.res.Metadata.Generation, nil)
	if err != nil {
		return err
	}
	o, err := observed(r)
	if err != nil {
		return err
	}
	if msg := outputsProblem(b.f, o); msg != "" {
		return failf("%s: %s", r.What(), msg)
	}
	return nil
}

func checkOutputsExact(ctx context.Context, p *Probe) error {
	without := p.outputsHalf(ctx, "declaring no outputs", func(f *catalog.Form) bool { return !f.HasOutputs() })
	if classify(without) != StatusPass && classify(without) != StatusNotApplicable {
		return without
	}
	with := p.outputsHalf(ctx, "declaring outputs", (*catalog.Form).HasOutputs)
	if classify(with) != StatusPass && classify(with) != StatusNotApplicable {
		return with
	}
	if with != nil && without != nil {
		return notApplicable("neither half applies: %v; %v", with, without)
	}
	return nil
}

func checkOutputsMoveRevision(ctx context.Context, p *Probe) error {
	b, err := p.build(ctx, "declaring outputs", (*catalog.Form).HasOutputs)
	if err != nil {
		return err
	}
	name := b.res.Metadata.Name
	r, err := p.observe(ctx, p.P, b.f.Ref, name, "1", map[string]string{ProbeHeader: "touch-status"})
	if err != nil {
		return err
	}
	o, err := observed(r)
	if err != nil {
		return err
	}
	if o.Metadata.Generation != "1" {
		return failf("%s: a host-side change of status moved the generation to %q", r.What(), o.Metadata.Generation)
	}
	if o.Metadata.Revision == b.res.Metadata.Revision {
		return failf("%s: a host-side change of status left the revision at %q", r.What(), o.Metadata.Revision)
	}
	if msg := outputsProblem(b.f, o); msg != "" {
		return failf("%s: %s", r.What(), msg)
	}
	now, err := p.readResource(ctx, b.f.Ref, name)
	if err != nil {
		return err
	}
	if string(now.Status.Outputs) != string(o.Status.Outputs) && now.Metadata.Revision == o.Metadata.Revision {
		return failf("GET %s: outputs changed from %s to %s without a revision change", ResourcePath(b.f.Ref, name), snippet(o.Status.Outputs), snippet(now.Status.Outputs))
	}
	if now.Metadata.Generation != "1" {
		return failf("GET %s: generation moved to %q without a spec change", ResourcePath(b.f.Ref, name), now.Metadata.Generation)
	}
	return nil
}
