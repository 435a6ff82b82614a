package conformance

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
)

type formReference struct {
	FormRef       wire.FormRef `json:"formRef,required"`
	PackageDigest string       `json:"packageDigest,omitempty"`
}

type formAvailability struct {
	Identity             formReference `json:"identity,required"`
	DefinitionKnown      bool          `json:"definitionKnown,required"`
	Installed            bool          `json:"installed,required"`
	Executable           bool          `json:"executable,required"`
	Activated            bool          `json:"activated,required"`
	AvailableToPrincipal bool          `json:"availableToPrincipal,required"`
	Operations           []string      `json:"operations,required"`
	Deprecated           *bool         `json:"deprecated,omitempty"`
}

func formsTarget(space string, ref wire.FormRef) string {
	return API + "/forms" + exactQuery(space, ref)
}

func definitionTarget(space string, ref wire.FormRef) string {
	return API + "/form-definitions/" + ref.APIVersion + "/" + ref.Kind + exactQuery(space, ref)
}

func supportFormTarget(ref wire.FormRef) string {
	return API + "/support/forms/" + ref.APIVersion + "/" + ref.Kind + "/" + ref.DefinitionVersion
}

// availability reads the forms probe for ref and checks the one entry.
func (p *Probe) availability(ctx context.Context, f *catalog.Form) error {
	r, err := p.get(ctx, formsTarget(p.Space, f.Ref))
	if err != nil {
		return err
	}
	if err := expectStatus(r, http.StatusOK); err != nil {
		return err
	}
	var ans struct {
		Forms []formAvailability `json:"forms,required"`
	}
	if err := wire.DecodeStrict(r.Body, &ans); err != nil {
		return failf("%s: not a formsResponse: %v", r.What(), err)
	}
	if len(ans.Forms) != 1 {
		return failf("%s: expected exactly one formAvailability for an installed FormRef, got %d", r.What(), len(ans.Forms))
	}
	a := ans.Forms[0]
	switch {
	case a.Identity.FormRef != f.Ref:
		return failf("%s: identity.formRef is %s, expected %s", r.What(), a.Identity.FormRef, f.Ref)
	case a.Identity.PackageDigest != "" && !wire.ValidDigest(a.Identity.PackageDigest):
		return failf("%s: identity.packageDigest %q is not a digest", r.What(), a.Identity.PackageDigest)
	case !(a.DefinitionKnown && a.Installed && a.Executable && a.Activated && a.AvailableToPrincipal):
		return failf("%s: definitionKnown, installed, executable, activated and availableToPrincipal must all be true for an installed Form", r.What())
	case !slices.Equal(a.Operations, p.S.Operations(f)):
		// a partial host narrows them as its FormSupport profile states (support-profiles-present
		// holds that statement to the Definition; docs/guides/partial-hosts.md)
		return failf("%s: operations %q, expected %q: the Definition's lifecycleCapabilities in order, narrowed only as the host's support profile states", r.What(), a.Operations, p.S.Operations(f))
	}
	return nil
}

func checkFormsExactAvailability(ctx context.Context, p *Probe) error {
	if len(p.S.Forms) == 0 {
		return notApplicable("the host installs no Form known to the runner's catalog%s", p.S.foreignNote())
	}
	for _, f := range p.S.Forms {
		if err := p.availability(ctx, f); err != nil {
			return err
		}
	}
	return nil
}

// definition reads form-definition for f and compares it with the catalog.
func (p *Probe) definition(ctx context.Context, f *catalog.Form) error {
	r, err := p.get(ctx, definitionTarget(p.Space, f.Ref))
	if err != nil {
		return err
	}
	if err := expectStatus(r, http.StatusOK); err != nil {
		return err
	}
	var ans struct {
		Identity      formReference   `json:"identity,required"`
		DisplayName   string          `json:"displayName,omitempty"`
		Description   string          `json:"description,omitempty"`
		DesiredSchema json.RawMessage `json:"desiredSchema,required"`
	}
	if err := wire.DecodeStrict(r.Body, &ans); err != nil {
		return failf("%s: not a formDefinitionResponse (outputSchema is never served): %v", r.What(), err)
	}
	if ans.Identity.FormRef != f.Ref {
		return failf("%s: identity.formRef is %s, expected %s", r.What(), ans.Identity.FormRef, f.Ref)
	}
	if ans.DisplayName != f.Title {
		return failf("%s: displayName %q, expected the Definition's title %q", r.What(), ans.DisplayName, f.Title)
	}
	if ans.Description != f.Description {
		return failf("%s: description %q, expected the Definition's description %q", r.What(), ans.Description, f.Description)
	}
	got, err := wire.Canonicalize(ans.DesiredSchema)
	if err != nil {
		return failf("%s: desiredSchema does not canonicalize: %v", r.What(), err)
	}
	want, err := wire.Canonicalize(f.DesiredJSON)
	if err != nil {
		return err
	}
	if !bytes.Equal(got, want) {
		return failf("%s: desiredSchema differs from the installed Definition's after RFC 8785 canonicalization", r.What())
	}
	return nil
}

func checkFormDefinitionExact(ctx context.Context, p *Probe) error {
	if len(p.S.Forms) == 0 {
		return notApplicable("the host installs no Form known to the runner's catalog%s", p.S.foreignNote())
	}
	for _, f := range p.S.Forms {
		if err := p.definition(ctx, f); err != nil {
			return err
		}
	}
	return nil
}

