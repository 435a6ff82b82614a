package takoform

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/takokit/takokit/hostsim"
)

// pendingUpdate creates queue orders (retention 60) and applies retention 120 while the host
// accepts the update without finishing it: the state it returns keeps the prior values and
// records the operation in pending_operation_id.
func pendingUpdate(t *testing.T, h *harness) values {
	t.Helper()
	cfg := values{aName: s("orders"), "message_retention_seconds": i64(60), aUpdateTimeout: s("300ms"), aCreateTimeout: s("2s")}
	st := h.create(queueType, cfg)
	if err := h.sim.Admin.ArmFault("apply.accept-unfinished,kind=AtLeastOnceQueue,count=1"); err != nil {
		t.Fatal(err)
	}
	cfg["message_retention_seconds"] = i64(120)
	pr := h.plan(queueType, cfg, st)
	mustNoError(t, "plan", pr.diags)
	up, _ := h.apply(queueType, cfg, st, pr.planned)
	if up == nil || up.str(aPendingOp) == "" || up.str(aGeneration) != "1" {
		t.Fatalf("want the prior state with the marker: %v", up)
	}
	return up
}

// refreshPending refreshes the pendingUpdate state of a host of its own: settle (if any) acts on
// the host or the state first, and front (if any) stands in front of the host. It returns the
// state refreshed from, and the state and diagnostics of the refresh.
func refreshPending(t *testing.T, settle func(h *harness, up values), front otherHook) (up, rd values, d []*tfprotov6.Diagnostic) {
	t.Helper()
	h := newHarness(t, hostsim.Config{})
	up = pendingUpdate(t, h)
	if settle != nil {
		settle(h, up)
	}
	if front != nil {
		hostInFront(t, h, front)
	}
	rd, d = h.read(queueType, up)
	return up, rd, d
}

// failOperation ends the recorded operation with backend_unavailable through hostsim's admin API.
func failOperation(t *testing.T) func(h *harness, up values) {
	return func(h *harness, up values) {
		if _, err := h.sim.Admin.Fail(up.str(aPendingOp), "backend_unavailable"); err != nil {
			t.Fatal(err)
		}
	}
}

// operationsAnswer is a host in front that answers every operation read with answer (fwd
// sends it on to hostsim).
func operationsAnswer(answer func(fwd func() reply) reply) otherHook {
	return func(r *http.Request, fwd func() reply) (reply, bool) {
		if r.Method != http.MethodGet || !strings.Contains(r.URL.Path, "/operations/") {
			return reply{}, false
		}
		return answer(fwd), true
	}
}

// bentOperation is a host in front that edits every operation document hostsim answers.
func bentOperation(t *testing.T, edit func(doc map[string]any)) otherHook {
	return operationsAnswer(func(fwd func() reply) reply {
		rep := fwd()
		rep.body = editJSON(t, rep.body, edit)
		return rep
	})
}

