package conformance

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
)

type validateAnswer struct {
	Valid       bool                 `json:"valid,required"`
	Diagnostics []validateDiagnostic `json:"diagnostics,required"`
}

type validateDiagnostic struct {
	Severity string `json:"severity,required"`
	Field    string `json:"field,omitempty"`
	Message  string `json:"message,required"`
}

func (p *Probe) validate(ctx context.Context, f *catalog.Form, spec json.RawMessage) (*Resp, *validateAnswer, error) {
	r, err := p.P.Do(ctx, Req{Method: http.MethodPost, Target: API + "/resources/validate",
		Body: body(f.Ref, p.Name("val"), p.Space, spec, nil)})
	if err != nil {
		return nil, nil, err
	}
	if err := expectStatus(r, http.StatusOK); err != nil {
		return r, nil, err
	}
	var a validateAnswer
	if err := wire.DecodeStrict(r.Body, &a); err != nil {
		return r, nil, failf("%s: not a validateResponse: %v", r.What(), err)
	}
	if a.Diagnostics == nil {
		return r, nil, failf("%s: diagnostics must be present (an empty list when clean)", r.What())
	}
	return r, &a, nil
}

func checkValidateAccepts(ctx context.Context, p *Probe) error {
	n := 0
	for _, f := range p.S.Forms {
		for _, fx := range f.Fixtures {
			r, a, err := p.validate(ctx, f, fx.Desired)
			if err != nil {
				return err
			}
			if !a.Valid || len(a.Diagnostics) != 0 {
				return failf("%s: canonical fixture %q of %s: expected {\"valid\": true, \"diagnostics\": []}, got %s", r.What(), fx.Name, f.Ref, snippet(r.Body))
			}
			n++
		}
	}
	if n == 0 {
		return notApplicable("no installed Form has a canonical fixture in the runner's catalog")
	}
	return nil
}

func checkValidateRejects(ctx context.Context, p *Probe) error {
	n := 0
	for _, f := range p.S.Forms {
		for _, fx := range f.NegativeFixtures {
			if fx.Stage != "desired" {
				continue
			}
			r, a, err := p.validate(ctx, f, fx.Input)
			if err != nil {
				return err
			}
			hasError := false
			for _, d := range a.Diagnostics {
				hasError = hasError || d.Severity == "error"
			}
			if a.Valid || !hasError {
				return failf("%s: negative fixture %q of %s: expected valid:false with an error diagnostic, got %s", r.What(), fx.Name, f.Ref, snippet(r.Body))
			}
			n++
		}
	}
	if n == 0 {
		return notApplicable("no installed Form has a negative desired fixture in the runner's catalog")
	}
	return nil
}

func checkPrepareBinds(ctx context.Context, p *Probe) error {
	f, spec, err := p.pickSpec(ctx, p.simpleForm)
	if err != nil {
		return err
	}
	name := p.Name("prep")
	r, _, err := p.prepare(ctx, p.P, f.Ref, name, spec, "")
	if err != nil {
		return err
	}
	if err := expectStatus(r, http.StatusOK); err != nil {
		return err
	}
	var ans struct {
		Resource struct {
			APIVersion string `json:"apiVersion,required"`
			Kind       string `json:"kind,required"`
			Form       struct {
				FormRef       wire.FormRef `json:"formRef,required"`
				PackageDigest string       `json:"packageDigest,omitempty"`
			} `json:"form,required"`
			Metadata struct {
				Name  string `json:"name,required"`
				Space string `json:"space,required"`
			} `json:"metadata,required"`
			Spec json.RawMessage `json:"spec,required"`
		} `json:"resource,required"`
		Review struct {
			PrepareDigest string `json:"prepareDigest,required"`
			SpecDigest    string `json:"specDigest,required"`
		} `json:"review,required"`
	}
	if err := wire.DecodeStrict(r.Body, &ans); err != nil {
		return failf("%s: not a prepareResponse: %v", r.What(), err)
	}
	res := ans.Resource
	if res.APIVersion != f.Ref.APIVersion || res.Kind != f.Ref.Kind || res.Form.FormRef != f.Ref ||
		res.Metadata.Name != name || res.Metadata.Space != p.Space {
		return failf("%s: the echoed identity differs from the request: %s", r.What(), snippet(r.Body))
	}
	sent, _ := wire.DigestValue(spec)
	echoed, err := wire.Digest(res.Spec)
	if err != nil {
		return failf("%s: echoed spec does not canonicalize: %v", r.What(), err)
	}
	if echoed != sent || ans.Review.SpecDigest != sent {
		return failf("%s: review.specDigest %s, digest of the echoed spec %s, digest of the sent materialized spec %s: all three must be equal", r.What(), ans.Review.SpecDigest, echoed, sent)
	}
	return nil // a review.prepareDigest that is no digest failed p.prepare already
}

