package conformance

import (
	"context"
	"net/http"
	"slices"
	"sort"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
)

// runtime is the worker runtime contract as the catalog states it
// (docs/protocol.md#aggregate): a revision-role Form whose required closed string
// set (its handlers) holds only operations of the Interface its top-level
// reference requires of the worker; that Interface is the runtime contract and the
// set's enum its handler vocabulary.
type runtime struct {
	version  *catalog.Form // the revision Form declaring handlers
	handlers catalog.Field // its handler set
	worker   catalog.Relation
	contract wire.InterfaceRef
}

// runtimeContract finds the runtime among the installed Forms.
func (p *Probe) runtimeContract() (*runtime, error) {
	for _, f := range p.S.Forms {
		if f.Role != "revision" {
			continue
		}
		for _, rel := range f.Relations {
			if rel.Binding != nil || rel.RequiredInterface == nil || len(splitPointer(rel.Pointer)) != 1 {
				continue
			}
			in, ok := p.Cat.Interface(rel.RequiredInterface.Name, rel.RequiredInterface.Version)
			if !ok {
				continue
			}
			for _, fl := range f.Fields {
				if fl.Kind == catalog.FieldStringSet && fl.Required && len(fl.Enum) > 0 &&
					!slices.ContainsFunc(fl.Enum, func(h string) bool { return !slices.Contains(in.Operations, h) }) {
					return &runtime{version: f, handlers: fl, worker: rel, contract: *rel.RequiredInterface}, nil
				}
			}
		}
	}
	return nil, notApplicable("the host installs no revision Form declaring handlers of a runtime contract its worker reference requires%s", p.S.foreignNote())
}

// interfaceProfile reads the InterfaceSupport profile of in, failing unless the host
// advertises it at exactly in's schemaDigest.
func (p *Probe) interfaceProfile(ctx context.Context, in wire.InterfaceRef, why string) error {
	r, err := p.get(ctx, API+"/support/interfaces/"+in.Name+"/"+in.Version)
	if err != nil {
		return err
	}
	var prof supportProfile
	if r.Status != http.StatusOK || wire.DecodeStrict(r.Body, &prof) != nil || prof.InterfaceRef == nil {
		return failf("%s: %s, so the host must advertise %s@%s; got %s", r.What(), why, in.Name, in.Version, r.Got())
	}
	if *prof.InterfaceRef != in {
		return failf("%s: %s, so the host must advertise %s@%s at exactly schemaDigest %s; it advertises %s", r.What(), why, in.Name, in.Version, in.SchemaDigest, prof.InterfaceRef.SchemaDigest)
	}
	return nil
}

func checkEdgeInterfacesAdvertised(ctx context.Context, p *Probe) error {
	measured := 0
	for _, f := range p.S.Forms {
		for _, in := range f.Provided {
			if err := p.interfaceProfile(ctx, in, f.Ref.Kind+" "+f.Ref.DefinitionVersion+" provides it"); err != nil {
				return err
			}
			measured++
		}
	}
	if measured == 0 {
		return notApplicable("no installed Form provides an Interface%s", p.S.foreignNote())
	}
	return nil
}