// TestRefreshOfAPendingOperation: a refresh consults the operation the state records
// before it reads the resource (docs/provider-design.md#pending-operations). An operation
// that ended with an error, or that the host no longer holds, is a warning and the resource
// is read as it is; an operation that cannot be read, or whose result is another
// incarnation, fails the refresh and keeps the state, marker included.
func TestRefreshOfAPendingOperation(t *testing.T) {
	t.Parallel()
	t.Run("that ended with an error reads the resource as it is", func(t *testing.T) {
		t.Parallel()
		up, rd, d := refreshPending(t, failOperation(t), nil)
		wantDiags(t, named(d, "<op>", up.str(aPendingOp)), operationFailed())
		mustReadAsItIs(t, rd)
	})
	t.Run("that ended with an error and a host reason names the reason", func(t *testing.T) {
		t.Parallel()
		up, rd, d := refreshPending(t, failOperation(t), bentOperation(t, func(doc map[string]any) {
			doc["error"].(map[string]any)["hostCode"] = "queue.backend.quota"
		}))
		wantDiags(t, named(d, "<op>", up.str(aPendingOp)), operationFailed("Host reason: queue.backend.quota"))
		mustReadAsItIs(t, rd)
	})
	t.Run("the host no longer holds reads the resource as it is", func(t *testing.T) {
		t.Parallel()
		up, rd, d := refreshPending(t, func(h *harness, up values) { up[aPendingOp] = s("op_" + strings.Repeat("0", 20)) }, nil)
		wantDiags(t, named(d, "<op>", up.str(aPendingOp)), warningDiag("AtLeastOnceQueue operation <op> is no longer on the host",
			"The recorded operation has expired or is unknown; the resource is read as it is now.",
			"",
			"Host: operation <op> is unknown, expired or not yours",
			"",
			"Resource: takoform_at_least_once_queue (dev/orders)",
			"Form: edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue@0.2.0 schema=<sha256-1>",
			"Operation: <op>",
			"Request: <req-1>",
			"Code: operation_not_found (host, HTTP 404)",
			"Retryable: no",
			"",
			"The operation is no longer addressable on the host. Refresh to see the resource as it is."))
		mustReadAsItIs(t, rd)
	})
	t.Run("that cannot be read keeps the state", func(t *testing.T) {
		t.Parallel()
		up, rd, d := refreshPending(t, nil, operationsAnswer(func(func() reply) reply { return serverError(t) }))
		wantDiags(t, named(d, "<op>", up.str(aPendingOp)), serverErrorDiag("Could not check AtLeastOnceQueue operation <op>", "The pending operation could not be read; the state was kept.",
			"Resource: takoform_at_least_once_queue (dev/orders)",
			"Form: edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue@0.2.0 schema=<sha256-1>",
			"Operation: <op>"))
		wantKept(t, up, rd)
	})
	t.Run("still running, whose resource cannot be read, keeps the state and names the operation", func(t *testing.T) {
		t.Parallel()
		up, rd, d := refreshPending(t, nil, func(r *http.Request, fwd func() reply) (reply, bool) {
			if r.Method != http.MethodGet || !strings.HasSuffix(r.URL.Path, "/orders") {
				return reply{}, false
			}
			return serverError(t), true
		})
		wantDiags(t, named(d, "<op>", up.str(aPendingOp), "<uid>", up.str(aUID)), warningDiag("AtLeastOnceQueue orders is still changing on the host",
			"The host has not finished the operation recorded in pending_operation_id; the state keeps the marker and the next refresh checks again.",
			"",
			"Resource: takoform_at_least_once_queue (dev/orders)",
			"Form: edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue@0.2.0 schema=<sha256-1>",
			"Operation: <op>",
			"Code: accepted-without-representation (host)",
			"Retryable: no",
			"",
			"Run tofu apply or tofu refresh again later."),
			serverErrorDiag("Failed to read AtLeastOnceQueue orders", "The host could not be read; the state was left unchanged.",
				"Resource: takoform_at_least_once_queue (dev/orders)",
				"Form: edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue@0.2.0 schema=<sha256-1>",
				"Pointer: /metadata",
				"Expected UID: <uid>",
				"Operation: <op>"))
		wantKept(t, up, rd)
	})
	t.Run("whose every read breaks off keeps the state", func(t *testing.T) {
		t.Parallel()
		up, rd, d := refreshPending(t, nil, operationsAnswer(func(func() reply) reply { return dropped }))
		wantDiags(t, named(d, "<op>", up.str(aPendingOp)), errorDiag("Could not check AtLeastOnceQueue operation <op>",
			"The pending operation could not be read; the state was kept.",
			"",
			"Cause: GET http://127.0.0.1:<port-1>/apis/forms.takoform.com/v1beta1/operations/<op>: no complete answer from the host: unexpected EOF",
			"",
			"Resource: takoform_at_least_once_queue (dev/orders)",
			"Form: edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue@0.2.0 schema=<sha256-1>",
			"Operation: <op>",
			"Code: takoform.provider/operation-resume-failed",
			"Retryable: no",
			"",
			"The connection to the host broke before a complete answer came. Check the endpoint and network, then apply again."))
		wantKept(t, up, rd)
	})
	t.Run("whose result is another incarnation keeps the state", func(t *testing.T) {
		t.Parallel()
		other := "u-" + strings.Repeat("9", 20)
		complete := func(h *harness, up values) {
			if _, err := h.sim.Admin.Complete(up.str(aPendingOp)); err != nil {
				t.Fatal(err)
			}
		}
		up, rd, d := refreshPending(t, complete, bentOperation(t, func(doc map[string]any) {
			doc["result"].(map[string]any)["resource"].(map[string]any)["metadata"].(map[string]any)["uid"] = other
			doc["target"].(map[string]any)["uid"] = other
		}))
		wantDiags(t, named(d, "<uid>", up.str(aUID), "<other>", other), queueUIDMismatch(sameNameOtherUID, "0.2.0", "<uid>", "<other>", "2", "2"))
		wantKept(t, up, rd)
	})
}

// mustReadAsItIs fails t unless rd is the queue as the host holds it after its update
// failed: the prior retention at generation 1, and no operation recorded.
func mustReadAsItIs(t *testing.T, rd values) {
	t.Helper()
	if rd == nil || rd.str(aPendingOp) != "" || rd.str(aGeneration) != "1" || !rd["message_retention_seconds"].Equal(i64(60)) {
		t.Fatalf("want the queue as the host holds it (generation 1, retention 60, no operation): %v", rd)
	}
}

