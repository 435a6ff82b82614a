package conformance

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/takokit/takokit/catalog/wire"
)

// maxResponse caps every response body the runner reads (docs/protocol.md#json).
const maxResponse = 8 << 20

// ProbeHeader is the test-only probe header of docs/protocol.md#probes.
const ProbeHeader = wire.HeaderConformanceProbe

// Client speaks to one host with one credential. Redirects are never followed: a
// 3xx is answered to the check as it came, which then fails it.
type Client struct {
	Origin string     // bare origin, no trailing slash
	Label  string     // which credential, for messages ("primary", "alternate", ...)
	Lane   *wire.Lane // the lane whose paths {api} and {discovery} stand for (nil = the default lane)
	token  string
	http   *http.Client
	rec    *recorder // the running check's last exchange; nil outside a check
}

// NewClient returns a client for origin using token as the bearer credential.
func NewClient(origin, label, token string) *Client {
	return &Client{
		Origin: strings.TrimRight(origin, "/"),
		Label:  label,
		token:  token,
		http: &http.Client{
			Timeout: 30 * time.Second,
			CheckRedirect: func(*http.Request, []*http.Request) error {
				return http.ErrUseLastResponse
			},
		},
	}
}

// Req is one request. Target is the path plus optional raw query, exactly as sent.
type Req struct {
	Method  string
	Target  string
	Header  map[string]string
	Body    []byte
	NoAuth  bool   // send no Authorization header
	RawAuth string // send this Authorization value instead of the client's
}

// Resp is one answer, read completely.
type Resp struct {
	Req    Req
	Lane   *wire.Lane // the lane the request was sent on: what {api} stood for
	Status int
	Header http.Header
	Body   []byte
	Err    *wire.Error // the decoded error envelope of a non-2xx answer, when valid
	EnvErr error       // why a non-2xx answer is not a valid envelope
}

// Code returns the envelope code, or "" when there is none.
func (r *Resp) Code() wire.Code {
	if r.Err == nil {
		return ""
	}
	return r.Err.Code
}

// What names the request for messages: "PUT /apis/…/name".
func (r *Resp) What() string { return r.Req.Method + " " + shorten(r.Req.Target) }

// Got describes what came back: "412 generation_conflict: message".
func (r *Resp) Got() string {
	body := bytes.TrimSpace(r.Body)
	switch {
	case r.Err != nil:
		return fmt.Sprintf("%d %s: %s", r.Status, r.Err.Code, r.Err.Message)
	case r.Status >= 300 && len(body) == 0:
		return fmt.Sprintf("%d with an empty body, not a JSON error envelope", r.Status)
	case r.Status >= 300 && body[0] != '{':
		// an HTML page, a proxy's text: what it is says more than why it is no JSON
		return fmt.Sprintf("%d with %s, not a JSON error envelope: %s", r.Status, wire.BodyType(r.Header), snippet(r.Body))
	case r.Status >= 300:
		return fmt.Sprintf("%d without a valid error envelope (%v): %s", r.Status, r.EnvErr, snippet(r.Body))
	default:
		return fmt.Sprintf("%d %s", r.Status, snippet(r.Body))
	}
}

// Do sends req and reads the answer. Only transport problems return an error.
// The target goes as written: an escaped path keeps its escapes (url.Parse
// keeps them in RawPath) and the raw query is sent as it is.
func (c *Client) Do(ctx context.Context, req Req) (*Resp, error) {
	var body io.Reader
	if req.Body != nil {
		body = bytes.NewReader(req.Body)
	}
	hr, err := http.NewRequestWithContext(ctx, req.Method, c.Origin+expand(c.Lane, req.Target), body)
	if err != nil {
		return nil, fmt.Errorf("building %s %s: %w", req.Method, req.Target, err)
	}
	switch {
	case req.RawAuth != "":
		hr.Header.Set(wire.HeaderAuthorization, req.RawAuth)
	case !req.NoAuth && c.token != "":
		hr.Header.Set(wire.HeaderAuthorization, "Bearer "+c.token)
	}
	if req.Body != nil {
		hr.Header.Set(wire.HeaderContentType, wire.ContentTypeJSON)
	}
	hr.Header.Set("Accept", "application/json")
	hr.Header.Set("User-Agent", "takokit-conformance")
	for k, v := range req.Header {
		hr.Header.Set(k, v)
	}
	res, err := c.http.Do(hr)
	if err != nil {
		return nil, c.dropped(req, err)
	}
	defer res.Body.Close()
	data, err := io.ReadAll(io.LimitReader(res.Body, maxResponse+1))
	if err != nil {
		return nil, c.dropped(req, err)
	}
	if len(data) > maxResponse {
		return nil, c.dropped(req, errors.New("response body exceeds 8 MiB"))
	}
	r := &Resp{Req: req, Lane: c.Lane, Status: res.StatusCode, Header: res.Header, Body: data}
	c.rec.note(excerptOf(r))
	if res.StatusCode >= 300 && req.Method != http.MethodHead {
		r.Err, r.EnvErr = wire.ParseErrorEnvelope(res.StatusCode, data) // no envelope when it is not valid
	}
	return r, nil
}

// dropped records and returns a request that got no complete answer.
func (c *Client) dropped(req Req, err error) error {
	te := &TransportError{What: req.Method + " " + shorten(req.Target), Err: err}
	c.rec.note(&Exchange{Request: te.What, Error: err.Error()})
	return te
}

// TransportError is a request that got no complete answer; it makes a check error,
// unless the check expected the connection to drop.
type TransportError struct {
	What string
	Err  error
}

func (e *TransportError) Error() string {
	return e.What + ": " + wire.TransportCause(e.Err).Error()
}
func (e *TransportError) Unwrap() error { return e.Err }

// newKey returns a fresh Idempotency-Key.
func newKey() string { return "conformance-" + randomHex(12) }

func randomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	return hex.EncodeToString(b)
}

func shorten(target string) string {
	if i := strings.Index(target, "?"); i >= 0 && len(target) > 160 {
		return target[:i] + "?…"
	}
	return target
}

// snippet is a body as a report line shows it (wire.OneLine, 200 bytes).
func snippet(b []byte) string {
	if s := wire.OneLine(b, 200); s != "" {
		return s
	}
	return "(empty body)"
}
