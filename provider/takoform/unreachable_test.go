package takoform

import (
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/takokit/takokit/hostsim"
)

// silentOrigin is a loopback origin that accepts connections and never answers.
func silentOrigin(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	held := make(chan net.Conn, 64)
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				close(held)
				return
			}
			held <- c // never read, never answered
		}
	}()
	t.Cleanup(func() {
		l.Close()
		for c := range held {
			c.Close()
		}
	})
	return "http://" + l.Addr().String()
}

// TestUnreachableHostIsNamedSoInEveryAnswer: when no host answers — connection refused,
// a name that does not resolve, or no answer in time — plan, create, read, update,
// delete, import and a Form transition each say "host unreachable at <origin>" with
// the provider code, and none says the host refused anything.
func TestUnreachableHostIsNamedSoInEveryAnswer(t *testing.T) {
	h := newHarness(t, hostsim.Config{})
	requireTransitions(t, h)
	// everything the host must have seen is made while it answers
	st, moved := oldQueue(t, h)
	longer := values{aName: s("orders"), "message_retention_seconds": i64(7200), aFormDefVersion: s("0.1.0")}
	update := h.plan(queueType, longer, st)
	mustNoError(t, "plan the update", update.diags)
	transition := h.plan(queueType, moved, st)
	mustNoError(t, "plan the transition", transition.diags)
	transitionPrivate := h.private[queueType+"/planned"]
	other := values{aName: s("other"), "message_retention_seconds": i64(3600)}
	create := h.plan(queueType, other, nil)
	mustNoError(t, "plan the create", create.diags)

	situations := []struct {
		name, origin, reason string
		timeout              time.Duration
	}{
		{"connection refused", deadOrigin(t), "connection refused", 0},
		{"DNS failure", "https://takoform-test.invalid", "does not resolve (DNS)", 0},
		{"timeout", silentOrigin(t), "no answer in time (timeout)", 150 * time.Millisecond},
	}
	for _, sit := range situations {
		t.Run(sit.name, func(t *testing.T) {
			h.p.httpClient = &http.Client{Timeout: sit.timeout}
			defer func() { h.p.httpClient = nil }()
			mustNoError(t, "configure", h.configure(map[string]string{"endpoint": sit.origin, "token": "sim-primary", "space": "dev"}))
			head := "host unreachable at " + sit.origin
			answers := []struct {
				what  string
				run   func() []*tfprotov6.Diagnostic
				error bool
				want  []string
			}{
				{"plan", func() []*tfprotov6.Diagnostic { return h.plan(queueType, other, nil).diags }, false,
					[]string{queueSubject + ": " + head}},
				{"create", func() []*tfprotov6.Diagnostic { _, d := h.apply(queueType, other, nil, create.planned); return d }, true,
					[]string{"Failed to create AtLeastOnceQueue other: " + head, "No host answered the create (" + head + "); nothing was written to state."}},
				{"read", func() []*tfprotov6.Diagnostic { _, d := h.read(queueType, st); return d }, true,
					[]string{"Failed to read AtLeastOnceQueue orders: " + head, "the state was left unchanged"}},
				{"update", func() []*tfprotov6.Diagnostic { _, d := h.apply(queueType, longer, st, update.planned); return d }, true,
					[]string{"Failed to update AtLeastOnceQueue orders: " + head, "No host answered the update (" + head + "); the state keeps the prior values."}},
				{"delete", func() []*tfprotov6.Diagnostic { _, d := h.apply(queueType, nil, st, nil); return d }, true,
					[]string{"Failed to delete AtLeastOnceQueue orders: " + head, "No host answered the delete (" + head + "); the resource stays in state."}},
				{"import", func() []*tfprotov6.Diagnostic { _, d := h.importID(queueType, "dev/orders"); return d }, true,
					[]string{"Failed to read AtLeastOnceQueue orders: " + head, "The import probe could not read the host."}},
				{"transition", func() []*tfprotov6.Diagnostic {
					h.private[queueType+"/planned"] = transitionPrivate
					_, d := h.apply(queueType, moved, st, transition.planned)
					return d
				}, true, []string{"Form transition of AtLeastOnceQueue orders", head}},
			}
			for _, a := range answers {
				start := time.Now()
				ds := a.run()
				if took := time.Since(start); took > 10*time.Second {
					t.Errorf("%s took %s", a.what, took)
				}
				want := append([]string{codeHostUnreachable, "Cause: " + head + ": ", sit.reason, "No host answered at " + sit.origin}, a.want...)
				d := diagWith(ds, want...)
				switch {
				case d == nil:
					t.Errorf("%s: want a diagnostic with %q:\n%s", a.what, want, dump(ds))
				case a.error != (d.Severity == tfprotov6.DiagnosticSeverityError):
					t.Errorf("%s: severity %v, want error=%t", a.what, d.Severity, a.error)
				}
				text := strings.ToLower(dump(ds))
				for _, never := range []string{"host refused", "refused the", "host discovery failed", "did not answer 200"} {
					if strings.Contains(text, never) {
						t.Errorf("%s says %q where no host answered:\n%s", a.what, never, dump(ds))
					}
				}
			}
		})
	}
}