// unknownRefs derives FormRefs that must not resolve from an installed one.
func (p *Probe) unknownRefs(f *catalog.Form) map[string]wire.FormRef {
	out := map[string]wire.FormRef{}
	v := f.Ref
	v.DefinitionVersion = "99.0.0-conformance"
	out["unknown definitionVersion"] = v
	d := f.Ref
	d.SchemaDigest = flipDigest(d.SchemaDigest)
	out["unknown schemaDigest"] = d
	if k, ok := p.Cat.Kind(f.Ref.APIVersion, f.Ref.Kind); ok {
		for _, o := range k.Versions {
			if o.Ref != f.Ref {
				mix := f.Ref
				mix.SchemaDigest = o.Ref.SchemaDigest
				out["version of one definition with the digest of another"] = mix
			}
		}
	}
	return out
}

func flipDigest(d string) string {
	if d == "" {
		return wire.DigestPrefix + strings.Repeat("0", 64)
	}
	last := d[len(d)-1]
	repl := byte('0')
	if last == '0' {
		repl = '1'
	}
	return d[:len(d)-1] + string(repl)
}

func checkExactFormRefFailsClosed(ctx context.Context, p *Probe) error {
	f, err := p.simpleForm()
	if err != nil {
		return err
	}
	name := p.Name("exact")
	spec, err := p.specFor(ctx, f)
	if err != nil {
		return err
	}
	if _, err := p.create(ctx, f, name, spec); err != nil {
		return err
	}
	for label, ref := range sorted(p.unknownRefs(f)) {
		for _, t := range []string{formsTarget(p.Space, ref), definitionTarget(p.Space, ref),
			ResourcePath(ref, name) + exactQuery(p.Space, ref)} {
			r, err := p.get(ctx, t)
			if err != nil {
				return err
			}
			if err := expectCode(r, wire.CodeFormUnknown); err != nil {
				return failf("%s (%s)", err, label)
			}
		}
		r, err := p.P.Do(ctx, Req{Method: http.MethodPost, Target: API + "/resources/validate", Body: body(ref, name, p.Space, spec, nil)})
		if err != nil {
			return err
		}
		if err := expectCode(r, wire.CodeFormUnknown); err != nil {
			return failf("%s (%s)", err, label)
		}
	}
	return nil
}

// twoVersions finds an installed kind with two installed definition versions.
func (p *Probe) twoVersions() (a, b *catalog.Form, err error) {
	for _, f := range p.S.Forms {
		for _, g := range p.S.Forms {
			if f != g && f.Ref.APIVersion == g.Ref.APIVersion && f.Ref.Kind == g.Ref.Kind {
				return f, g, nil
			}
		}
	}
	return nil, nil, notApplicable("the host installs no kind in two definition versions")
}

func checkTwoVersions(ctx context.Context, p *Probe) error {
	a, b, err := p.twoVersions()
	if err != nil {
		return err
	}
	for _, f := range []*catalog.Form{a, b} {
		if err := p.availability(ctx, f); err != nil {
			return err
		}
		if err := p.definition(ctx, f); err != nil {
			return err
		}
		r, err := p.get(ctx, supportFormTarget(f.Ref))
		if err != nil {
			return err
		}
		if err := expectStatus(r, http.StatusOK); err != nil {
			return err
		}
		var prof struct {
			FormRef wire.FormRef `json:"formRef"`
		}
		if json.Unmarshal(r.Body, &prof) != nil || prof.FormRef != f.Ref {
			return failf("%s: FormSupport formRef is %s, expected %s", r.What(), prof.FormRef, f.Ref)
		}
	}
	return nil
}

func checkGroupTwoSegments(ctx context.Context, p *Probe) error {
	f, err := p.simpleForm()
	if err != nil {
		return err
	}
	if !strings.Contains(f.Ref.APIVersion, "/") {
		return notApplicable("%s has no namespaced group", f.Ref)
	}
	escaped := strings.Replace(f.Ref.APIVersion, "/", "%2F", 1)
	r, err := p.get(ctx, API+"/form-definitions/"+escaped+"/"+f.Ref.Kind+exactQuery(p.Space, f.Ref))
	if err != nil {
		return err
	}
	if err := expectCode(r, wire.CodeResourceNotFound); err != nil {
		return failf("%s (a group sent as one %%2F segment names no route)", err)
	}
	name := p.Name("seg")
	spec, err := p.specFor(ctx, f)
	if err != nil {
		return err
	}
	res, err := p.create(ctx, f, name, spec)
	if err != nil {
		return err
	}
	if res.APIVersion != f.Ref.APIVersion || res.Ref().APIVersion != f.Ref.APIVersion {
		return failf("PUT %s: the answer carries apiVersion %q, expected the group unchanged %q", ResourcePath(f.Ref, name), res.APIVersion, f.Ref.APIVersion)
	}
	r, err = p.get(ctx, API+"/resources/"+escaped+"/"+f.Ref.Kind+"/"+name+exactQuery(p.Space, f.Ref))
	if err != nil {
		return err
	}
	if err := expectCode(r, wire.CodeResourceNotFound); err != nil {
		return failf("%s (a group sent as one %%2F segment names no route)", err)
	}
	_, err = p.readResource(ctx, f.Ref, name)
	return err
}
