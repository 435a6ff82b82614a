package conformance

import (
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/takokit/takokit/catalog/wire"
)

// ExcerptBytes bounds the response body a report shows.
const ExcerptBytes = 512

// Exchange is the excerpt of one request and its answer that a failing or errored
// check's report shows: the request line only (never a header or a body, so never
// a credential) and the answer's status, a few headers and the first ExcerptBytes
// of its body.
type Exchange struct {
	Request   string            `json:"request"`             // "PUT /apis/…/name"
	Status    int               `json:"status,omitempty"`    // 0: no answer came
	Headers   map[string]string `json:"headers,omitempty"`   // ETag, Retry-After, Location, Content-Type when present
	Body      string            `json:"body,omitempty"`      // the first ExcerptBytes of the body
	Truncated bool              `json:"truncated,omitempty"` // the body was longer
	Error     string            `json:"error,omitempty"`     // why no answer came
}

// excerptHeaders are the answer headers an excerpt keeps: the ones rules are
// stated about (docs/protocol.md#headers), none that can carry a credential.
var excerptHeaders = []string{wire.HeaderETag, "Retry-After", "Location", wire.HeaderContentType}

// excerptOf builds the exchange of one answer.
func excerptOf(r *Resp) *Exchange {
	// the request line as sent: the lane's own path, not the {api} of the messages
	x := &Exchange{Request: r.Req.Method + " " + shorten(expand(r.Lane, r.Req.Target)), Status: r.Status}
	for _, h := range excerptHeaders {
		if v := r.Header.Get(h); v != "" {
			if x.Headers == nil {
				x.Headers = map[string]string{}
			}
			x.Headers[h] = v
		}
	}
	x.Body, x.Truncated = cut(r.Body, ExcerptBytes)
	return x
}

// cut returns the first n bytes of b as text, never splitting a UTF-8 sequence.
func cut(b []byte, n int) (string, bool) {
	if len(b) <= n {
		return string(b), false
	}
	for n > 0 && !utf8.RuneStart(b[n]) {
		n--
	}
	return string(b[:n]), true
}

// recorder keeps the last exchange of one check, across its clients.
type recorder struct {
	mu   sync.Mutex
	last *Exchange
}

func (rc *recorder) note(x *Exchange) {
	if rc == nil {
		return
	}
	rc.mu.Lock()
	rc.last = x
	rc.mu.Unlock()
}

func (rc *recorder) lastExchange() *Exchange {
	if rc == nil {
		return nil
	}
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return rc.last
}

// recording returns a copy of c whose exchanges go to rc.
func (c *Client) recording(rc *recorder) *Client {
	if c == nil {
		return nil
	}
	cp := *c
	cp.rec = rc
	return &cp
}

// redactor removes the run's credentials from everything a report shows.
type redactor struct{ tokens []string }

// bearer matches a bearer credential written out, whoever's it is.
var bearer = regexp.MustCompile(`(?i)\bbearer\s+[A-Za-z0-9._~+/=-]+`)

// minRedactLen: a token shorter than this is only redacted after "Bearer", so a
// toy token (tests use "t") does not blank every letter of a report.
const minRedactLen = 4

func newRedactor(tokens ...string) redactor {
	var r redactor
	for _, t := range tokens {
		if len(t) >= minRedactLen {
			r.tokens = append(r.tokens, t)
		}
	}
	return r
}

func (r redactor) text(s string) string {
	for _, t := range r.tokens {
		s = strings.ReplaceAll(s, t, "[redacted]")
	}
	return bearer.ReplaceAllString(s, "Bearer [redacted]")
}

func (r redactor) exchange(x *Exchange) *Exchange {
	if x == nil {
		return nil
	}
	cp := *x
	cp.Request, cp.Body, cp.Error = r.text(cp.Request), r.text(cp.Body), r.text(cp.Error)
	if x.Headers != nil {
		cp.Headers = map[string]string{}
		for k, v := range x.Headers {
			cp.Headers[k] = r.text(v)
		}
	}
	return &cp
}

// runNames matches what a run makes unique (resource names and spaces carrying the
// run id, fresh string values, Idempotency-Keys), so causes that differ only
// there group as one.
func runNames(runID string) *regexp.Regexp {
	return regexp.MustCompile(`[A-Za-z0-9][A-Za-z0-9.-]*-` + runID + `-[0-9]+|\bc` + runID + `[0-9a-f]{8}|conformance-[0-9a-f]{24}`)
}
