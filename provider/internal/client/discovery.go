package client

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/takokit/takokit/catalog/wire"
)

// Discovery is a validated discovery document. Operations, Artifacts and Support
// are {API}/operations, /artifacts and /support: the only URLs a document may name
// for them, and what they are when it names none.
type Discovery struct {
	API        string
	Operations string
	Artifacts  string
	Support    string
	Features   map[string]bool
}

// DiscoveryError is the "Host discovery failed" error naming the rule broken.
type DiscoveryError struct {
	Rule string
	Err  error // the underlying host/transport error, when any
	// HostLane is the lane the host speaks when it is not the client's (the host
	// answered another lane's discovery path); nil otherwise.
	HostLane *wire.Lane
}

func (e *DiscoveryError) Error() string { return "host discovery failed: " + e.Rule }
func (e *DiscoveryError) Unwrap() error { return e.Err }

// RequiredFeatures must each be true.
var RequiredFeatures = []string{"service_forms", "exact_form_ref", "optimistic_concurrency",
	"idempotent_lifecycle", "operations", "artifact_upload", "support_profiles"}

type discoveryCall struct {
	done chan struct{}
	d    *Discovery
	err  error
}

// Discover returns the cached discovery or performs one attempt (bounded by 15 s).
// Failures are not cached; concurrent callers share one in-flight attempt.
func (c *Client) Discover(ctx context.Context) (*Discovery, error) {
	c.mu.Lock()
	if c.disc != nil {
		d := c.disc
		c.mu.Unlock()
		return d, nil
	}
	if call := c.inflight; call != nil {
		c.mu.Unlock()
		select {
		case <-call.done:
			return call.d, call.err
		case <-ctx.Done():
			return nil, &DiscoveryError{Rule: "the discovery request was cancelled", Err: ctx.Err()}
		}
	}
	call := &discoveryCall{done: make(chan struct{})}
	c.inflight = call
	c.mu.Unlock()

	dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), DiscoveryTimeout)
	call.d, call.err = c.discover(dctx)
	cancel()

	c.mu.Lock()
	if call.err == nil {
		c.disc = call.d
	}
	c.inflight = nil
	c.mu.Unlock()
	close(call.done)
	return call.d, call.err
}

type discoveryDoc struct {
	APIVersions []string        `json:"api_versions"`
	Features    map[string]bool `json:"features"`
	Endpoints   *struct {
		API        *string `json:"api"`
		Artifacts  *string `json:"artifacts"`
		Operations *string `json:"operations"`
		Support    *string `json:"support"`
		OIDCIssuer *string `json:"oidc_issuer"`
	} `json:"endpoints"`
}

func (c *Client) discover(ctx context.Context) (*Discovery, error) {
	wellKnown := c.lane.DiscoveryPath
	resp, err := c.get(ctx, c.origin.String()+wellKnown)
	if st := answeredStatus(resp, err); st != 200 && (err == nil || st == http.StatusNotFound) {
		// the host answered, but not on this lane's path (a 2xx other than 200, or a 404
		// with or without an error envelope): it may speak another lane
		if other := c.otherLane(ctx); other != nil {
			return nil, &DiscoveryError{Rule: fmt.Sprintf("GET %s found no discovery document: the host speaks %s, but this provider speaks %s",
				wellKnown, other.Describe(), c.lane.Describe()), HostLane: other, Err: err}
		}
	}
	if err != nil {
		return nil, &DiscoveryError{Rule: "GET " + wellKnown + " did not answer 200: " + err.Error(), Err: err}
	}
	if resp.Status != 200 {
		return nil, &DiscoveryError{Rule: fmt.Sprintf("GET %s answered HTTP %d, not 200", wellKnown, resp.Status)}
	}
	return c.parseDiscovery(resp.Body)
}

