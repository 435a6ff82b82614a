// Package client speaks the lane of the provider's catalog (docs/protocol.md#lanes) for the provider:
// strict discovery, fenced and keyed mutations, 202 polling, bounded retries and
// the single byte-identical resend after a transport failure (docs/provider-design.md#configuration).
package client

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/takokit/takokit/catalog/wire"
)

const (
	// MaxBody bounds every response body the client reads.
	MaxBody = 8 << 20
	// MaxRequest bounds one HTTP request regardless of the operation deadline.
	MaxRequest = 12 * time.Minute
	// DiscoveryTimeout bounds one discovery attempt.
	DiscoveryTimeout = 15 * time.Second
)

// Config is what one provider configuration hands the client.
type Config struct {
	Endpoint string
	Token    string
	Version  string
	// Lane is the lane the client speaks: its discovery path and API root (nil = the
	// default lane). A provider passes its catalog's lane.
	Lane *wire.Lane
	// HTTP overrides the transport (tests); redirects are refused either way.
	HTTP *http.Client
	// SupportRetryWait overrides the 250 ms pause before a failed support read's one
	// retry (tests: a plan against a host that cannot answer waits it each time); 0
	// keeps 250 ms. A host's Retry-After still wins.
	SupportRetryWait time.Duration
}

// Client is per provider configuration: discovery is cached in it.
type Client struct {
	lane   *wire.Lane
	origin *url.URL
	token  string
	agent  string
	hc     *http.Client
	// mut serves requests other than GET on connections that are never reused, so
	// net/http never replays a mutation by itself: the one resend of docs/provider-design.md
	// docs/provider-design.md#lifecycle is the client's own, exactly once.
	mut     *http.Client
	backoff func(attempt int) time.Duration
	// supportRetryWait is the pause before a failed support read's one retry.
	supportRetryWait time.Duration

	supportCache supportCache

	mu       sync.Mutex
	disc     *Discovery
	inflight *discoveryCall
}

// New validates the endpoint and builds a client. It makes no request.
func New(cfg Config) (*Client, error) {
	origin, err := ParseEndpoint(cfg.Endpoint)
	if err != nil {
		return nil, err
	}
	if cfg.Token == "" {
		return nil, errors.New("token is empty")
	}
	// OpenTofu runs 10 resource operations at once; the default transport keeps only 2
	// idle connections per host, so most reads of a refresh would open a new connection.
	reads := http.DefaultTransport.(*http.Transport).Clone()
	reads.MaxIdleConnsPerHost = 16
	hc := &http.Client{Transport: reads}
	if cfg.HTTP != nil {
		c := *cfg.HTTP
		hc = &c
	}
	hc.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	mut := *hc
	if t, ok := hc.Transport.(*http.Transport); ok {
		nt := t.Clone()
		nt.DisableKeepAlives = true
		mut.Transport = nt
	}
	version := cfg.Version
	if version == "" {
		version = "dev"
	}
	lane := cfg.Lane
	if lane == nil {
		lane = wire.DefaultLane
	}
	supportWait := cfg.SupportRetryWait
	if supportWait <= 0 {
		supportWait = supportRetryWait
	}
	return &Client{lane: lane, origin: origin, token: cfg.Token, agent: "terraform-provider-takoform/" + version,
		hc: hc, mut: &mut, backoff: jitterBackoff, supportRetryWait: supportWait}, nil
}

