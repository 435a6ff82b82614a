package request

import (
	"net/http"
	"strings"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/decide"
	"github.com/takokit/takokit/hostsim/internal/fault"
)

// ParsePreconditions checks the syntax of the three precondition headers.
func ParsePreconditions(h http.Header) (decide.Preconditions, *wire.Error) {
	var p decide.Preconditions
	if vals := h.Values(wire.HeaderIfNoneMatch); len(vals) > 0 {
		if len(vals) != 1 || vals[0] != "*" {
			return p, decide.Invalid("If-None-Match must be exactly \"*\" (create intent); got %q", strings.Join(vals, ", "))
		}
		p.IfNoneMatch = true
	}
	if vals := h.Values(wire.HeaderExpectedGeneration); len(vals) > 0 {
		n, ok := wire.ParseDecimal(vals[0])
		if len(vals) != 1 || !ok {
			return p, decide.Invalid("Takoform-Expected-Generation %q is not a canonical decimal 1..9223372036854775807 (no sign, no leading zero, no spaces)", strings.Join(vals, ", "))
		}
		p.Fence = n
	}
	if vals := h.Values(wire.HeaderIfMatch); len(vals) > 0 {
		n, ok := ParseETag(vals[0])
		if len(vals) != 1 || !ok {
			return p, decide.Invalid("If-Match %q is not one strong entity tag \"<revision>\" (no W/, no list, no *)", strings.Join(vals, ", "))
		}
		p.IfMatch = n
	}
	return p, nil
}

// ParseETag reads one strong entity tag "<revision>".
func ParseETag(v string) (int64, bool) {
	if len(v) < 3 || v[0] != '"' || v[len(v)-1] != '"' {
		return 0, false
	}
	return wire.ParseDecimal(v[1 : len(v)-1])
}

// ETag is the entity tag of a revision: "<revision>".
func ETag(revision int64) string { return `"` + wire.FormatDecimal(revision) + `"` }

// RequireFence is for observe and delete: the generation fence is required.
func RequireFence(p decide.Preconditions, route string) *wire.Error {
	if p.Fence == 0 {
		return decide.Invalid("route %s requires Takoform-Expected-Generation naming the generation you last read", route)
	}
	return nil
}

// CheckIdempotencyKey checks the Idempotency-Key of a keyed route: exactly
// one, 1..255 visible ASCII characters (docs/protocol.md#idempotency).
func CheckIdempotencyKey(vals []string, route string, fs *fault.Set) *wire.Error {
	if len(vals) == 0 {
		if fs.On(fault.HeadersLenient) {
			return nil
		}
	}
	if len(vals) != 1 {
		return decide.Invalid("route %s requires exactly one Idempotency-Key header (1..255 visible ASCII characters)", route)
	}
	k := vals[0]
	if len(k) < 1 || len(k) > 255 {
		return decide.Invalid("Idempotency-Key has %d characters; send 1..255 visible ASCII characters", len(k))
	}
	for i := 0; i < len(k); i++ {
		if k[i] < 0x21 || k[i] > 0x7e {
			return decide.Invalid("Idempotency-Key holds byte 0x%02X; only visible ASCII 0x21-0x7E is allowed", k[i])
		}
	}
	return nil
}
