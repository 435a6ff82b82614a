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
	h.create(workerType, values{aName: s("api")}) // a new incarnation under the same name
	rd, d := h.read(endpointType, ep)
	mustNoError(t, "read", d)
	if diagWith(d, "points at a resource that changed outside this configuration", codeRelationTargetChanged) == nil {
		t.Fatalf("want the drift warning:\n%s", dump(d))
	}
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
	if dg := diagWith(d, "Failed to update WorkerEndpoint api-edge", "Expected UID: "+ep.str(aUID), "Expected generation: 1"); dg == nil {
		if hasError(d) {
			t.Fatalf("want the fenced re-pin:\n%s", dump(d))
		}
		if up.str(aDrift) != "" || up.str(aUID) != ep.str(aUID) {
			t.Errorf("after re-pin: drift=%q uid=%q (was %q)", up.str(aDrift), up.str(aUID), ep.str(aUID))
		}
		return
	}
	if up.str(aDrift) != reason || up.str(aGeneration) != rd.str(aGeneration) {
		t.Errorf("a refused re-pin must keep the prior state: drift=%q generation=%q", up.str(aDrift), up.str(aGeneration))
	}
}
