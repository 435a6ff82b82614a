package takoform

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"slices"
	"strings"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/takokit/takokit/catalog/model"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/provider/internal/client"
)

// Plan-time host capability (docs/provider-design.md#plan-time-support, decision 0031). It reads support
// profiles (GET only), never changes a planned value, and either refuses the plan
// or lets it proceed; a host it cannot ask only gets a warning (an error when the
// provider requires the support surface: unreadable.go).

type supportCheck struct {
	r    *Resource
	ctx  context.Context
	form *model.Form
	plan values
	d    *diag.Diagnostics
	// the contract routes this check reads, read side by side once the Form is offered
	ifaces       []supportRead // one per form.Provided, same order
	bindingReads []bindingRead // one per binding list the plan uses
}

// supportRead is one support route's answer, or why there is none.
type supportRead struct {
	ans *client.SupportAnswer
	err error
}

// bindingRead is the binding contract a used binding list needs, and its answer.
type bindingRead struct {
	field *model.Field
	ref   wire.BindingRef
	supportRead
}

func (c *supportCheck) base() report {
	m := c.r.kind.model
	return report{typeName: m.typeName, space: c.plan.str(aSpace), name: c.plan.str(aName), ref: &c.form.Ref}
}

// sameConfigElsewhere closes every refusal's prose: the refusal is about the host.
const sameConfigElsewhere = " This is a fact about this host, not about the configuration: the same configuration applies unchanged on a host that implements it."

func (c *supportCheck) refuse(summary, code, pointer, what, repair string, at *path.Path) {
	c.refuseWith(summary, code, pointer, what, repair, at, nil)
}

// refuseWith is refuse carrying the host's refusal envelope (message, request id), when there is one.
func (c *supportCheck) refuseWith(summary, code, pointer, what, repair string, at *path.Path, host *client.HostError) {
	rep := c.base()
	rep.summary, rep.code, rep.pointer, rep.what, rep.repair, rep.attr = summary, code, pointer, what+sameConfigElsewhere, repair, at
	if host != nil {
		rep.hostMsg, rep.reqID = host.Env.Message, host.Env.RequestID
	}
	rep.add(c.d)
}

// contractVerdict says why a contract answer is a refusal: the host's refusal
// code, or the digest it implements instead of the one the Form names.
func contractVerdict(ans *client.SupportAnswer, implemented, want string) string {
	if ans.Refusal != nil {
		return fmt.Sprintf("The host's support route refused it (%s, HTTP %d).", ans.Refusal.Env.Code, ans.Refusal.Status)
	}
	return "The host implements it at " + implemented + ", not at " + want + " as the Form names it: a different contract under the same name and version."
}

// planSupport runs the check for a create, update or replacement of form.
func (r *Resource) planSupport(ctx context.Context, plan values, form *model.Form, d *diag.Diagnostics) {
	if r.configured == nil || r.configured.client == nil {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, client.SupportDeadline)
	defer cancel()
	c := &supportCheck{r: r, ctx: ctx, form: form, plan: plan, d: d}
	prof := c.formProfile()
	if prof == nil {
		return
	}
	c.readContracts()
	c.operations(prof)
	c.interfaces()
	c.bindings()
	c.values(prof)
	c.bundleLimits(prof)
}

