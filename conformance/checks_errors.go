package conformance

import (
	"context"
	"net/http"
	"strings"

	"github.com/takokit/takokit/catalog/wire"
)

// retryableCodes are the four codes that may be retried (docs/protocol.md#errors).
var retryableCodes = map[wire.Code]bool{wire.CodeResourceBusy: true, wire.CodeBackendUnavailable: true,
	wire.CodeRateLimited: true, wire.CodeDeadlineExceeded: true}

func checkErrorTaxonomy(ctx context.Context, p *Probe) error {
	// every error answer of the check carries a requestId no other answer of it
	// carried (docs/protocol.md#errors)
	seen := map[string]string{}
	unique := func(r *Resp, code string) error {
		answered := code + " to " + r.What()
		if prev, dup := seen[r.Err.RequestID]; dup {
			return failf("%s: requestId %q answered both %s and %s; it must be unique per answer", r.What(), r.Err.RequestID, prev, answered)
		}
		seen[r.Err.RequestID] = answered
		return nil
	}
	for _, code := range wire.Codes() {
		r, err := p.P.Do(ctx, Req{Method: http.MethodGet, Target: API + "/forms", Header: map[string]string{ProbeHeader: "error:" + string(code)}})
		if err != nil {
			return err
		}
		if r.Err == nil {
			return failf("%s with probe error:%s: expected a valid %d envelope, got %s", r.What(), code, code.Status(), r.Got())
		}
		if r.Err.Code != code || r.Status != code.Status() {
			return failf("%s with probe error:%s: expected %d %s, got %s", r.What(), code, code.Status(), code, r.Got())
		}
		if r.Err.Retryable != retryableCodes[code] {
			return failf("%s with probe error:%s: retryable is %v, expected %v", r.What(), code, r.Err.Retryable, retryableCodes[code])
		}
		if r.Header.Get(wire.HeaderETag) != "" {
			return failf("%s with probe error:%s: an error carries an ETag", r.What(), code)
		}
		if err := unique(r, string(code)); err != nil {
			return err
		}
	}
	r, err := p.P.Do(ctx, Req{Method: http.MethodGet, Target: API + "/forms", Header: map[string]string{ProbeHeader: "error:not_a_lane_code"}})
	if err != nil {
		return err
	}
	if err := expectCode(r, wire.CodeInvalidArgument); err != nil {
		return failf("%s (probe error: with a code outside the 26)", err)
	}
	if err := unique(r, "probe error:not_a_lane_code"); err != nil {
		return err
	}
	// Errors the host reaches by itself travel in the same envelope.
	natural := map[string]wire.Code{API + "/forms": wire.CodeInvalidArgument, API + "/operations/op_conformance" + p.run: wire.CodeOperationNotFound}
	for target, code := range sorted(natural) {
		r, err := p.get(ctx, target)
		if err != nil {
			return err
		}
		if err := expectCode(r, code); err != nil {
			return err
		}
		if err := unique(r, string(code)); err != nil {
			return err
		}
	}
	for _, t := range []struct{ method, target string }{{http.MethodPatch, API + "/forms"}, {http.MethodGet, API + "/refresh"}, {http.MethodGet, API + "/forms/"}} {
		r, err := p.P.Do(ctx, Req{Method: t.method, Target: t.target})
		if err != nil {
			return err
		}
		if err := expectCode(r, wire.CodeResourceNotFound); err != nil {
			return failf("%s (an unknown route or method; the lane has no 405)", err)
		}
		if err := unique(r, string(wire.CodeResourceNotFound)); err != nil {
			return err
		}
	}
	return nil
}

