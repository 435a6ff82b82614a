package hostsim_test

import (
	"log/slog"
	"net/http/httptest"
	"regexp"
	"strings"
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
	// The lane answers before it logs (ServeHTTP flushes first), so a line may
	// still be on its way when the client has its answer, and a later request's
	// line may come first.
	line := regexp.MustCompile(`(?m)^time=\S+ level=INFO msg=request requestId=req_[0-9a-f]+ tenant=(\S+) method=GET route=(\S+) status=(\d+) duration=\S+$`)
	var lines [][]string
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if lines = line.FindAllStringSubmatch(logs.String(), -1); len(lines) >= 3 || time.Now().After(deadline) {
			break
		}
	}
	answered := map[string]int{}
	for _, l := range lines {
		if l[1] == `""` {
			answered["no tenant "+l[3]]++
		} else {
			answered["tenant "+l[3]]++
		}
	}
	if len(lines) != 3 || answered["tenant 200"] != 2 || answered["no tenant 401"] != 1 {
		t.Fatalf("want three request lines (two of the tenant, answered 200; one with an empty tenant, 401):\n%s", logs.String())
	}
	if n := direct.Load(); n != 2 {
		t.Fatalf("%d lines were written directly; want the two authenticated ones", n)
	}
}

// A request answered, refused or not, leaves nothing in the log but its
// request line: what ServeHTTP does after the answer (the journal entry, the
// log line, closing a dropped connection) must not fail and be logged as a
// panic by the recover middleware. The server is closed before the log is
// read, so every line of every request has been written.
func TestAnsweredRequestsLogOnlyTheirLines(t *testing.T) {
	var logs syncBuffer
	h, err := hostsim.New(hostsim.Config{Catalog: testCatalog(t), Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = h.Close() })
	srv := httptest.NewServer(h.Handler()) // 127.0.0.1
	c := newClient(t, srv.URL, "sim-primary")
	f := updatable(t, testCatalog(t))
	c.do("GET", discovery, nil, nil).status(200)
	c.create(f, "orders", "prod", fixture(t, f)).status(201)
	c.read(f, "orders", "prod").status(200)
	c.read(f, "absent", "prod").refused("resource_not_found", 404)
	newClient(t, srv.URL, "").do("GET", discovery, nil, nil).refused("unauthenticated", 401)
	srv.Close() // waits for every handler to return
	var other []string
	lines := strings.Split(strings.TrimSpace(logs.String()), "\n")
	for _, l := range lines {
		if !strings.Contains(l, " level=INFO msg=request ") {
			other = append(other, l)
		}
	}
	if len(lines) < 5 || len(other) > 0 {
		t.Fatalf("the log holds %d lines, %d of them not a request line:\n%s", len(lines), len(other), strings.Join(other, "\n"))
	}
}
