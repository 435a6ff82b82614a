package takoform

import (
	"net"
	"net/http"
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
	t.Parallel()
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

	// The silent origin never answers, so any client timeout ends in "no answer in time":
	// 20 ms keeps the seven answers (each a GET and its one resend) well under a second.
	situations := []struct {
		name, origin, reason string
		timeout              time.Duration
	}{
		{"connection refused", deadOrigin(t), "connection refused (nothing listens at that address)", 0},
		{"DNS failure", "https://takoform-test.invalid", "the host name takoform-test.invalid does not resolve (DNS)", 0},
		{"timeout", silentOrigin(t), "no answer in time (timeout)", 20 * time.Millisecond},
	}
	const (
		head    = "host unreachable at <origin>"
		repair  = "No host answered at <origin>. Check the endpoint (endpoint or TAKOFORM_ENDPOINT), that the host is running and that this machine can reach it, then run the command again."
		code    = "Code: takoform.provider/host-unreachable"
		queue01 = "Form: edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue@0.1.0 schema=<sha256-1>"
		queue02 = "Form: edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue@0.2.0 schema=<sha256-1>"
	)
	for _, sit := range situations {
		t.Run(sit.name, func(t *testing.T) {
			h.p.testClient.HTTP = &http.Client{Timeout: sit.timeout}
			defer func() { h.p.testClient.HTTP = nil }()
			mustNoError(t, "configure", h.configure(map[string]string{"endpoint": sit.origin, "token": "sim-primary", "space": "dev"}))
			cause := "Cause: " + head + ": " + sit.reason + " (GET /.well-known/takoform/v1beta1)"
			answers := []struct {
				what string
				run  func() []*tfprotov6.Diagnostic
				want diagnostic
			}{
				{"plan", func() []*tfprotov6.Diagnostic { return h.plan(queueType, other, nil).diags }, warningDiag(queueSubject+": "+head,
					"Nothing was decided at plan time; apply still checks.", "", cause, "",
					"Resource: takoform_at_least_once_queue (dev/other)", queue02,
					"Route: GET /.well-known/takoform/v1beta1",
					"Code: takoform.provider/host-support-unreadable (takoform.provider/host-unreachable)",
					"Retryable: yes", "",
					repair+" Nothing to do if apply succeeds; to make a CI plan gate fail here instead, set require_support_surface = true.")},
				{"create", func() []*tfprotov6.Diagnostic { _, d := h.apply(queueType, other, nil, create.planned); return d }, errorDiag("Failed to create AtLeastOnceQueue other: "+head,
					"No host answered the create ("+head+"); nothing was written to state.", "", cause, "",
					"Resource: takoform_at_least_once_queue (dev/other)", queue02, "Pointer: /spec", code, "Retryable: yes", "", repair)},
				{"read", func() []*tfprotov6.Diagnostic { _, d := h.read(queueType, st); return d }, errorDiag("Failed to read AtLeastOnceQueue orders: "+head,
					"The host could not be read; the state was left unchanged.", "", cause, "",
					"Resource: takoform_at_least_once_queue (dev/orders)", queue01, "Pointer: /metadata", "Expected UID: <uid>", code, "Retryable: yes", "", repair)},
				{"update", func() []*tfprotov6.Diagnostic { _, d := h.apply(queueType, longer, st, update.planned); return d }, errorDiag("Failed to update AtLeastOnceQueue orders: "+head,
					"No host answered the update ("+head+"); the state keeps the prior values.", "", cause, "",
					"Resource: takoform_at_least_once_queue (dev/orders)", queue01, "Pointer: /spec",
					"Expected UID: <uid>", "Expected generation: 1", "Expected revision: 1", code, "Retryable: yes", "", repair)},
				{"delete", func() []*tfprotov6.Diagnostic { _, d := h.apply(queueType, nil, st, nil); return d }, errorDiag("Failed to delete AtLeastOnceQueue orders: "+head,
					"No host answered the delete ("+head+"); the resource stays in state.", "", cause, "",
					"Resource: takoform_at_least_once_queue (dev/orders)", queue01, "Pointer: /metadata",
					"Expected UID: <uid>", "Expected generation: 1", code, "Retryable: yes", "", repair)},
				{"import", func() []*tfprotov6.Diagnostic { _, d := h.importID(queueType, "dev/orders"); return d }, errorDiag("Failed to import AtLeastOnceQueue orders: "+head,
					"The import probe could not read the host; nothing was imported.", "", cause, "",
					"Resource: takoform_at_least_once_queue (dev/orders)", "Pointer: /metadata", code, "Retryable: yes", "", repair)},
				{"transition", func() []*tfprotov6.Diagnostic {
					h.private[queueType+"/planned"] = transitionPrivate
					_, d := h.apply(queueType, moved, st, transition.planned)
					return d
				}, errorDiag("Outcome of the Form transition of AtLeastOnceQueue orders is not known yet: "+head,
					"The state keeps 0.1.0 and records the operation; running apply again reconciles it.", "", cause, "",
					"Resource: takoform_at_least_once_queue (dev/orders)", queue01,
					"Expected UID: <uid>", "Expected generation: 1", "Expected revision: 1", "Operation: <formtx-1>",
					"Code: takoform.provider/form-transition-indeterminate (takoform.provider/host-unreachable)", "Retryable: yes", "",
					repair+" The same configuration reconciles the transition.")},
			}
			for _, a := range answers {
				start := time.Now()
				ds := a.run()
				if took := time.Since(start); took > 10*time.Second {
					t.Errorf("%s took %s", a.what, took)
				}
				// none says the host refused anything
				wantDiags(t, named(ds, "<origin>", sit.origin, "<uid>", st.str(aUID)), a.want)
			}
		})
	}
}
