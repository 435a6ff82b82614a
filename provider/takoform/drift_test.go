package takoform

import (
	"context"
	"net/http"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim"
	"github.com/takokit/takokit/provider/internal/client"
)

// removeOutOfBand deletes a resource the way a backend loses it: the conformance
// probe skips the dependency scans, so resources pinning it render drift.
func removeOutOfBand(t *testing.T, h *harness, st values) {
	t.Helper()
	ref, _ := refOf(st)
	key, _ := client.IdempotencyKey("delete", ref, st.str(aSpace), st.str(aName), st.str(aUID), st.str(aGeneration), nil)
	u := h.sim.URL + wire.DefaultLane.APIRoot + client.ResourcePath("", ref, st.str(aName)) + "?" + wire.ExactQuery(st.str(aSpace), ref).Encode()
	req, _ := http.NewRequestWithContext(context.Background(), http.MethodDelete, u, nil)
	req.Header.Set("Authorization", "Bearer sim-primary")
	req.Header.Set("Idempotency-Key", key)
	req.Header.Set("Takoform-Expected-Generation", st.str(aGeneration))
	req.Header.Set("Takoform-Conformance-Probe", "external-change")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent {
		t.Fatalf("out-of-band delete: HTTP %d", resp.StatusCode)
	}
}

func TestRelationDriftIsRecordedAndRepinnedInPlace(t *testing.T) {
	h := withWorker(t, hostsim.Config{ConformanceProbes: true})
	worker, _ := h.importID(workerType, "dev/api")
	worker, _ = h.read(workerType, worker)
	ep := h.create(endpointType, endpointConfig(nil))
	removeOutOfBand(t, h, worker)
	if rd0, _ := h.read(endpointType, ep); rd0 == nil || rd0[aReady].Equal(types.BoolValue(true)) {
		t.Fatalf("hostsim must render relation drift after an out-of-band removal of the target (the endpoint is still Ready): %v", rd0)
	}
	again := h.create(workerType, values{aName: s("api")}) // a new incarnation under the same name
	rd, d := h.read(endpointType, ep)
	wantDiags(t, named(d, "<old worker uid>", worker.str(aUID), "<new worker uid>", again.str(aUID)),
		warningDiag("WorkerEndpoint api-edge points at a resource that changed outside this configuration",
			"The host reports ExternalChange on the Ready condition. The next apply re-pins the relation (a revision Form is replaced).",
			"",
			`Host: relation /worker: pinned ModuleWorker "api" uid <old worker uid> (edge.forms.takokit.dev/v1beta1 ModuleWorker 0.1.0 <sha256-1>) is now uid <new worker uid> (edge.forms.takokit.dev/v1beta1 ModuleWorker 0.1.0 <sha256-1>)`,
			"",
			"Resource: takoform_worker_endpoint (dev/api-edge)",
			"Form: edge.forms.takokit.dev/v1beta1 WorkerEndpoint@0.2.0 schema=<sha256-2>",
			"Host reason: relation-target-replaced /worker pinned <old worker uid> now <new worker uid>",
			"Code: takoform.provider/relation-target-changed",
			"Retryable: no",
			"",
			"Run tofu apply to re-pin; if the target was deleted, create it first."))
	reason := rd.str(aDrift)
	if reason != "ExternalChange" && reason != "DependencyMissing" {
		t.Fatalf("relation_drift_reason = %q", reason)
	}
	cfg := endpointConfig(nil)
	pr := h.plan(endpointType, cfg, rd)
	mustNoError(t, "plan", pr.diags)
	if len(pr.replace) != 0 || !pr.planned[aDrift].IsNull() {
		t.Fatalf("re-pin plan: replace=%v drift=%v", pr.replace, pr.planned[aDrift])
	}
	// The re-pin's answer rewrites what the host computes: those attributes must be planned
	// unknown, or OpenTofu reports "Provider produced inconsistent result after apply".
	for _, a := range []string{aRevision, aGeneration, aReady, aConditions} {
		if !pr.planned[a].IsUnknown() {
			t.Errorf("re-pin plan keeps %s = %v; want unknown", a, pr.planned[a])
		}
	}
	// The re-pin is an in-place update with the update fences. The re-created worker
	// has no deployment yet, so this host refuses the endpoint's re-pin at its
	// attachment gate; what is proven here is that the re-pin went out fenced and
	// that a refused update keeps the prior state (drift reason included).
	up, d := h.apply(endpointType, cfg, rd, pr.planned)
	wantDiags(t, named(d, "<endpoint uid>", ep.str(aUID)), errorDiag("Failed to update WorkerEndpoint api-edge",
		"The host refused the update; the state keeps the prior values.",
		"",
		`Host: WorkerEndpoint "api-edge" in space "dev": /worker: worker "api" has no active deployment, so nothing serves its "fetch" handler; deploy a version declaring "fetch" first`,
		"",
		"Resource: takoform_worker_endpoint (dev/api-edge)",
		"Form: edge.forms.takokit.dev/v1beta1 WorkerEndpoint@0.2.0 schema=<sha256-1>",
		"Pointer: /spec/worker",
		"Expected UID: <endpoint uid>",
		"Expected generation: 1",
		"Expected revision: 3",
		"Request: <req-1>",
		"Code: unsupported_capability (host, HTTP 422)",
		"Retryable: no",
		"",
		"The host lacks a capability this needs (handler, binding or endpoint assignment). See the host message, or use another host."))
	if up.str(aDrift) != reason || up.str(aGeneration) != rd.str(aGeneration) {
		t.Errorf("a refused re-pin must keep the prior state: drift=%q generation=%q", up.str(aDrift), up.str(aGeneration))
	}
}
