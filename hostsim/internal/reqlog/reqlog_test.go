package reqlog

import (
	"bytes"
	"context"
	"log/slog"
	"math/rand/v2"
	"testing"
	"time"
)

// The request line is the line slog's text handler writes for the same record,
// byte for byte, for every value it takes; the values it declines (ones the text
// handler quotes) leave nothing written.
func TestRequestWritesWhatTheTextHandlerWrites(t *testing.T) {
	values := []string{"req_01J9ZK4Q", "t1", "tenant-a", "PUT", "DELETE", "apply", "prepare", "get/resource",
		"a.b_c-d:e+f"}
	quoted := []string{"", "two words", "a=b", `say "hi"`, "é", "tab\there", "new\nline", `back\slash`, "\x00", "µ"}
	durations := []time.Duration{0, 512, 12300, 1_500_000, 123_456_789, 2*time.Minute + 3*time.Second, -time.Millisecond}
	zones := []*time.Location{time.UTC, time.FixedZone("east", 5*3600+1800), time.FixedZone("west", -8*3600)}
	r := rand.New(rand.NewPCG(1, 2))
	pick := func() string { // mostly values written as they are, some the handler quotes
		if r.IntN(16) == 0 {
			return quoted[r.IntN(len(quoted))]
		}
		return values[r.IntN(len(values))]
	}
	written, declined := 0, 0
	for i := range 3000 {
		at := time.Unix(1_700_000_000+r.Int64N(1_000_000_000), r.Int64N(1e9)).In(zones[r.IntN(len(zones))])
		if i%3 == 0 {
			at = time.Now() // with a monotonic reading
		}
		id, tenant, method, route := pick(), pick(), pick(), pick()
		status, d := 100+r.IntN(500), durations[r.IntN(len(durations))]
		var want bytes.Buffer
		rec := slog.NewRecord(at, slog.LevelInfo, "request", 0)
		rec.AddAttrs(slog.String("requestId", id), slog.String("tenant", tenant), slog.String("method", method),
			slog.String("route", route), slog.Int("status", status), slog.Duration("duration", d))
		if err := slog.NewTextHandler(&want, nil).Handle(context.Background(), rec); err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		if !New(&got).Request(at, id, tenant, method, route, status, d) {
			declined++
			if got.Len() != 0 {
				t.Fatalf("a declined line wrote %q", got.String())
			}
			continue
		}
		written++
		if got.String() != want.String() {
			t.Fatalf("request line\n%q\nthe text handler writes\n%q", got.String(), want.String())
		}
	}
	if written < 300 || declined < 300 {
		t.Fatalf("%d lines written, %d declined: the sample proves too little of one or the other", written, declined)
	}
}

// The lines of a host at work are written directly: request ids, tenants,
// methods, route names and durations as hostsim has them.
func TestHostsimsLinesAreWrittenDirectly(t *testing.T) {
	var b bytes.Buffer
	h := New(&b)
	for _, d := range []time.Duration{0, 850, 73 * time.Microsecond, 1234567, 3 * time.Second} {
		for _, route := range []string{"apply", "delete", "prepare", "read", "unrouted", "artifact-upload-commit"} {
			if !h.Request(time.Now(), "req_0f3a9c1b2d4e", "sim-primary", "POST", route, 201, d) {
				t.Fatalf("the line of route %s, duration %v was declined", route, d)
			}
		}
	}
	if n := bytes.Count(b.Bytes(), []byte("\n")); n != 30 {
		t.Fatalf("%d lines written; want 30", n)
	}
}
