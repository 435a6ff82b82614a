package hostsim_test

import (
	"log/slog"
	"regexp"
	"sync/atomic"
	"testing"
	"time"

	"github.com/takokit/takokit/hostsim"
	"github.com/takokit/takokit/hostsim/hostsimtest"
	"github.com/takokit/takokit/hostsim/internal/reqlog"
)

// countingLog is hostsim serve's text log, counting the lines it wrote directly.
type countingLog struct {
	*reqlog.Handler
	direct *atomic.Int64
}

func (h countingLog) Request(t time.Time, id, tenant, method, route string, status int, d time.Duration) bool {
	ok := h.Handler.Request(t, id, tenant, method, route, status, d)
	if ok {
		h.direct.Add(1)
	}
	return ok
}

// Every request is logged once, in slog's text form; with serve's text log the
// line of an authenticated request is written directly (reqlog), and one the
// text handler would quote (an unauthenticated request's empty tenant) goes
// through the record as before.
func TestRequestLinesAreLoggedOnce(t *testing.T) {
	var logs syncBuffer
	var direct atomic.Int64
	sim := hostsimtest.Start(t, hostsim.Config{Logger: slog.New(countingLog{reqlog.New(&logs), &direct})})
	c := newClient(t, sim.URL, "sim-primary")
	c.do("GET", discovery, nil, nil).status(200)
	c.do("GET", discovery, nil, nil).status(200)
	newClient(t, sim.URL, "").do("GET", discovery, nil, nil).refused("unauthenticated", 401)
	lines := regexp.MustCompile(`(?m)^time=\S+ level=INFO msg=request requestId=req_[0-9a-f]+ tenant=(\S+) method=GET route=(\S+) status=(\d+) duration=\S+$`).
		FindAllStringSubmatch(logs.String(), -1)
	if len(lines) != 3 || lines[0][1] == `""` || lines[0][3] != "200" || lines[2][1] != `""` || lines[2][3] != "401" {
		t.Fatalf("want three request lines (two of the tenant, answered 200; one with an empty tenant, 401):\n%s", logs.String())
	}
	if n := direct.Load(); n != 2 {
		t.Fatalf("%d lines were written directly; want the two authenticated ones", n)
	}
}
