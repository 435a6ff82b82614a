package wire

import (
	"errors"
	"fmt"
	"net/url"
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
