package conformance

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"regexp"
	"slices"

	"github.com/takokit/takokit/catalog/wire"
)

// SupportAPIVersion is the support profile apiVersion.
const SupportAPIVersion = "support.takoform.com/v1alpha1"

type supportProfile struct {
	APIVersion        string                     `json:"apiVersion,required"`
	Kind              string                     `json:"kind,required"`
	FormRef           *wire.FormRef              `json:"formRef,omitempty"`
	InterfaceRef      *wire.InterfaceRef         `json:"interfaceRef,omitempty"`
	BindingRef        *wire.BindingRef           `json:"bindingRef,omitempty"`
	Operations        []string                   `json:"operations,omitempty"`
	SupportedEnums    map[string][]string        `json:"supportedEnums,omitempty"`
	SupportedRanges   map[string]json.RawMessage `json:"supportedRanges,omitempty"`
	SupportedBindings []string                   `json:"supportedBindings,omitempty"`
	Limits            map[string]int64           `json:"limits,omitempty"`
}

// isSubsequence reports whether sub appears in all, in order.
func isSubsequence(sub, all []string) bool {
	i := 0
	for _, x := range all {
		if i < len(sub) && sub[i] == x {
			i++
		}
	}
	return i == len(sub)
}

func (p *Probe) checkFormProfile(what string, prof supportProfile) error {
	if prof.APIVersion != SupportAPIVersion || prof.Kind != "FormSupport" || prof.FormRef == nil || prof.InterfaceRef != nil || prof.BindingRef != nil {
		return failf("%s: a FormSupport profile has apiVersion %s, kind FormSupport, a formRef and no other ref; got apiVersion %q kind %q", what, SupportAPIVersion, prof.APIVersion, prof.Kind)
	}
	if len(prof.Operations) == 0 || len(prof.Operations) != len(slices.Compact(slices.Clone(prof.Operations))) {
		return failf("%s: FormSupport %s needs unique operations", what, prof.FormRef)
	}
	f, known := p.Cat.Form(*prof.FormRef)
	if !known {
		return nil
	}
	if !isSubsequence(prof.Operations, f.Capabilities) {
		return failf("%s: FormSupport %s operations %q are not the Definition's lifecycleCapabilities %q (or a narrowing of them, in order)", what, f.Ref, prof.Operations, f.Capabilities)
	}
	for field, vals := range sorted(prof.SupportedEnums) {
		fl, ok := f.Field(field)
		if !ok || len(fl.Enum) == 0 {
			continue
		}
		for _, v := range vals {
			if !slices.Contains(fl.Enum, v) {
				return failf("%s: supportedEnums.%s of %s lists %q, which the closed enum %q does not hold", what, field, f.Ref.Kind, v, fl.Enum)
			}
		}
	}
	if _, ok := prof.SupportedRanges["compatibilityDate"]; ok {
		return failf("%s: %s advertises supportedRanges.compatibilityDate; the runtime is fixed by its contract digest", what, f.Ref.Kind)
	}
	if _, ok := prof.SupportedEnums["compatibilityFlags"]; ok {
		return failf("%s: %s advertises supportedEnums.compatibilityFlags; the runtime is fixed by its contract digest", what, f.Ref.Kind)
	}
	return nil
}

func checkSupportProfilesPresent(ctx context.Context, p *Probe) error {
	r, err := p.get(ctx, API+"/support/forms")
	if err != nil {
		return err
	}
	if err := expectStatus(r, http.StatusOK); err != nil {
		return err
	}
	var list struct {
		Profiles []json.RawMessage `json:"profiles,required"`
	}
	if err := wire.DecodeStrict(r.Body, &list); err != nil {
		return failf("%s: not a supportProfilesResponse: %v", r.What(), err)
	}
	seen := map[wire.FormRef]json.RawMessage{}
	for _, raw := range list.Profiles {
		var prof supportProfile
		if err := wire.DecodeStrict(raw, &prof); err != nil {
			return failf("%s: a profile is not the closed support profile shape: %v", r.What(), err)
		}
		if err := p.checkFormProfile(r.What(), prof); err != nil {
			return err
		}
		if _, dup := seen[*prof.FormRef]; dup {
			return failf("%s: two profiles for %s", r.What(), prof.FormRef)
		}
		seen[*prof.FormRef] = raw
	}
	for _, f := range p.S.Forms {
		listed, ok := seen[f.Ref]
		if !ok {
			return failf("%s: no FormSupport profile for the installed %s", r.What(), f.Ref)
		}
		one, err := p.get(ctx, supportFormTarget(f.Ref))
		if err != nil {
			return err
		}
		if one.Status != http.StatusOK {
			return failf("%s: the installed %s has no support profile of its own (the route answered %s; the listing has one)", one.What(), f.Ref, one.Got())
		}
		a, errA := wire.Canonicalize(one.Body)
		b, errB := wire.Canonicalize(listed)
		if errA != nil || errB != nil || !bytes.Equal(a, b) {
			return failf("%s: the profile differs from the listing's entry for %s", one.What(), f.Ref)
		}
	}
	return p.checkContractProfiles(ctx)
}

