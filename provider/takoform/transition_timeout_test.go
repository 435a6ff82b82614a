package takoform

import (
	"testing"
	"time"

	"github.com/takokit/takokit/hostsim"
)

// TestTransitionOfAFormWithoutUpdateWaitsItsCreateTimeout: a Form that declares no
// update (WorkerEndpoint 0.1.0) has no update_timeout, so its Form transition waits
// create_timeout (docs/provider-design.md#transitions). The host holds the POST
// longer than that: the apply stops waiting at create_timeout and reports the
// outcome unknown, where waiting the default update timeout would have seen the
// commit. A POST and its readback that got no answer in time are a host no one
// reached (docs/provider-design.md#diagnostics, "No host answered"): before, the
// two errors were joined as text and the report lost the unreachable code and
// repair.
func TestTransitionOfAFormWithoutUpdateWaitsItsCreateTimeout(t *testing.T) {
	t.Parallel()
	h := withWorker(t, hostsim.Config{})
	requireTransitions(t, h)
	st := h.create(endpointType, endpointConfig(values{aFormDefVersion: s("0.1.0")}))
	transitionHost(t, h, func(method string, n int, fwd func() reply) reply {
		if method == "POST" {
			time.Sleep(1500 * time.Millisecond)
		}
		return fwd()
	})
	cfg := endpointConfig(values{aFormTransition: s("worker-endpoint-0.1-to-0.2"), aCreateTimeout: s("300ms")})
	pr := h.plan(endpointType, cfg, st)
	mustNoError(t, "plan", pr.diags)
	up, d := h.apply(endpointType, cfg, st, pr.planned)
	route := "/apis/forms.takoform.com/v1beta1/resources/edge.forms.takokit.dev/v1beta1/WorkerEndpoint/api-edge/form-transitions"
	late := "host unreachable at http://127.0.0.1:<port-1>: no answer in time (timeout)"
	// no answer in time is no host answering: the unreachable headline, code and
	// repair, with both the POST and its readback in the cause
	mustBeIndeterminate(t, up, d, errorDiag("Outcome of the Form transition of WorkerEndpoint api-edge is not known yet: host unreachable at http://127.0.0.1:<port-1>",
		"The state keeps 0.1.0 and records the operation; running apply again reconciles it (readback http://127.0.0.1:<port-1>"+route+"/<formtx-1>?space=dev).",
		"",
		"Cause: "+late+" (POST "+route+"); readback: "+late+" (GET "+route+"/<formtx-1>)",
		"",
		"Resource: takoform_worker_endpoint (dev/api-edge)",
		"Form: edge.forms.takokit.dev/v1beta1 WorkerEndpoint@0.1.0 schema=<sha256-1>",
		"Expected UID: <uid-1>",
		"Expected generation: 1",
		"Expected revision: 1",
		"Operation: <formtx-1>",
		"Code: takoform.provider/form-transition-indeterminate (takoform.provider/host-unreachable)",
		"Retryable: yes",
		"",
		"No host answered at http://127.0.0.1:<port-1>. Check the endpoint (endpoint or TAKOFORM_ENDPOINT), that the host is running and that this machine can reach it, then run the command again. The same configuration reconciles the transition."))
}