// refuseBodies sends validate and create bodies, each the canonical request
// text changed by one mutation, and expects invalid_argument for all of them.
func (p *Probe) refuseBodies(ctx context.Context, kind string, mutate map[string]func(string) string) error {
	f, spec, err := p.pickSpec(ctx, p.simpleForm)
	if err != nil {
		return err
	}
	for label, mod := range sorted(mutate) {
		name := p.Name("json")
		doc := []byte(mod(string(body(f.Ref, name, p.Space, spec, nil))))
		r, err := p.P.Do(ctx, Req{Method: http.MethodPost, Target: API + "/resources/validate", Body: doc})
		if err != nil {
			return err
		}
		if err := expectCode(r, wire.CodeInvalidArgument); err != nil {
			return failf("%s (validate with %s: %s)", err, kind, label)
		}
		put := p.applyReq(f.Ref, name, spec, flipDigest(""), "")
		put.Body = doc
		r, err = p.P.Do(ctx, put)
		if err != nil {
			return err
		}
		if err := expectCode(r, wire.CodeInvalidArgument); err != nil {
			return failf("%s (apply with %s: %s)", err, kind, label)
		}
		if err := p.notCreated(ctx, f.Ref, name, "a refused body"); err != nil {
			return err
		}
	}
	return nil
}

func checkStrictDuplicate(ctx context.Context, p *Probe) error {
	return p.refuseBodies(ctx, "a duplicate member", map[string]func(string) string{
		"kind twice": func(s string) string { return strings.Replace(s, `{`, `{"kind":"X",`, 1) },
		"kind twice, one escaped": func(s string) string {
			return strings.Replace(s, `{`, `{"\u006bind":"X",`, 1)
		},
		"name twice in metadata": func(s string) string {
			return strings.Replace(s, `"metadata":{`, `"metadata":{"name":"dup",`, 1)
		},
		"a trailing second value": func(s string) string { return s + ` {}` },
	})
}

func checkStrictUnknown(ctx context.Context, p *Probe) error {
	return p.refuseBodies(ctx, "an unknown member", map[string]func(string) string{
		"top level":         func(s string) string { return strings.Replace(s, `{`, `{"conformanceExtra":1,`, 1) },
		"in metadata":       func(s string) string { return strings.Replace(s, `"metadata":{`, `"metadata":{"labels":{},`, 1) },
		"in form":           func(s string) string { return strings.Replace(s, `"form":{`, `"form":{"owner":"x",`, 1) },
		"status in request": func(s string) string { return strings.Replace(s, `{`, `{"status":{},`, 1) },
	})
}

// badSpaces are the SpaceIDs of docs/protocol.md#spaces that must be refused.
var badSpaces = map[string]string{
	"empty":           "",
	"leading space":   " s",
	"trailing space":  "s ",
	"leading U+FEFF":  "\ufeffs",
	"trailing U+FEFF": "s\ufeff",
	"leading U+00A0":  "\u00a0s",
	"inner slash":     "a/b",
	"U+0001":          "a\u0001b",
	"U+007F":          "a\u007fb",
	"256 code points": strings.Repeat("s", 256),
}

func checkSpaceGrammar(ctx context.Context, p *Probe) error {
	f, spec, err := p.pickSpec(ctx, p.simpleForm)
	if err != nil {
		return err
	}
	for label, sp := range sorted(badSpaces) {
		r, err := p.get(ctx, ResourcePath(f.Ref, "absent")+exactQuery(sp, f.Ref))
		if err != nil {
			return err
		}
		if err := expectCode(r, wire.CodeInvalidArgument); err != nil {
			return failf("%s (space query with %s)", err, label)
		}
		r, err = p.P.Do(ctx, Req{Method: http.MethodPost, Target: API + "/resources/validate", Body: body(f.Ref, "absent", sp, spec, nil)})
		if err != nil {
			return err
		}
		if err := expectCode(r, wire.CodeInvalidArgument); err != nil {
			return failf("%s (metadata.space with %s)", err, label)
		}
	}
	inner := "conformance inner " + p.run
	r, err := p.get(ctx, ResourcePath(f.Ref, "absent")+exactQuery(inner, f.Ref))
	if err != nil {
		return err
	}
	if err := expectCode(r, wire.CodeResourceNotFound); err != nil {
		return failf("%s (a SpaceID with inner spaces is valid)", err)
	}
	return nil
}