// notCreated fails unless name reads as absent under ref.
func (p *Probe) notCreated(ctx context.Context, ref wire.FormRef, name, why string) error {
	r, err := p.read(ctx, p.P, ref, name)
	if err != nil {
		return err
	}
	if r.Code() != wire.CodeResourceNotFound {
		return failf("%s: after %s the resource must not exist; got %s", r.What(), why, r.Got())
	}
	return nil
}

func checkPrepareSubstitution(ctx context.Context, p *Probe) error {
	f, spec, err := p.pickSpec(ctx, p.simpleForm)
	if err != nil {
		return err
	}
	a, b := p.Name("sub"), p.Name("sub")
	pr, digest, err := p.prepare(ctx, p.P, f.Ref, a, spec, "")
	if err != nil {
		return err
	}
	if err := expectStatus(pr, http.StatusOK); err != nil {
		return err
	}
	r, err := p.P.Do(ctx, p.applyReq(f.Ref, b, spec, digest, ""))
	if err != nil {
		return err
	}
	if err := expectCode(r, wire.CodeInvalidArgument); err != nil {
		return failf("%s (a prepareDigest minted for %q spent on %q)", err, a, b)
	}
	if err := p.notCreated(ctx, f.Ref, b, "a substituted name"); err != nil {
		return err
	}
	if alt, field, ok := variant(f, spec, p.Name("alt"), mutable(f)); ok {
		r, err := p.P.Do(ctx, p.applyReq(f.Ref, a, alt, digest, ""))
		if err != nil {
			return err
		}
		if err := expectCode(r, wire.CodeInvalidArgument); err != nil {
			return failf("%s (a prepareDigest spent on a spec with another %s)", err, field)
		}
		if err := p.notCreated(ctx, f.Ref, a, "a substituted spec"); err != nil {
			return err
		}
	}
	return nil
}

func checkPrepareRequiresFence(ctx context.Context, p *Probe) error {
	f, spec, err := p.pickSpec(ctx, p.simpleForm)
	if err != nil {
		return err
	}
	name := p.Name("fence")
	r, _, err := p.prepare(ctx, p.P, f.Ref, name, spec, "1")
	if err != nil {
		return err
	}
	if err := expectCode(r, wire.CodeResourceNotFound); err != nil {
		return failf("%s (a fence sent for a name that holds nothing)", err)
	}
	if _, err := p.create(ctx, f, name, spec); err != nil {
		return err
	}
	for fence, code := range sorted(map[string]wire.Code{"": wire.CodeInvalidArgument, "2": wire.CodeGenerationConflict, "01": wire.CodeInvalidArgument}) {
		r, _, err := p.prepare(ctx, p.P, f.Ref, name, spec, fence)
		if err != nil {
			return err
		}
		if err := expectCode(r, code); err != nil {
			return failf("%s (prepare of an existing resource with fence %q)", err, fence)
		}
	}
	r, _, err = p.prepare(ctx, p.P, f.Ref, name, spec, "1")
	if err != nil {
		return err
	}
	return expectStatus(r, http.StatusOK)
}

func checkStalePrepare(ctx context.Context, p *Probe) error {
	f, spec, err := p.pickSpec(ctx, p.simpleForm)
	if err != nil {
		return err
	}
	name := p.Name("stale")
	digest, err := p.prepared(ctx, p.P, f.Ref, name, spec, "")
	if err != nil {
		return err
	}
	r, err := p.P.Do(ctx, p.applyReq(f.Ref, name, spec, digest, ""))
	if err != nil {
		return err
	}
	if _, err := p.settle(ctx, p.P, r, http.StatusCreated); err != nil {
		return err
	}
	// The create-marker digest is stale once the resource exists at generation 1.
	r, err = p.P.Do(ctx, p.applyReq(f.Ref, name, spec, digest, "1"))
	if err != nil {
		return err
	}
	if err := expectCode(r, wire.CodeInvalidArgument); err != nil {
		return failf("%s (a prepareDigest minted before the resource existed, spent on its update)", err)
	}
	r, err = p.P.Do(ctx, p.applyReq(f.Ref, name, spec, flipDigest(digest), "1"))
	if err != nil {
		return err
	}
	if err := expectCode(r, wire.CodeInvalidArgument); err != nil {
		return failf("%s (a prepareDigest the host never minted)", err)
	}
	return nil
}