func (c *supportCheck) formProfile() *client.SupportProfile {
	ref := c.form.Ref
	subject := fmt.Sprintf("Form %s %s", ref.Kind, ref.DefinitionVersion)
	ans, err := c.r.configured.client.FormSupport(c.ctx, ref)
	if err != nil {
		c.undecided(subject, err)
		return nil
	}
	why, other := "", ""
	switch {
	case ans.Refusal != nil:
		why = "The host's support surface refused this exact FormRef (" + string(ans.Refusal.Env.Code) + ")."
	case ans.Profile.FormRef.SchemaDigest != ref.SchemaDigest:
		// the host offers this version, under another contract: only another version can help
		why = fmt.Sprintf("The host implements %s %s at %s, not at %s as the Form names it: a different contract under the same name and version.",
			ref.Kind, ref.DefinitionVersion, ans.Profile.FormRef.SchemaDigest, ref.SchemaDigest)
		other = " other"
	default:
		return ans.Profile
	}
	if vs, err := c.r.configured.client.SupportedFormVersions(c.ctx, ref.APIVersion, ref.Kind); err == nil {
		// the version refused (or offered under another contract) is never the way
		// out: a consistent host does not list a version it refuses, and one that
		// does would have the user select the very ref it refused
		vs = slices.DeleteFunc(vs, func(v string) bool { return v == ref.DefinitionVersion })
		if len(vs) > 0 {
			why += " The host offers" + other + " " + ref.Kind + " " + strings.Join(vs, ", ") + "; form_definition_version selects one."
		} else {
			why += " The host offers no" + other + " version of " + ref.Kind + "."
		}
	}
	rep := c.base()
	rep.summary = fmt.Sprintf("Host does not offer %s %s", ref.Kind, ref.DefinitionVersion)
	rep.what = why + " This is a fact about this host; the same configuration works on a host that offers it."
	rep.pointer, rep.code = "/form/formRef", codeHostNoForm
	rep.repair = "Point the provider at a host that offers it, or remove these resources."
	if ans.Refusal != nil {
		rep.hostMsg, rep.reqID = ans.Refusal.Env.Message, ans.Refusal.Env.RequestID
	}
	rep.add(c.d)
	return nil
}

func (c *supportCheck) operations(prof *client.SupportProfile) {
	need := []string{"create", "read", "delete"}
	if c.form.DeclaresUpdate {
		need = append(need, "update")
	}
	var missing []string
	for _, op := range need {
		if !slices.Contains(prof.Operations, op) {
			missing = append(missing, op)
		}
	}
	if len(missing) > 0 {
		c.refuse(fmt.Sprintf("Host does not offer every operation %s needs", c.form.Ref.Kind), codeHostNoOperation, "/form/formRef",
			fmt.Sprintf("The Form declares %s; the host offers %s and lacks %s.", strings.Join(c.form.Capabilities, ", "),
				strings.Join(prof.Operations, ", "), strings.Join(missing, ", ")),
			"Use a host that offers the whole lifecycle.", nil)
	}
}

// readContracts reads, side by side, every Interface route the Form provides and every
// Binding route a binding list of the plan uses: the answers do not depend on one
// another, so a plan waits for one round trip instead of one per contract. Each route
// is still read at most once per provider configuration (the client's cache).
func (c *supportCheck) readContracts() {
	cl := c.r.configured.client
	c.ifaces = make([]supportRead, len(c.form.Provided))
	for i := range c.form.Fields {
		f := &c.form.Fields[i]
		if f.Binding == nil {
			continue // only a binding list carries the Binding it projects
		}
		l, ok := c.plan[f.Attr].(types.List)
		if !ok || len(l.Elements()) == 0 {
			continue // empty, null or unknown: no binding is used (yet)
		}
		// f.Binding is the Form's accepted BindingRef of that name, as the catalog
		// model sets it (the same ref the host's relation check uses): no lookup in
		// Accepted is needed, and one would pick another version when a Form accepts
		// two versions of one Binding
		c.bindingReads = append(c.bindingReads, bindingRead{field: f, ref: *f.Binding})
	}
	var wg sync.WaitGroup
	read := func(dst *supportRead, fetch func() (*client.SupportAnswer, error)) {
		wg.Go(func() { dst.ans, dst.err = fetch() })
	}
	for i, ir := range c.form.Provided {
		read(&c.ifaces[i], func() (*client.SupportAnswer, error) { return cl.InterfaceSupport(c.ctx, ir.Name, ir.Version) })
	}
	for i := range c.bindingReads {
		b := &c.bindingReads[i]
		read(&b.supportRead, func() (*client.SupportAnswer, error) { return cl.BindingSupport(c.ctx, b.ref.Name, b.ref.Version) })
	}
	wg.Wait()
}

