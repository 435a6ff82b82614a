package wire

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"syscall"
	"testing"
)

// TestTransportCauseDropsOnlyNetHTTPsWrapper: the cause inside a *url.Error (also when
// wrapped again) comes out alone; any other error is left as it is.
func TestTransportCauseDropsOnlyNetHTTPsWrapper(t *testing.T) {
	refused := errors.New("dial tcp 127.0.0.1:1: connect: connection refused")
	ue := &url.Error{Op: "Get", URL: "http://127.0.0.1:1/x", Err: refused}
	for _, c := range []struct {
		in, want error
	}{
		{ue, refused},
		{fmt.Errorf("GET /x: %w", ue), refused},
		{refused, refused},
	} {
		if got := TransportCause(c.in); got != c.want {
			t.Errorf("TransportCause(%v) = %v, want %v", c.in, got, c.want)
		}
	}
}

// TestReadUnansweredTellsWhyNoHostAnswered: each way a transport says nobody answered
// is read as its kind, through net/http's and net's wrappers; anything else is
// AnsweredMaybe.
func TestReadUnansweredTellsWhyNoHostAnswered(t *testing.T) {
	dial := func(err error) error {
		return &url.Error{Op: "Get", URL: "http://h:1/x", Err: &net.OpError{Op: "dial", Net: "tcp", Err: err}}
	}
	for _, c := range []struct {
		name string
		err  error
		want Unanswered
	}{
		{"not found", dial(&net.DNSError{Err: "no such host", Name: "nope.invalid", IsNotFound: true}), Unanswered{Why: DNSNotFound, Name: "nope.invalid"}},
		{"lookup timed out", dial(&net.DNSError{Err: "i/o timeout", Name: "slow.test", IsTimeout: true}), Unanswered{Why: DNSTimeout, Name: "slow.test"}},
		{"lookup failed", dial(&net.DNSError{Err: "server misbehaving", Name: "odd.test"}), Unanswered{Why: DNSFailed, Name: "odd.test", DNS: "server misbehaving"}},
		{"refused", dial(os.NewSyscallError("connect", syscall.ECONNREFUSED)), Unanswered{Why: Refused}},
		{"no route to host", dial(os.NewSyscallError("connect", syscall.EHOSTUNREACH)), Unanswered{Why: NoRoute}},
		{"no route to network", dial(os.NewSyscallError("connect", syscall.ENETUNREACH)), Unanswered{Why: NoRoute}},
		{"deadline", fmt.Errorf("GET /x: %w", context.DeadlineExceeded), Unanswered{Why: TimedOut}},
		{"net timeout", dial(timeoutError{}), Unanswered{Why: TimedOut}},
		{"cut short", dial(errors.New("EOF")), Unanswered{}},
	} {
		if got := ReadUnanswered(c.err); got != c.want {
			t.Errorf("%s: ReadUnanswered = %+v, want %+v", c.name, got, c.want)
		}
	}
}

type timeoutError struct{}

func (timeoutError) Error() string   { return "i/o timeout" }
func (timeoutError) Timeout() bool   { return true }
func (timeoutError) Temporary() bool { return true }
