package conformance

import (
	"context"
	"net/http"
	"net/url"
	"strings"

	"github.com/takokit/takokit/catalog/wire"
)

// requiredFeatures are the seven discovery features the lane requires (docs/protocol.md#discovery).
var requiredFeatures = []string{"service_forms", "exact_form_ref", "optimistic_concurrency",
	"idempotent_lifecycle", "operations", "artifact_upload", "support_profiles"}

type discoveryDoc struct {
	APIVersions []string        `json:"api_versions,required"`
	Features    map[string]bool `json:"features,required"`
	Endpoints   struct {
		API        string `json:"api,required"`
		Artifacts  string `json:"artifacts,omitempty"`
		Operations string `json:"operations,omitempty"`
		Support    string `json:"support,omitempty"`
		OIDCIssuer string `json:"oidc_issuer,omitempty"`
	} `json:"endpoints,required"`
}

func checkDiscoveryExact(ctx context.Context, p *Probe) error {
	r, err := p.get(ctx, DiscoveryPath)
	if err != nil {
		return err
	}
	if err := expectStatus(r, http.StatusOK); err != nil {
		return err
	}
	var d discoveryDoc
	if err := wire.DecodeStrict(r.Body, &d); err != nil {
		return failf("%s: discovery document is not the closed shape: %v", r.What(), err)
	}
	lane := r.Lane
	if len(d.APIVersions) != 1 || d.APIVersions[0] != lane.APIVersion {
		return failf("%s: api_versions is %q, expected exactly [%q]", r.What(), d.APIVersions, lane.APIVersion)
	}
	for _, f := range requiredFeatures {
		if !d.Features[f] {
			return failf("%s: feature %q must be present and true", r.What(), f)
		}
	}
	origin, err := url.Parse(p.P.Origin)
	if err != nil {
		return err
	}
	api := d.Endpoints.API
	if err := sameOrigin(origin, api); err != nil {
		return failf("%s: endpoints.api %q: %v", r.What(), api, err)
	}
	u, _ := url.Parse(api)
	if u.EscapedPath() != lane.APIRoot || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return failf("%s: endpoints.api %q must be the origin plus exactly %s", r.What(), api, lane.APIRoot)
	}
	for name, v := range sorted(map[string]string{"artifacts": d.Endpoints.Artifacts, "operations": d.Endpoints.Operations, "support": d.Endpoints.Support}) {
		if v != "" && v != api+"/"+name {
			return failf("%s: endpoints.%s is %q, expected %q", r.What(), name, v, api+"/"+name)
		}
	}
	if d.Endpoints.OIDCIssuer != "" && !strings.HasPrefix(d.Endpoints.OIDCIssuer, "https://") {
		return failf("%s: endpoints.oidc_issuer %q must start with https://", r.What(), d.Endpoints.OIDCIssuer)
	}
	return nil
}

// sameOrigin compares scheme, host (case-insensitively) and effective port.
func sameOrigin(origin *url.URL, raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return err
	}
	port := func(x *url.URL) string {
		if p := x.Port(); p != "" {
			return p
		}
		if strings.EqualFold(x.Scheme, "https") {
			return "443"
		}
		return "80"
	}
	if !strings.EqualFold(u.Scheme, origin.Scheme) || !strings.EqualFold(u.Hostname(), origin.Hostname()) || port(u) != port(origin) {
		return failf("not same-origin with the configured endpoint %s", origin)
	}
	return nil
}

// unauthenticatedVariants are Authorization values that name nobody.
func unauthenticatedVariants(run string) map[string]Req {
	return map[string]Req{
		"no Authorization header": {NoAuth: true},
		"Basic scheme":            {RawAuth: "Basic Y29uZm9ybWFuY2U6eA=="},
		"Bearer without a token":  {RawAuth: "Bearer"},
		"unknown token":           {RawAuth: "Bearer conformance-unknown-" + run},
		"two tokens":              {RawAuth: "Bearer a b"},
	}
}

func checkUnauthenticated(ctx context.Context, p *Probe) error {
	f, err := p.simpleForm()
	targets := []struct{ method, target string }{
		{http.MethodGet, DiscoveryPath},
		{http.MethodGet, API + "/support/forms"},
		{http.MethodGet, API + "/operations/op_conformance"},
		{http.MethodPost, API + "/resources/validate"},
	}
	if err == nil {
		targets = append(targets,
			struct{ method, target string }{http.MethodGet, ResourcePath(f.Ref, "absent") + exactQuery(p.Space, f.Ref)},
			struct{ method, target string }{http.MethodPut, ResourcePath(f.Ref, p.Name("unauth"))})
	}
	for _, scheme := range []string{"bearer", "BEARER"} {
		r, err := p.P.Do(ctx, Req{Method: http.MethodGet, Target: DiscoveryPath, RawAuth: scheme + " " + p.P.token})
		if err != nil {
			return err
		}
		if err := expectStatus(r, http.StatusOK); err != nil {
			return failf("%v (the Bearer scheme is matched case-insensitively: %q)", err, scheme)
		}
	}
	for _, t := range targets {
		for label, v := range sorted(unauthenticatedVariants(p.run)) {
			v.Method, v.Target = t.method, t.target
			if t.method != http.MethodGet {
				v.Body = []byte("{}")
				v.Header = map[string]string{wire.HeaderIdempotencyKey: newKey(), wire.HeaderIfNoneMatch: "*"}
			}
			r, err := p.P.Do(ctx, v)
			if err != nil {
				return err
			}
			if err := expectCode(r, wire.CodeUnauthenticated); err != nil {
				return failf("%s (%s)", err, label)
			}
		}
	}
	return nil
}
