package client

import (
	"context"
	"errors"
	"net"
	"net/url"
	"syscall"
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

func unreachableReason(err error) string {
	var dns *net.DNSError
	var ne net.Error
	switch {
	case errors.As(err, &dns) && dns.IsNotFound:
		return "the host name " + dns.Name + " does not resolve (DNS)"
	case errors.As(err, &dns) && dns.IsTimeout:
		return "the DNS lookup of " + dns.Name + " timed out"
	case errors.As(err, &dns):
		return "the DNS lookup of " + dns.Name + " failed: " + dns.Err
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused (nothing listens at that address)"
	case errors.Is(err, syscall.EHOSTUNREACH), errors.Is(err, syscall.ENETUNREACH):
		return "no route to the host"
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
		return "no answer in time (timeout)"
	}
	return ""
}