// TestRefreshOfAnOperationAnswerThatBreaksTheProtocolKeepsTheState: the operation a refresh
// consults must be an operations.takoform.com/v1alpha1 Operation, answered 200, with the id
// asked for; a pending one carries neither result nor error, a finished one exactly one of
// them, never a null result; its error is a code of the lane, retryable only when the code
// is, with a message. An answer that breaks any of these fails the refresh naming the rule,
// and the state is kept, its marker with it.
func TestRefreshOfAnOperationAnswerThatBreaksTheProtocolKeepsTheState(t *testing.T) {
	t.Parallel()
	failed := map[string]any{"code": "backend_unavailable", "message": "the backend failed", "retryable": true}
	for _, c := range []struct {
		name   string
		bend   func(doc map[string]any)
		status int
		cause  string
	}{
		{"apiVersion", func(doc map[string]any) { doc["apiVersion"] = "operations.takoform.com/v1" }, 0,
			"operation is operations.takoform.com/v1 Operation, not operations.takoform.com/v1alpha1 Operation"},
		{"kind", func(doc map[string]any) { doc["kind"] = "Job" }, 0,
			"operation is operations.takoform.com/v1alpha1 Job, not operations.takoform.com/v1alpha1 Operation"},
		{"id grammar", func(doc map[string]any) { doc["id"] = "job-1" }, 0,
			`operation id "job-1" does not match ^op_…`},
		{"another id", func(doc map[string]any) { doc["id"] = "op_other" }, 0,
			"asked for operation <op>, got op_other"},
		{"status", func(doc map[string]any) {}, http.StatusCreated, "operation read must answer 200"},
		{"pending with a result", func(doc map[string]any) { doc["result"] = map[string]any{"deleted": true} }, 0,
			"pending operation <op> carries a result or error"},
		{"pending with an error", func(doc map[string]any) { doc["error"] = failed }, 0,
			"pending operation <op> carries a result or error"},
		{"done with neither", func(doc map[string]any) { doc["done"] = true }, 0,
			"finished operation <op> must carry exactly one of result and error"},
		{"done with both", func(doc map[string]any) {
			doc["done"], doc["result"], doc["error"] = true, map[string]any{"deleted": true}, failed
		}, 0, "finished operation <op> must carry exactly one of result and error"},
		{"null result", func(doc map[string]any) { doc["done"], doc["result"] = true, nil }, 0,
			"operation <op> has a null result"},
		{"unknown error code", func(doc map[string]any) {
			doc["done"], doc["error"] = true, map[string]any{"code": "exploded", "message": "boom", "retryable": false}
		}, 0, `operation <op> error code "exploded" is not a code of the lane`},
		{"retryable error whose code is not", func(doc map[string]any) {
			doc["done"], doc["error"] = true, map[string]any{"code": "invalid_argument", "message": "bad", "retryable": true}
		}, 0, `operation <op> error "invalid_argument" says retryable, and the lane's code is not`},
		{"error without a message", func(doc map[string]any) {
			doc["done"], doc["error"] = true, map[string]any{"code": "backend_unavailable", "message": "", "retryable": true}
		}, 0, `operation <op> error "backend_unavailable" has no message`},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			up, rd, d := refreshPending(t, nil, operationsAnswer(func(fwd func() reply) reply {
				rep := fwd()
				rep.body = editJSON(t, rep.body, c.bend)
				if c.status != 0 {
					rep.status = c.status
				}
				return rep
			}))
			status := c.status
			if status == 0 {
				status = http.StatusOK
			}
			wantDiags(t, named(d, "<op>", up.str(aPendingOp)), errorDiag("Could not check AtLeastOnceQueue operation <op>",
				"The host's answer about the pending operation breaks the protocol; the state was kept.",
				"",
				"Cause: "+c.cause,
				"",
				"Resource: takoform_at_least_once_queue (dev/orders)",
				"Form: edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue@0.2.0 schema=<sha256-1>",
				"Operation: <op>",
				fmt.Sprintf("Code: protocol-invalid host response (HTTP %d)", status),
				"Retryable: no",
				"",
				"The host's answer breaks the protocol, so the provider will not guess a remedy. Check the host (and any proxy in front of it)."))
			wantKept(t, up, rd)
		})
	}
}

// operationFailed is the warning of a refresh whose recorded operation <op> hostsim's admin API
// failed with backend_unavailable; reason holds the host reason's line, if the answer had one.
func operationFailed(reason ...string) diagnostic {
	lines := append([]string{"The host finished the recorded operation with an error; the resource is read as it is now.",
		"",
		"Host: operation <op> was failed with backend_unavailable through the hostsim admin API",
		"",
		"Resource: takoform_at_least_once_queue (dev/orders)",
		"Form: edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue@0.2.0 schema=<sha256-1>",
		"Operation: <op>"}, reason...)
	return warningDiag("AtLeastOnceQueue operation <op> ended with backend_unavailable: operation <op> was failed with backend_unavailable through the hostsim admin API",
		append(lines, "Code: backend_unavailable (host, HTTP 503)", "Retryable: yes", "",
			"This is transient and the provider already retried. Apply again later.")...)
}
