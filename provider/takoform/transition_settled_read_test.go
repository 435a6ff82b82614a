package takoform

import (
	"net/http"
	"strings"
	"testing"

	"github.com/takokit/takokit/hostsim"
)

// TestTransitionSettledByARefreshWhoseReadThenFails: a refresh whose readback
// settles an unresolved transition (committed, rejected, or never posted: the
// host does not know it) but whose read of the
// resource then gets no answer fails, and its error names no operation: the
// transition has ended. OpenTofu writes nothing of a failed refresh (the harness
// keeps the private state as it was, docs/provider-design.md#pending-operations),
// so the next refresh reads the readback again and settles it.
func TestTransitionSettledByARefreshWhoseReadThenFails(t *testing.T) {
	readFailed := func(version, digest string) diagnostic {
		return errorDiag("Failed to read AtLeastOnceQueue orders",
			"The host could not be read; the state was left unchanged.",
			"",
			"Cause: GET http://127.0.0.1:<port-1>/apis/forms.takoform.com/v1beta1/resources/edge.forms.takokit.dev/v1beta1/AtLeastOnceQueue/orders?definitionVersion="+version+"&group=edge.forms.takokit.dev%2Fv1beta1&kind=AtLeastOnceQueue&schemaDigest=sha256%3A"+digest+"&space=dev: no complete answer from the host: unexpected EOF",
			"",
			"Resource: takoform_at_least_once_queue (dev/orders)",
			"Form: edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue@"+version+" schema=<sha256-1>",
			"Pointer: /metadata",
			"Expected UID: <uid-1>",
			"Retryable: no",
			"",
			"The connection to the host broke before a complete answer came. Check the endpoint and network, then apply again.")
	}
	rejected := refreshRejected("<formtx-1>")
	const (
		old = "682ec9caadde8431ea209a2691a4e425c7e3bef3e9d9b7fa0156e09eb5958988" // AtLeastOnceQueue 0.1.0
		new = "013dedcd03e506564c96719928b5ac7a6e4ec814f4fdf94d204823e46899b06a" // 0.2.0
	)
	for _, tc := range []struct {
		name            string
		reject          bool
		neverSent       bool // the POST never reached the host
		failed, settled []diagnostic
		version, gen    string
	}{
		{"committed", false, false, []diagnostic{readFailed("0.2.0", new)}, nil, "0.2.0", "2"},
		{"rejected", true, false, []diagnostic{rejected, readFailed("0.1.0", old)}, []diagnostic{rejected}, "0.1.0", "1"},
		{"never posted", false, true, []diagnostic{readFailed("0.1.0", old)}, nil, "0.1.0", "1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, hostsim.Config{})
			st, cfg := oldQueue(t, h)
			if tc.reject {
				if err := h.sim.Admin.ArmFault("transition.reject,kind=AtLeastOnceQueue,count=1"); err != nil {
					t.Fatal(err)
				}
			}
			lose, readFails := true, false
			transitionHostWith(t, h, func(method string, n int, fwd func() reply) reply {
				if tc.neverSent && lose && method == "POST" {
					return dropped // never forwarded
				}
				rep := fwd()
				if lose && (method == "POST" || n == 2) {
					return dropped
				}
				return rep
			}, func(r *http.Request, _ func() reply) (reply, bool) {
				return dropped, readFails && r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/orders")
			})
			up, _ := applyTransition(t, h, cfg, st)
			if !strings.HasPrefix(up.str(aPendingOp), "formtx_") {
				t.Fatalf("the apply should end indeterminate with the transition pending: %q", up.str(aPendingOp))
			}
			lose, readFails = false, true
			_, d := h.read(queueType, up)
			wantDiags(t, named(d, "<formtx-1>", up.str(aPendingOp)), tc.failed...)
			readFails = false
			rd, d := h.read(queueType, up)
			wantDiags(t, named(d, "<formtx-1>", up.str(aPendingOp)), tc.settled...)
			if rd.str(aFormDefVersion) != tc.version || rd.str(aPendingOp) != "" || rd.str(aGeneration) != tc.gen || rd.str(aUID) != st.str(aUID) {
				t.Fatalf("after the refresh that settled: version=%q pending=%q gen=%q uid=%q", rd.str(aFormDefVersion), rd.str(aPendingOp), rd.str(aGeneration), rd.str(aUID))
			}
		})
	}
}
