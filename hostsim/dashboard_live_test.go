package hostsim_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/takokit/takokit/hostsim"
	"github.com/takokit/takokit/hostsim/hostsimtest"
)

// stream is an open live stream, read line by line in the background.
type stream struct {
	lines  chan string
	cancel func()
}

func openStream(t *testing.T, b *browser, query string, headers map[string]string) *stream {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "GET", b.base+ui+"/events"+query, nil)
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := b.http.Do(req)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	if resp.StatusCode != 200 {
		cancel()
		t.Fatalf("the stream answered HTTP %d", resp.StatusCode)
	}
	s := &stream{lines: make(chan string, 4096), cancel: func() { cancel(); resp.Body.Close() }}
	go func() {
		defer close(s.lines)
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			s.lines <- sc.Text()
		}
	}()
	t.Cleanup(s.cancel)
	return s
}

type liveEvent struct {
	ID      string
	Seq     int64  `json:"seq"`
	Type    string `json:"type"`
	Summary string `json:"summary"`
}

// next returns the next event of the stream (its "event:" name in Type for
// a named one), failing after a while.
func (s *stream) next(t *testing.T) liveEvent {
	t.Helper()
	var ev liveEvent
	named := ""
	for {
		select {
		case line, ok := <-s.lines:
			switch {
			case !ok:
				t.Fatal("the stream ended")
			case strings.HasPrefix(line, "id: "):
				ev.ID = strings.TrimPrefix(line, "id: ")
			case strings.HasPrefix(line, "event: "):
				named = strings.TrimPrefix(line, "event: ")
			case strings.HasPrefix(line, "data: "):
				if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &ev); err != nil {
					t.Fatalf("data %q: %v", line, err)
				}
				if named != "" {
					ev.Type = named
				}
				return ev
			}
		case <-time.After(10 * time.Second):
			t.Fatal("no event arrived on the stream within 10s")
		}
	}
}

// until reads events until one satisfies ok.
func (s *stream) until(t *testing.T, ok func(liveEvent) bool) liveEvent {
	t.Helper()
	for {
		if ev := s.next(t); ok(ev) {
			return ev
		}
	}
}

// The stream follows the journal from the page's newest event, resumes after
// Last-Event-ID (which wins over ?after=), reports a gap the journal's reset
// left, and refuses an event number that is not one.
func TestDashboardStreamFollowsAndResumes(t *testing.T) {
	cat := testCatalog(t)
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat})
	c := newClient(t, sim.URL, "sim-primary")
	f := updatable(t, cat)
	c.create(f, "before", "prod", fixture(t, f)).status(201)
	b := newBrowser(t, sim)
	s := openStream(t, b, fmt.Sprintf("?after=%d", sim.Host.State().LastEvent()), nil)
	c.create(f, "first", "prod", fixture(t, f)).status(201)
	ev := s.until(t, func(ev liveEvent) bool { return ev.Type == "mutation" })
	if ev.ID != fmt.Sprint(ev.Seq) || !strings.Contains(ev.Summary, "created "+f.Ref.Kind+" first") {
		t.Fatalf("the first mutation on the stream: %+v", ev)
	}
	s.cancel()
	c.create(f, "second", "prod", fixture(t, f)).status(201)
	again := openStream(t, b, "?after=0", map[string]string{"Last-Event-ID": ev.ID})
	next := again.next(t)
	if next.Seq != ev.Seq+1 {
		t.Fatalf("resuming after %d began at %d", ev.Seq, next.Seq)
	}
	again.until(t, func(e liveEvent) bool { return strings.Contains(e.Summary, "created "+f.Ref.Kind+" second") })

	b.do("GET", ui+"/events", nil, map[string]string{"Last-Event-ID": "abc"}).status(400).has("is not an event number")
	if err := sim.Admin.Reset(); err != nil {
		t.Fatal(err)
	}
	c.create(f, "after-reset", "prod", fixture(t, f)).status(201)
	gap := openStream(t, b, "?after=1", nil).next(t)
	if gap.Type != "gap" {
		t.Fatalf("after a reset the stream from event 1 began with %+v, want a gap", gap)
	}
}

// stalledWriter is a browser that stopped reading: the stream's first write
// of events blocks until the test lets the write deadline expire.
type stalledWriter struct {
	header   http.Header
	mu       sync.Mutex
	deadline time.Time
	ready    chan struct{} // closed at the first write: the stream follows from here
	stuck    chan struct{} // closed when a write blocks
	expire   chan struct{} // closed by the test: the deadline passed
	once     sync.Once
	writes   int
}

func (w *stalledWriter) Header() http.Header { return w.header }
func (w *stalledWriter) WriteHeader(int)     {}
func (w *stalledWriter) Flush()              {}
func (w *stalledWriter) SetWriteDeadline(d time.Time) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.deadline = d
	return nil
}
func (w *stalledWriter) Write(b []byte) (int, error) {
	w.mu.Lock()
	w.writes++
	first := w.writes == 1
	w.mu.Unlock()
	if first {
		close(w.ready)
		return len(b), nil // the retry line
	}
	w.once.Do(func() { close(w.stuck) })
	<-w.expire
	return 0, os.ErrDeadlineExceeded
}

