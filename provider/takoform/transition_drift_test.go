package takoform

import (
	"testing"

	"github.com/takokit/takokit/hostsim"
)

// TestTransitionOfADriftedResourcePlansItsRepin: a 0.1.0 endpoint whose worker was
// replaced outside the configuration records relation drift; planning its transition
// moves it to 0.2.0 and plans the re-pin too (relation_drift_reason null, the host's
// answer unknown), since the transition's answer is the re-pinned resource.
func TestTransitionOfADriftedResourcePlansItsRepin(t *testing.T) {
	t.Parallel()
	h := withWorker(t, hostsim.Config{ConformanceProbes: true})
	worker, _ := h.importID(workerType, "dev/api")
	worker, _ = h.read(workerType, worker)
	ep := h.create(endpointType, endpointConfig(values{aFormDefVersion: s("0.1.0")}))
	removeOutOfBand(t, h, worker)
	h.create(workerType, values{aName: s("api")})
	rd, d := h.read(endpointType, ep)
	mustNoError(t, "read", d)
	if rd.str(aDrift) == "" {
		t.Fatalf("the endpoint must record drift after its worker was replaced: %v", rd)
	}
	pr := h.plan(endpointType, endpointConfig(values{aFormTransition: s("worker-endpoint-0.1-to-0.2")}), rd)
	mustNoError(t, "plan", pr.diags)
	if pr.planned.str(aFormDefVersion) != "0.2.0" || len(pr.replace) != 0 {
		t.Fatalf("plan: version=%q replace=%v; want the transition in place", pr.planned.str(aFormDefVersion), pr.replace)
	}
	if !pr.planned[aDrift].IsNull() || !pr.planned[aRevision].IsUnknown() || !pr.planned["port"].IsUnknown() {
		t.Errorf("plan: drift=%v revision=%v port=%v; want the drift cleared and the host's answer unknown", pr.planned[aDrift], pr.planned[aRevision], pr.planned["port"])
	}
}
