package wire

import (
	"context"
	"errors"
	"net"
	"net/url"
	"syscall"
)

// TransportCause is why a request got no answer, without net/http's wrapper: a
// *url.Error repeats the request's method and quoted URL, which the provider's and
// conformance's messages already name once, in their own words. Any other error is
// returned as it is.
func TransportCause(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// Unanswered is why a request got no answer at all, as the transport says it (from
// the error net/http returned, wrapped or not): the one reading of it that the
// provider's and the conformance runner's messages share, each in its own words.
type Unanswered struct {
	Why  NoAnswer
	Name string // the DNS kinds: the host name looked up
	DNS  string // DNSFailed: the resolver's own words
}

// NoAnswer is a kind of Unanswered.
type NoAnswer int

const (
	// AnsweredMaybe: the error says no such thing; something may have answered (a
	// connection accepted and broken, an answer cut short).
	AnsweredMaybe NoAnswer = iota
	DNSNotFound            // the host name does not resolve
	DNSTimeout             // the DNS lookup timed out
	DNSFailed              // the DNS lookup failed otherwise
	Refused                // nothing listens at the address
	NoRoute                // no route to the host or its network
	TimedOut               // no answer in time
)

// ReadUnanswered reads err (a transport's error) for why no host answered.
func ReadUnanswered(err error) Unanswered {
	var dns *net.DNSError
	var ne net.Error
	switch {
	case errors.As(err, &dns) && dns.IsNotFound:
		return Unanswered{Why: DNSNotFound, Name: dns.Name}
	case errors.As(err, &dns) && dns.IsTimeout:
		return Unanswered{Why: DNSTimeout, Name: dns.Name}
	case errors.As(err, &dns):
		return Unanswered{Why: DNSFailed, Name: dns.Name, DNS: dns.Err}
	case errors.Is(err, syscall.ECONNREFUSED):
		return Unanswered{Why: Refused}
	case errors.Is(err, syscall.EHOSTUNREACH), errors.Is(err, syscall.ENETUNREACH):
		return Unanswered{Why: NoRoute}
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
		return Unanswered{Why: TimedOut}
	}
	return Unanswered{}
}
