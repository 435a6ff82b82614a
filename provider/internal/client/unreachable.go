package client

import (
	"errors"
	"net/url"

	"github.com/takokit/takokit/catalog/wire"
)

// Unreachable is a request no host answered (docs/provider-design.md#diagnostics):
// the connection was refused, the host name does not resolve, no route leads to it,
// or no answer came in time. Every message about it says "host unreachable at
// <origin>", never that a host refused something.
type Unreachable struct {
	Origin string // scheme://host[:port] of the request
	Method string
	Path   string // the escaped path, never the query
	Reason string // "connection refused", "the host name ... does not resolve (DNS)", ...
}

// AsUnreachable classifies err: ok is true only when no host answered. A connection a
// host accepted and then broke, or an answer cut short, is a transport failure but not
// this: something answered.
func AsUnreachable(err error) (*Unreachable, bool) {
	var t *TransportError
	if !errors.As(err, &t) {
		return nil, false
	}
	reason := unreachableReason(t.Err)
	if reason == "" {
		return nil, false
	}
	u := &Unreachable{Method: t.Method, Reason: reason}
	if p, perr := url.Parse(t.URL); perr == nil {
		u.Origin = (&url.URL{Scheme: p.Scheme, Host: p.Host}).String()
		u.Path = p.EscapedPath()
	}
	return u, true
}

// Headline is the one phrase every diagnostic about an unreachable host carries.
func (u *Unreachable) Headline() string { return "host unreachable at " + u.Origin }

// unreachableReason says in the provider's words why no host answered
// (wire.ReadUnanswered), or "" when something may have.
func unreachableReason(err error) string {
	u := wire.ReadUnanswered(err)
	switch u.Why {
	case wire.DNSNotFound:
		return "the host name " + u.Name + " does not resolve (DNS)"
	case wire.DNSTimeout:
		return "the DNS lookup of " + u.Name + " timed out"
	case wire.DNSFailed:
		return "the DNS lookup of " + u.Name + " failed: " + u.DNS
	case wire.Refused:
		return "connection refused (nothing listens at that address)"
	case wire.NoRoute:
		return "no route to the host"
	case wire.TimedOut:
		return "no answer in time (timeout)"
	}
	return ""
}