func checkRuntimeContractAdvertised(ctx context.Context, p *Probe) error {
	rt, err := p.runtimeContract()
	if err != nil {
		return err
	}
	tf, err := p.targetForm(rt.worker)
	if err != nil {
		return err
	}
	if !tf.Provides(rt.contract) {
		return notApplicable("the installed %s does not provide %s, the contract %s's %s requires", tf.Ref.Kind, rt.contract.Name, rt.version.Ref.Kind, rt.worker.Pointer)
	}
	if err := p.interfaceProfile(ctx, rt.contract, tf.Ref.Kind+" provides the runtime contract"); err != nil {
		return err
	}
	prof := p.profile(rt.version)
	target := supportFormTarget(rt.version.Ref)
	if prof == nil {
		return failf("GET %s: the support listing is unreadable, so the %s enum is not advertised", target, rt.handlers.Wire)
	}
	got, stated := prof.SupportedEnums[rt.handlers.Wire]
	want := slices.Clone(rt.handlers.Enum)
	sort.Strings(want)
	switch {
	case !stated:
		// an omitted member is no statement (docs/protocol.md#support): a partial host
		// that states no handler enum is judged on nothing here
		return notApplicable("GET %s states no supportedEnums.%s; the host makes no statement about the handler vocabulary", target, rt.handlers.Wire)
	case len(got) == 0:
		return failf("GET %s: supportedEnums.%s is empty; a host that installs %s runs some of %q", target, rt.handlers.Wire, rt.version.Ref.Kind, want)
	}
	for _, h := range got {
		if !slices.Contains(want, h) {
			return failf("GET %s: supportedEnums.%s lists %q, which the handler vocabulary of %s@%s %q does not define", target, rt.handlers.Wire, h, rt.contract.Name, rt.contract.Version, want)
		}
	}
	// a profile that narrows the vocabulary (a partial host) states a subset of it and
	// is judged by that statement (docs/guides/conformance.md, partial hosts)
	for _, f := range p.S.Forms {
		if pf := p.profile(f); pf != nil {
			if _, ok := pf.SupportedRanges["compatibilityDate"]; ok {
				return failf("GET %s: a compatibilityDate range is advertised; runtime behaviour is stated by the exact contract %s", supportFormTarget(f.Ref), rt.contract.Name)
			}
			if _, ok := pf.SupportedEnums["compatibilityFlags"]; ok {
				return failf("GET %s: a compatibilityFlags enum is advertised; runtime behaviour is stated by the exact contract %s", supportFormTarget(f.Ref), rt.contract.Name)
			}
		}
	}
	return nil
}

// undefinedHandler is a handler name outside vocab.
func undefinedHandler(vocab []string) string {
	h := "alarm"
	for slices.Contains(vocab, h) {
		h += "x"
	}
	return h
}

func checkUndeclaredHandlerRejected(ctx context.Context, p *Probe) error {
	rt, err := p.runtimeContract()
	if err != nil {
		return err
	}
	spec, err := p.specFor(ctx, rt.version)
	if err != nil {
		return err
	}
	declared, _ := spec[rt.handlers.Wire].([]any)
	if len(declared) == 0 {
		return notApplicable("the host lets %s declare no handler", rt.version.Ref.Kind)
	}
	bad := cloneSpec(spec)
	undef := undefinedHandler(rt.handlers.Enum)
	bad[rt.handlers.Wire] = append(slices.Clone(declared), undef)
	if err := p.refusedAtGate(ctx, rt.version, bad, "a version declaring the handler "+undef+" the runtime contract does not define"); err != nil {
		return err
	}
	if _, err := p.create(ctx, rt.version, p.Name(slugPrefix(rt.version)), spec); err != nil {
		return failf("%v (a version declaring only defined handlers is still accepted)", err)
	}
	return nil
}

// refusedAtGate requires spec of f to be refused by the spec gate on every surface
// that reaches it without a prepared review: validate (valid false with an error
// diagnostic), prepare (invalid_argument) and, when the host offers it, import
// (invalid_argument, nothing stored). what names the case in messages.
func (p *Probe) refusedAtGate(ctx context.Context, f *catalog.Form, spec map[string]any, what string) error {
	_, a, err := p.validate(ctx, f, mustJSON(spec))
	if err != nil {
		return err
	}
	if a.Valid || !slices.ContainsFunc(a.Diagnostics, func(d validateDiagnostic) bool { return d.Severity == "error" }) {
		return failf("POST %s/resources/validate: %s must be answered valid false with an error diagnostic; got valid %v", API, what, a.Valid)
	}
	name := p.Name(slugPrefix(f))
	r, _, err := p.prepare(ctx, p.P, f.Ref, name, spec, "")
	if err != nil {
		return err
	}
	if err := expectCode(r, wire.CodeInvalidArgument); err != nil {
		return failf("%s (prepare of %s)", err, what)
	}
	if !p.S.Offers(f, "import") {
		return nil
	}
	r, err = p.P.Do(ctx, p.importReq(f.Ref, name, spec, p.nativeID("gate"), ""))
	if err != nil {
		return err
	}
	if err := expectCode(r, wire.CodeInvalidArgument); err != nil {
		return failf("%s (import of %s)", err, what)
	}
	return p.notCreated(ctx, f.Ref, name, what)
}