// otherLane asks the discovery path of every other known lane and returns the lane
// whose document the host serves there, or nil: what turns a plain 404 into "the
// host speaks another lane" (docs/protocol.md#lanes).
func (c *Client) otherLane(ctx context.Context) *wire.Lane {
	for _, l := range wire.Lanes() {
		if l == c.lane {
			continue
		}
		resp, err := c.get(ctx, c.origin.String()+l.DiscoveryPath)
		if err != nil || resp.Status != 200 {
			continue
		}
		var doc discoveryDoc
		if json.Unmarshal(resp.Body, &doc) == nil && len(doc.APIVersions) == 1 && doc.APIVersions[0] == l.APIVersion {
			return l
		}
	}
	return nil
}

// parseDiscovery validates a discovery document against docs/provider-design.md#configuration.
func (c *Client) parseDiscovery(body []byte) (*Discovery, error) {
	var doc discoveryDoc
	if err := wire.DecodeStrict(body, &doc); err != nil {
		return nil, &DiscoveryError{Rule: "the discovery document is not strict I-JSON with only api_versions, features and endpoints: " + err.Error()}
	}
	if len(doc.APIVersions) != 1 || doc.APIVersions[0] != c.lane.APIVersion {
		return nil, &DiscoveryError{Rule: fmt.Sprintf("api_versions must be exactly [%q]", c.lane.APIVersion)}
	}
	for _, f := range RequiredFeatures {
		if !doc.Features[f] {
			return nil, &DiscoveryError{Rule: fmt.Sprintf("features.%s must be true", f)}
		}
	}
	if doc.Endpoints == nil || doc.Endpoints.API == nil {
		return nil, &DiscoveryError{Rule: "endpoints.api is required"}
	}
	d := &Discovery{Features: doc.Features}
	api := *doc.Endpoints.API
	if err := c.checkEndpoint("api", api, c.lane.APIRoot); err != nil {
		return nil, err
	}
	d.API = api
	opt := []struct {
		name string
		v    *string
		dst  *string
	}{{"artifacts", doc.Endpoints.Artifacts, &d.Artifacts}, {"operations", doc.Endpoints.Operations, &d.Operations},
		{"support", doc.Endpoints.Support, &d.Support}}
	for _, o := range opt {
		// an endpoint the document names must be exactly {api}/NAME, so every one is
		// that URL, named or not, and callers read it without a fallback
		if o.v != nil {
			if err := c.checkEndpoint(o.name, *o.v, c.lane.APIRoot+"/"+o.name); err != nil {
				return nil, err
			}
		}
		*o.dst = api + "/" + o.name
	}
	if iss := doc.Endpoints.OIDCIssuer; iss != nil {
		u, err := url.Parse(*iss)
		if err != nil || u.Scheme != "https" || u.Host == "" {
			return nil, &DiscoveryError{Rule: "endpoints.oidc_issuer must be an absolute https URL"}
		}
	}
	return d, nil
}

// checkEndpoint applies the same-origin and exact escaped path rules.
func (c *Client) checkEndpoint(name, raw, wantPath string) error {
	fail := func(why string) error {
		return &DiscoveryError{Rule: fmt.Sprintf("endpoints.%s %q %s", name, raw, why)}
	}
	u, err := url.Parse(raw)
	if err != nil || !u.IsAbs() || u.Host == "" {
		return fail("is not an absolute URL")
	}
	if u.User != nil {
		return fail("carries user information")
	}
	// a query (even an empty one) or a fragment (even an empty one) needs a ? or a #
	if strings.ContainsAny(raw, "?#") {
		return fail("carries a query or fragment")
	}
	if !sameOrigin(c.origin, u) {
		return fail("is not on the configured origin " + c.origin.String() + " (scheme, host and port must match)")
	}
	esc := u.EscapedPath()
	if strings.Contains(esc, "%") || strings.Contains(raw, "%") {
		return fail("contains a percent-escape in its path")
	}
	if esc != wantPath {
		return fail("must have the path " + wantPath)
	}
	return nil
}

func sameOrigin(a, b *url.URL) bool {
	if !strings.EqualFold(a.Scheme, b.Scheme) || !strings.EqualFold(a.Hostname(), b.Hostname()) {
		return false
	}
	return effectivePort(a) == effectivePort(b)
}

func effectivePort(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	if strings.EqualFold(u.Scheme, "https") {
		return "443"
	}
	return "80"
}