// A browser that stops reading never holds up the host: while its stream is
// stuck in a write, the host goes on answering and journaling; the write
// carries a deadline, and when it expires the stream ends.
func TestDashboardStalledBrowserNeverBlocksTheHost(t *testing.T) {
	cat := testCatalog(t)
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat})
	c := newClient(t, sim.URL, "sim-primary")
	f := updatable(t, cat)
	w := &stalledWriter{header: http.Header{}, ready: make(chan struct{}), stuck: make(chan struct{}), expire: make(chan struct{})}
	req := httptest.NewRequest("GET", ui+"/events", nil)
	req.RemoteAddr, req.Host = "127.0.0.1:4000", "127.0.0.1:8484"
	ended := make(chan struct{})
	go func() { sim.Host.Handler().ServeHTTP(w, req); close(ended) }()
	// the stream follows events after the last one when it connects: a create
	// before that would be history it never sends
	select {
	case <-w.ready:
	case <-time.After(10 * time.Second):
		t.Fatal("the stream never wrote its retry line")
	}
	c.create(f, "wake", "prod", fixture(t, f)).status(201)
	select {
	case <-w.stuck:
	case <-time.After(10 * time.Second):
		t.Fatal("the stream never wrote the new events")
	}
	w.mu.Lock()
	left := time.Until(w.deadline)
	w.mu.Unlock()
	if left <= 0 || left > 11*time.Second {
		t.Fatalf("the stuck write has no deadline within 10s (%v left)", left)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range 200 {
			c.read(f, "wake", "prod").status(200)
			if i%20 == 0 {
				c.create(f, fmt.Sprintf("more-%d", i), "prod", fixture(t, f)).status(201)
			}
		}
		newBrowser(t, sim).get("/").status(200)
	}()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		t.Fatal("the host stalled behind a browser that does not read")
	}
	close(w.expire)
	select {
	case <-ended:
	case <-time.After(5 * time.Second):
		t.Fatal("the stream did not end after its write deadline expired")
	}
}

// A browser on a real connection that never reads, then closes: the host
// keeps answering, and once the browser is gone its stream ends.
func TestDashboardClosedBrowserLeavesNoStream(t *testing.T) {
	cat := testCatalog(t)
	// The stream must stay stuck for the whole test however slow the machine is:
	// only the closed connection may end it, not the write deadline.
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat, StreamWriteTimeout: time.Hour})
	c := newClient(t, sim.URL, "sim-primary")
	f := updatable(t, cat)
	conn, err := net.Dial("tcp", strings.TrimPrefix(sim.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() }) // a failure below must not leave the server's Close waiting on it
	_ = conn.(*net.TCPConn).SetReadBuffer(4096)
	fmt.Fprintf(conn, "GET %s/events?after=0 HTTP/1.1\r\nHost: %s\r\n\r\n", ui, strings.TrimPrefix(sim.URL, "http://"))
	c.create(f, "seen", "prod", fixture(t, f)).status(201)
	waitStreams(t, 1)
	// journal events until the unread stream is stuck in a write (the
	// connection's buffers are full: its goroutine waits for the network inside
	// send, not merely passing through it at the moment of the look)
	stuck := func() bool {
		buf := make([]byte, 1<<22)
		for _, g := range strings.Split(string(buf[:runtime.Stack(buf, true)]), "\n\n") {
			if head, _, _ := strings.Cut(g, "\n"); strings.Contains(head, "[IO wait") && strings.Contains(g, "dashboard.(*UI).send(") {
				return true
			}
		}
		return false
	}
	n := 0
	for ; !stuck(); n += 500 {
		if n >= 60000 {
			t.Fatal("60,000 events did not fill the unread stream's connection")
		}
		for range 500 {
			c.read(f, "seen", "prod").status(200)
		}
	}
	start := time.Now()
	for i := range 500 {
		c.read(f, "seen", "prod").status(200)
		if i%50 == 0 {
			c.create(f, fmt.Sprintf("busy-%d", i), "prod", fixture(t, f)).status(201)
		}
	}
	if !stuck() {
		t.Fatal("the unread stream is no longer stuck in a write")
	}
	t.Logf("after %d requests filled the unread stream, 510 more were answered in %v", n, time.Since(start).Round(time.Millisecond))
	conn.Close()
	c.create(f, "after-close", "prod", fixture(t, f)).status(201) // the stream meets the closed connection
	waitStreams(t, 0)

	// a browser that reads, then leaves, ends its stream too
	s := openStream(t, newBrowser(t, sim), "?after=0", nil)
	s.next(t)
	waitStreams(t, 1)
	s.cancel()
	waitStreams(t, 0)
}

// EndStreams ends the open streams (an http.Server's Shutdown would wait for
// them) and refuses new ones.
func TestDashboardStreamsEndWithTheHost(t *testing.T) {
	sim := hostsimtest.Start(t, hostsim.Config{})
	b := newBrowser(t, sim)
	s := openStream(t, b, "", nil)
	waitStreams(t, 1)
	sim.Host.EndStreams()
	deadline := time.After(5 * time.Second)
	for open := true; open; {
		select {
		case _, open = <-s.lines:
		case <-deadline:
			t.Fatal("the stream stayed open after EndStreams")
		}
	}
	b.get("/events").status(503).has("shutting down")
}

// waitStreams waits until exactly n live streams run in this process.
func waitStreams(t *testing.T, n int) {
	t.Helper()
	var got int
	for range 100 {
		buf := make([]byte, 1<<22)
		got = strings.Count(string(buf[:runtime.Stack(buf, true)]), "dashboard.(*UI).events(")
		if got == n {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("%d live streams run, want %d", got, n)
}