// ParseEndpoint checks the bare-origin rule of docs/provider-design.md#configuration and returns the origin.
func ParseEndpoint(raw string) (*url.URL, error) {
	if origin, ok := wire.SchemelessOrigin(raw); ok {
		return nil, fmt.Errorf("endpoint %q has no scheme: write %s", raw, origin)
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("endpoint %q is not a URL: %v", raw, err)
	}
	origin := u.Scheme + "://" + u.Host
	switch {
	case !u.IsAbs() || u.Host == "":
		return nil, fmt.Errorf("endpoint %q must be an absolute URL such as https://host.example", raw)
	case u.Scheme != "https" && u.Scheme != "http":
		return nil, fmt.Errorf("endpoint %q must use https (or http for a loopback host)", raw)
	case u.User != nil:
		return nil, fmt.Errorf("endpoint %q must not carry user information; the token is configured separately", raw)
	case u.Path != "" && u.Path != "/": // an escaped character decodes into the path: "/%2F" is "//"
		return nil, fmt.Errorf("endpoint %q must be a bare origin with no path: write %s (the provider finds the API through discovery)", raw, origin)
	case u.RawQuery != "" || u.ForceQuery:
		return nil, fmt.Errorf("endpoint %q must not carry a query: write %s", raw, origin)
	case u.Fragment != "" || strings.Contains(raw, "#"):
		return nil, fmt.Errorf("endpoint %q must not carry a fragment: write %s", raw, origin)
	case u.Scheme == "http" && !wire.IsLoopbackHost(u.Hostname()):
		return nil, fmt.Errorf("endpoint %q uses plain http to a host that is not loopback; use https (http is allowed only for localhost, 127.0.0.0/8 and ::1)", raw)
	}
	return &url.URL{Scheme: u.Scheme, Host: u.Host}, nil
}

// Lane is the lane the client speaks.
func (c *Client) Lane() *wire.Lane { return c.lane }

// Origin is the configured origin (scheme://host[:port]).
func (c *Client) Origin() string { return c.origin.String() }

// Request is one HTTP exchange the client performs.
type Request struct {
	Method string
	URL    string
	Header http.Header
	Body   []byte
	// ContentType defaults to application/json when Body is set.
	ContentType string
}

// Response is a complete answer (status, headers, body read in full).
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// do performs exactly one exchange and logs it (log.go). A failure to obtain a complete
// answer is a *TransportError; a 3xx is a *ProtocolError (redirects would carry the bearer elsewhere).
func (c *Client) do(ctx context.Context, r Request) (*Response, error) {
	ctx, cancel := context.WithTimeout(ctx, MaxRequest)
	defer cancel()
	var body io.Reader
	if r.Body != nil {
		body = bytes.NewReader(r.Body)
	}
	req, err := http.NewRequestWithContext(ctx, r.Method, r.URL, body)
	if err != nil {
		return nil, &TransportError{Method: r.Method, URL: r.URL, Err: err}
	}
	for k, v := range r.Header {
		req.Header[k] = v
	}
	req.Header.Set(wire.HeaderAuthorization, "Bearer "+c.token)
	req.Header.Set("Accept", wire.ContentTypeJSON)
	req.Header.Set("User-Agent", c.agent)
	if r.Body != nil {
		ct := r.ContentType
		if ct == "" {
			ct = wire.ContentTypeJSON
		}
		req.Header.Set(wire.HeaderContentType, ct)
	}
	hc := c.hc
	if r.Method != http.MethodGet {
		hc = c.mut
		req.GetBody = nil
	}
	start := time.Now()
	resp, err := hc.Do(req)
	if err != nil {
		c.logRequest(ctx, req, nil, nil, err, time.Since(start))
		return nil, &TransportError{Method: r.Method, URL: r.URL, Err: err}
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, MaxBody+1))
	c.logRequest(ctx, req, resp, data, err, time.Since(start))
	if err != nil {
		return nil, &TransportError{Method: r.Method, URL: r.URL, Err: err}
	}
	if len(data) > MaxBody {
		return nil, &ProtocolError{Status: resp.StatusCode, Reason: "response body exceeds 8 MiB"}
	}
	if resp.StatusCode >= 300 && resp.StatusCode < 400 {
		return nil, &ProtocolError{Status: resp.StatusCode,
			Reason: "the host answered with a redirect; redirects are never followed because they would carry the bearer token elsewhere"}
	}
	return &Response{Status: resp.StatusCode, Header: resp.Header, Body: data}, nil
}