func (c *supportCheck) interfaces() {
	for i, ir := range c.form.Provided {
		subject := "Interface " + ir.Name + "@" + ir.Version
		ans, err := c.ifaces[i].ans, c.ifaces[i].err
		if err != nil {
			c.undecided(subject, err)
			continue
		}
		if ans.Refusal == nil && ans.Profile.InterfaceRef.SchemaDigest == ir.SchemaDigest {
			continue
		}
		implemented := ""
		if ans.Profile != nil {
			implemented = ans.Profile.InterfaceRef.SchemaDigest
		}
		c.refuseWith(fmt.Sprintf("Host does not implement %s@%s", ir.Name, ir.Version), codeHostNoInterface, "/form/formRef",
			"Every resource of "+c.form.Ref.Kind+" "+c.form.Ref.DefinitionVersion+" provides this contract. "+contractVerdict(ans, implemented, ir.SchemaDigest),
			"Use a host implementing this exact contract.", nil, ans.Refusal)
	}
}

func (c *supportCheck) bindings() {
	for _, br := range c.bindingReads {
		f, b, ans, err := br.field, br.ref, br.ans, br.err
		if err != nil {
			c.undecided("Binding "+b.Name+"@"+b.Version, err)
			continue
		}
		if ans.Refusal == nil && ans.Profile.BindingRef.SchemaDigest == b.SchemaDigest {
			continue
		}
		implemented := ""
		if ans.Profile != nil {
			implemented = ans.Profile.BindingRef.SchemaDigest
		}
		p := path.Root(f.Attr)
		c.refuseWith(fmt.Sprintf("Host does not implement binding %s@%s", b.Name, b.Version), codeHostNoBinding, "/spec/"+f.Wire,
			f.Attr+" uses this binding contract. "+contractVerdict(ans, implemented, b.SchemaDigest)+
				" The host may implement other bindings; apply would end in unsupported_capability (422).",
			"Remove the binding or use another host.", &p, ans.Refusal)
	}
}

// count is n of noun in words: "1 entry", "3 entries", "2 modules".
func count(n int64, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %s", n, plural(noun))
}

func plural(noun string) string {
	if base, ok := strings.CutSuffix(noun, "y"); ok {
		return base + "ies"
	}
	return noun + "s"
}

// atMost is the repair of a ceiling of max nouns in where.
func atMost(max int64, noun, where string) string {
	if max == 0 {
		return fmt.Sprintf("This host accepts no %s in %s: leave it empty, or use another host.", plural(noun), where)
	}
	return fmt.Sprintf("Use at most %s in %s, or another host.", count(max, noun), where)
}

// values checks enums, ranges (nested by dotted key) and collection ceilings.
func (c *supportCheck) values(prof *client.SupportProfile) {
	for i := range c.form.Fields {
		f := &c.form.Fields[i]
		v := c.plan[f.Attr]
		c.checkValue(prof, f, f.Wire, "/spec/"+f.Wire, path.Root(f.Attr), v) // skips null and unknown values
		switch f.Kind {
		case model.FieldStringSet, model.FieldStringList, model.FieldBindingList, model.FieldObjectList, model.FieldJSONMap:
			key := "maximum" + strings.ToUpper(f.Wire[:1]) + f.Wire[1:]
			limit, ok := prof.Limits[key]
			// null and unknown collections count 0, and so does a JSON map value that is not
			// a JSON object (its validator refuses it before any plan); a limit is 0 or more
			n := countOf(v)
			if max, err := limit.Int64(); ok && err == nil && int64(n) > max {
				p := path.Root(f.Attr)
				c.refuse(fmt.Sprintf("%s has more entries than the host accepts", f.Attr), codeHostLimitExceeded, "/spec/"+f.Wire,
					fmt.Sprintf("%s planned; %s = %d.", count(int64(n), "entry"), key, max), atMost(max, "entry", f.Attr), &p)
			}
		}
	}
}