// checkContractProfiles holds every implemented contract an installed Form
// provides or accepts to its exact digest.
func (p *Probe) checkContractProfiles(ctx context.Context) error {
	for _, f := range p.S.Forms {
		for _, in := range f.Provided {
			if !p.S.Interfaces[in.Name+"@"+in.Version] {
				continue
			}
			r, err := p.get(ctx, API+"/support/interfaces/"+in.Name+"/"+in.Version)
			if err != nil {
				return err
			}
			var prof supportProfile
			if err := wire.DecodeStrict(r.Body, &prof); err != nil || r.Status != http.StatusOK {
				return failf("%s: expected an InterfaceSupport profile, got %s", r.What(), r.Got())
			}
			if prof.Kind != "InterfaceSupport" || prof.APIVersion != SupportAPIVersion || prof.InterfaceRef == nil || *prof.InterfaceRef != in || prof.FormRef != nil || prof.BindingRef != nil {
				return failf("%s: interfaceRef must be exactly %s@%s %s, the ref %s lists; got %s", r.What(), in.Name, in.Version, in.SchemaDigest, f.Ref.Kind, snippet(r.Body))
			}
		}
		for _, b := range f.Accepted {
			if !p.S.Bindings[b.Name+"@"+b.Version] {
				continue
			}
			r, err := p.get(ctx, API+"/support/bindings/"+b.Name+"/"+b.Version)
			if err != nil {
				return err
			}
			var prof supportProfile
			if err := wire.DecodeStrict(r.Body, &prof); err != nil || r.Status != http.StatusOK {
				return failf("%s: expected a BindingSupport profile, got %s", r.What(), r.Got())
			}
			if prof.Kind != "BindingSupport" || prof.APIVersion != SupportAPIVersion || prof.BindingRef == nil || *prof.BindingRef != b || prof.FormRef != nil || prof.InterfaceRef != nil {
				return failf("%s: bindingRef must be exactly %s@%s %s; got %s", r.What(), b.Name, b.Version, b.SchemaDigest, snippet(r.Body))
			}
		}
		if prof := p.profile(f); prof != nil {
			for _, sb := range prof.SupportedBindings {
				if !p.S.Bindings[sb] {
					return failf("GET %s: %s lists supportedBindings %q, but its binding route does not answer", supportFormTarget(f.Ref), f.Ref.Kind, sb)
				}
			}
		}
	}
	return nil
}

func checkSupportFormRefusal(ctx context.Context, p *Probe) error {
	base := wire.FormRef{APIVersion: "conformance.example.test/v1alpha1", Kind: "ConformanceUnknown", DefinitionVersion: "1.0.0"}
	targets := []string{supportFormTarget(base)}
	if len(p.S.Forms) > 0 {
		v := p.S.Forms[0].Ref
		v.DefinitionVersion = "99.0.0"
		targets = append(targets, supportFormTarget(v))
	}
	for _, f := range p.Cat.Forms() {
		if _, ok := p.S.Installed(f.Ref); !ok {
			targets = append(targets, supportFormTarget(f.Ref))
		}
	}
	for _, t := range targets {
		r, err := p.get(ctx, t)
		if err != nil {
			return err
		}
		if err := expectCode(r, wire.CodeFormUnknown); err != nil {
			return failf("%s (a Form line the host does not install)", err)
		}
	}
	return nil
}

func checkSupportContractRefusal(ctx context.Context, p *Probe) error {
	targets := []string{API + "/support/interfaces/conformance.unknown/1.0.0", API + "/support/bindings/conformance-unknown/1.0.0"}
	for _, in := range p.Cat.Interfaces() {
		if !p.S.Interfaces[in.Ref.Name+"@"+in.Ref.Version] {
			targets = append(targets, API+"/support/interfaces/"+in.Ref.Name+"/"+in.Ref.Version)
		}
	}
	for _, b := range p.Cat.Bindings() {
		if !p.S.Bindings[b.Ref.Name+"@"+b.Ref.Version] {
			targets = append(targets, API+"/support/bindings/"+b.Ref.Name+"/"+b.Ref.Version)
		}
	}
	for _, t := range targets {
		r, err := p.get(ctx, t)
		if err != nil {
			return err
		}
		if err := expectCode(r, wire.CodeResourceNotFound); err != nil {
			return failf("%s (a contract the host does not implement)", err)
		}
	}
	return nil
}

var commercialMember = regexp.MustCompile(`(?i)"(price|sku|region|quota|billing)"\s*:`)

func checkNoCommercialData(ctx context.Context, p *Probe) error {
	targets := []string{API + "/support/forms"}
	for _, f := range p.S.Forms {
		targets = append(targets, supportFormTarget(f.Ref))
	}
	for _, in := range p.Cat.Interfaces() {
		targets = append(targets, API+"/support/interfaces/"+in.Ref.Name+"/"+in.Ref.Version)
	}
	for _, b := range p.Cat.Bindings() {
		targets = append(targets, API+"/support/bindings/"+b.Ref.Name+"/"+b.Ref.Version)
	}
	read := 0
	for _, t := range targets {
		r, err := p.get(ctx, t)
		if err != nil {
			return err
		}
		if expectCode(r, wire.CodeResourceNotFound) == nil {
			continue // a contract the host does not implement (docs/protocol.md#support)
		}
		if err := expectStatus(r, http.StatusOK); err != nil {
			return failf("%s (a support route answers its profile or resource_not_found)", err)
		}
		read++
		if m := commercialMember.Find(r.Body); m != nil {
			return failf("%s: a support profile carries commercial data (%s)", r.What(), m)
		}
	}
	if read == 0 {
		return failf("GET %s/support/forms: no support profile could be read", API)
	}
	return nil
}
