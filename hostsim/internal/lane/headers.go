package lane

import (
	"strconv"
	"strings"
)

// idempotencyKeySyntax checks Idempotency-Key (1..255 visible ASCII).
func (c *call) idempotencyKeySyntax() *apiError {
	vals := c.r.Header.Values("Idempotency-Key")
	if len(vals) == 0 && c.faultOn("headers.lenient") {
		return nil
	}
	if len(vals) != 1 {
		return invalid("route %s requires exactly one Idempotency-Key header (1..255 visible ASCII characters)", c.rt.name)
	}
	k := vals[0]
	if len(k) < 1 || len(k) > 255 {
		return invalid("Idempotency-Key has %d characters; send 1..255 visible ASCII characters", len(k))
	}
	for i := 0; i < len(k); i++ {
		if k[i] < 0x21 || k[i] > 0x7e {
			return invalid("Idempotency-Key holds byte 0x%02X; only visible ASCII 0x21-0x7E is allowed", k[i])
		}
	}
	return nil
}

func (c *call) key() string { return c.r.Header.Get("Idempotency-Key") }

// preconditions are the parsed precondition headers; zero means absent.
type preconditions struct {
	ifNoneMatch bool
	fence       int64
	ifMatch     int64
}

// parseCanonical reads a canonical positive decimal (no sign, no leading zero).
func parseCanonical(s string) (int64, bool) {
	if s == "" || s[0] == '0' || len(s) > 19 {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil && n > 0
}

// readPreconditions checks the header syntax of host-api.md §6.
func (c *call) readPreconditions() (preconditions, *apiError) {
	var p preconditions
	h := c.r.Header
	if vals := h.Values("If-None-Match"); len(vals) > 0 {
		if len(vals) != 1 || vals[0] != "*" {
			return p, invalid("If-None-Match must be exactly \"*\" (create intent); got %q", strings.Join(vals, ", "))
		}
		p.ifNoneMatch = true
	}
	if vals := h.Values("Takoform-Expected-Generation"); len(vals) > 0 {
		n, ok := parseCanonical(vals[0])
		if len(vals) != 1 || !ok {
			return p, invalid("Takoform-Expected-Generation %q is not a canonical decimal 1..9223372036854775807 (no sign, no leading zero, no spaces)", strings.Join(vals, ", "))
		}
		p.fence = n
	}
	if vals := h.Values("If-Match"); len(vals) > 0 {
		v := vals[0]
		var n int64
		ok := len(vals) == 1 && len(v) >= 3 && v[0] == '"' && v[len(v)-1] == '"'
		if ok {
			n, ok = parseCanonical(v[1 : len(v)-1])
		}
		if !ok {
			return p, invalid("If-Match %q is not one strong entity tag \"<revision>\" (no W/, no list, no *)", strings.Join(vals, ", "))
		}
		p.ifMatch = n
	}
	return p, nil
}

// requireFence is for observe and delete.
func (c *call) requireFence(p preconditions) *apiError {
	if p.fence == 0 {
		return invalid("route %s requires Takoform-Expected-Generation naming the generation you last read", c.rt.name)
	}
	return nil
}

// requireEmptyBody is for observe, delete and cancel.
func (c *call) requireEmptyBody() *apiError {
	if len(c.body) > 0 {
		return invalid("route %s takes an empty body; send no bytes", c.rt.name)
	}
	return nil
}