func (c *supportCheck) checkValue(prof *client.SupportProfile, f *model.Field, key, ptr string, at path.Path, v attr.Value) {
	// a value not decided yet (unknown), not set (null), or a member of an unknown
	// list element (nil: an unknown object has no attributes) is apply's to check
	if v == nil || v.IsNull() || v.IsUnknown() {
		return
	}
	switch f.Kind {
	case model.FieldStringEnum:
		c.checkEnum(prof, key, ptr, at, v.(types.String).ValueString())
	case model.FieldStringSet, model.FieldStringList:
		if len(f.Enum) == 0 {
			return
		}
		var elems []attr.Value
		if s, ok := v.(types.Set); ok {
			elems = s.Elements()
		} else {
			elems = v.(types.List).Elements()
		}
		for i, e := range elems {
			if e.IsUnknown() || e.IsNull() {
				continue
			}
			ep := at.AtListIndex(i)
			if f.Kind == model.FieldStringSet {
				ep = at.AtSetValue(e)
			}
			c.checkEnum(prof, key, ptr, ep, e.(types.String).ValueString())
		}
	case model.FieldInteger:
		c.checkRange(prof, key, ptr, at, v.(types.Int64).ValueInt64())
	case model.FieldObject:
		// a member by its dotted key (assets.notFoundHandling), as hostsim's profiles name it
		o := v.(types.Object)
		for j := range f.Members {
			mf := &f.Members[j]
			c.checkValue(prof, mf, key+"."+mf.Wire, ptr+"/"+mf.Wire, at.AtName(mf.Attr), o.Attributes()[mf.Attr])
		}
	case model.FieldObjectList:
		for i, e := range v.(types.List).Elements() {
			o := e.(types.Object)
			for j := range f.Members {
				mf := &f.Members[j]
				c.checkValue(prof, mf, key+"."+mf.Wire, fmt.Sprintf("%s/%d/%s", ptr, i, mf.Wire), at.AtListIndex(i).AtName(mf.Attr), o.Attributes()[mf.Attr])
			}
		}
	}
}

func (c *supportCheck) checkEnum(prof *client.SupportProfile, key, ptr string, at path.Path, val string) {
	list, ok := prof.SupportedEnums[key]
	if !ok || slices.Contains(list, val) {
		return
	}
	c.refuse(fmt.Sprintf("Host does not accept %s = %q", attrName(at), val), codeHostNoValue, ptr,
		fmt.Sprintf("The value is valid for the Form; this host accepts exactly %s.", strings.Join(quoteAll(list), ", ")),
		"Use an accepted value, or another host.", &at)
}

func (c *supportCheck) checkRange(prof *client.SupportProfile, key, ptr string, at path.Path, n int64) {
	r, ok := prof.SupportedRanges[key]
	if !ok {
		return
	}
	min, max := intBound(r.Minimum), intBound(r.Maximum)
	x := big.NewInt(n)
	if (min == nil || x.Cmp(min) >= 0) && (max == nil || x.Cmp(max) <= 0) {
		return
	}
	var accepted, use string
	switch {
	case min != nil && max != nil:
		accepted = min.String() + " to " + max.String()
		use = "a value from " + accepted
	case min != nil:
		accepted = min.String() + " or more"
		use = accepted
	default:
		accepted = max.String() + " or less"
		use = accepted
	}
	c.refuse(fmt.Sprintf("Host does not accept %s = %d", attrName(at), n), codeHostNoValue, ptr,
		"The value is valid for the Form; this host accepts "+accepted+".", "Use "+use+", or another host.", &at)
}

// intBound is an integer bound, or nil: absent, or a string bound (the client has
// rewritten every integer bound as plain decimal text, so nothing else fails to parse).
func intBound(raw json.RawMessage) *big.Int {
	n, ok := new(big.Int).SetString(string(raw), 10)
	if !ok {
		return nil
	}
	return n
}

func countOf(v attr.Value) int {
	switch x := v.(type) {
	case types.Set:
		return len(x.Elements())
	case types.List:
		return len(x.Elements())
	case types.String:
		var m map[string]json.RawMessage
		_ = json.Unmarshal([]byte(x.ValueString()), &m)
		return len(m)
	}
	return 0
}

// attrName renders an attribute path the way HCL writes it (versions[1].weight).
func attrName(p path.Path) string {
	var b strings.Builder
	for _, st := range p.Steps() {
		switch s := st.(type) {
		case path.PathStepAttributeName:
			if b.Len() > 0 {
				b.WriteString(".")
			}
			b.WriteString(string(s))
		case path.PathStepElementKeyInt:
			fmt.Fprintf(&b, "[%d]", int64(s))
		}
	}
	return b.String()
}
