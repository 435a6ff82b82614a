package takoform

import (
	"regexp"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/takokit/takokit/hostsim"
)

// opIDRe finds an Operation's id in hostsim's admin state.
var opIDRe = regexp.MustCompile(`op_[0-9a-f]{20}`)

// applyWhileItsOperationFails plans and applies cfg over prior (nil: a create)
// while the host accepts the write (202, under the armed apply.accept-unfinished
// fault) and then ends its Operation with backend_unavailable through the admin
// API, as a host whose backend failed would. It returns what the apply returned.
func applyWhileItsOperationFails(t *testing.T, h *harness, cfg, prior values) (values, []*tfprotov6.Diagnostic) {
	t.Helper()
	return applyWhileItsOperationEnds(t, h, cfg, prior, func(id string) error {
		_, err := h.sim.Admin.Fail(id, "backend_unavailable")
		return err
	})
}

// applyWhileItsOperationEnds is applyWhileItsOperationFails ending the Operation with
// end (given its id) instead.
func applyWhileItsOperationEnds(t *testing.T, h *harness, cfg, prior values, end func(id string) error) (values, []*tfprotov6.Diagnostic) {
	t.Helper()
	pr := h.plan(queueType, cfg, prior)
	mustNoError(t, "plan", pr.diags)
	wait := whileItsOperationEnds(t, h, end)
	st, d := h.apply(queueType, cfg, prior, pr.planned)
	wait()
	return st, d
}

// whileItsOperationEnds arms apply.accept-unfinished for the next AtLeastOnceQueue
// write and ends the Operation hostsim accepts it under with end, as soon as hostsim
// holds one (up to 10 s). wait blocks until end has run, and fails t if it never did.
func whileItsOperationEnds(t *testing.T, h *harness, end func(id string) error) (wait func()) {
	t.Helper()
	if err := h.sim.Admin.ArmFault("apply.accept-unfinished,kind=AtLeastOnceQueue,count=1"); err != nil {
		t.Fatal(err)
	}
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			st, err := h.sim.Admin.State()
			if err != nil {
				t.Error(err)
				return
			}
			if id := opIDRe.Find(st); id != nil {
				if err := end(string(id)); err != nil {
					t.Error(err)
				}
				return
			}
		}
		t.Error("no operation was accepted within 10 s")
	}()
	return func() { <-ended }
}

// TestCreateWhoseOperationFailsWritesNothing: the host accepts a create (202) and
// its Operation then ends with an error. The apply fails naming the host's error;
// nothing is written to state.
func TestCreateWhoseOperationFailsWritesNothing(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	st, d := applyWhileItsOperationFails(t, h, values{aName: s("orders"), "message_retention_seconds": i64(60), aCreateTimeout: s("20s")}, nil)
	wantDiags(t, d, errorDiag("Failed to create AtLeastOnceQueue orders",
		"The host accepted the create and then ended its operation with an error; nothing was created.",
		"",
		"Host: operation <op-1> was failed with backend_unavailable through the hostsim admin API",
		"",
		"Resource: takoform_at_least_once_queue (dev/orders)",
		"Form: edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue@0.2.0 schema=<sha256-1>",
		"Pointer: /spec",
		"Operation: <op-1>",
		"Code: backend_unavailable (host, HTTP 503)",
		"Retryable: yes",
		"",
		"This is transient and the provider already retried. Apply again later."))
	if st != nil {
		t.Errorf("a create whose operation failed wrote state %v", st)
	}
}

// TestUpdateWhoseOperationFailsKeepsThePriorState: as above for an update; the
// state keeps the prior values.
func TestUpdateWhoseOperationFailsKeepsThePriorState(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	st := h.create(queueType, values{aName: s("orders"), "message_retention_seconds": i64(60)})
	kept, d := applyWhileItsOperationFails(t, h, values{aName: s("orders"), "message_retention_seconds": i64(120), aUpdateTimeout: s("20s")}, st)
	wantDiags(t, d, errorDiag("Failed to update AtLeastOnceQueue orders",
		"The host accepted the update and then ended its operation with an error; the state keeps the prior values.",
		"",
		"Host: operation <op-1> was failed with backend_unavailable through the hostsim admin API",
		"",
		"Resource: takoform_at_least_once_queue (dev/orders)",
		"Form: edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue@0.2.0 schema=<sha256-1>",
		"Pointer: /spec",
		"Expected UID: <uid-1>",
		"Expected generation: 1",
		"Expected revision: 1",
		"Operation: <op-1>",
		"Code: backend_unavailable (host, HTTP 503)",
		"Retryable: yes",
		"",
		"This is transient and the provider already retried. Apply again later."))
	wantKept(t, st, kept)
}
