package takoform

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/takokit/takokit/hostsim"
)

const (
	workerType   = "takoform_module_worker"
	endpointType = "takoform_worker_endpoint"
)

func endpointConfig(extra values) values {
	v := values{aName: s("api-edge"), "worker": s("api")}
	for k, x := range extra {
		v[k] = x
	}
	return v
}

// withWorker starts a harness and creates what an endpoint attaches to: the
// ModuleWorker "api" with a bundle from a local file, a version and a deployment.
func withWorker(t *testing.T, cfg hostsim.Config) *harness {
	h := newHarness(t, cfg)
	h.create(workerType, values{aName: s("api")})
	file := filepath.Join(t.TempDir(), "index.js")
	if err := os.WriteFile(file, []byte(`export default { async fetch(request) { return new Response("ok"); } };`), 0o644); err != nil {
		t.Fatal(err)
	}
	b := h.create("takoform_worker_bundle", bundleConfig(t, h, file))
	h.bundle = b.str(aName)
	v := h.create("takoform_worker_version", values{aRevisionOwner: s("api"), "worker": s("api"), "bundle": s(b.str(aName)),
		"handlers": types.SetValueMust(types.StringType, []attr.Value{s("fetch")})})
	lt := h.kind("takoform_worker_deployment").objectType.AttrTypes["versions"].(types.ListType).ElemType.(types.ObjectType)
	h.create("takoform_worker_deployment", values{aName: s("api"), "worker": s("api"), "versions": objList(t, lt,
		map[string]attr.Value{"weight": i64(10000), "worker_version": s(v.str(aName))})})
	return h
}

func TestEndpointOutputsAreTyped(t *testing.T) {
	t.Parallel()
	h := withWorker(t, hostsim.Config{})
	st := h.create(endpointType, endpointConfig(nil))
	host, url := st.str("hostname"), st.str("url")
	if host == "" || url != "https://"+host+"/" {
		t.Fatalf("hostname=%q url=%q", host, url)
	}
	if got := st["port"]; !got.Equal(types.Int64Value(443)) {
		t.Errorf("port = %v, want 443 under 0.2.0", got)
	}
	var doc map[string]any
	if err := json.Unmarshal([]byte(st.str(aOutputsJSON)), &doc); err != nil {
		t.Fatalf("outputs_json: %v", err)
	}
	if doc["url"] != url || doc["hostname"] != host || doc["port"] != float64(443) {
		t.Errorf("outputs_json is not the whole document: %s", st.str(aOutputsJSON))
	}
	// refresh re-reads outputs from the host, never from state
	stale := st.clone()
	stale["url"] = s("https://stale.example/")
	rd, d := h.read(endpointType, stale)
	mustNoError(t, "read", d)
	if rd.str("url") != url {
		t.Errorf("refresh kept the prior output %q, want the host's %q", rd.str("url"), url)
	}
}

func TestOutputsFollowTheRecordedRef(t *testing.T) {
	t.Parallel()
	h := withWorker(t, hostsim.Config{})
	st := h.create(endpointType, endpointConfig(values{aFormDefVersion: s("0.1.0")}))
	if st.str(aFormDefVersion) != "0.1.0" {
		t.Fatalf("created under %q, want 0.1.0", st.str(aFormDefVersion))
	}
	if !st["port"].IsNull() {
		t.Errorf("port = %v on a 0.1.0 endpoint, want null", st["port"])
	}
	if st.str("url") == "" || st.str("hostname") == "" {
		t.Errorf("0.1.0 outputs missing: %v %v", st["url"], st["hostname"])
	}
}

func outputViolation(t *testing.T, fault, output, problem string) {
	h := withWorker(t, hostsim.Config{})
	if err := h.sim.Admin.ArmFault(fault); err != nil {
		t.Fatal(err)
	}
	cfg := endpointConfig(nil)
	pr := h.plan(endpointType, cfg, nil)
	mustNoError(t, "plan", pr.diags)
	st, d := h.apply(endpointType, cfg, nil, pr.planned)
	wantDiags(t, d, apiEdge.unusableOutput(output, problem))
	if st == nil || st.str(aUID) == "" {
		t.Fatalf("the rest of the state must still be written; got %v", st)
	}
	if !st[output].IsNull() {
		t.Errorf("%s = %v, want null after the violation", output, st[output])
	}
}

func TestMissingOutputFailsTheWrite(t *testing.T) {
	t.Parallel()
	outputViolation(t, "outputs.omit=url,kind=WorkerEndpoint", "url", "is missing from status.outputs")
}

func TestWrongTypeOutputFailsTheWrite(t *testing.T) {
	t.Parallel()
	outputViolation(t, "outputs.wrong-type=port,kind=WorkerEndpoint", "port", `was declared integer and the host sent the string "443"`)
}

func TestOutputsNullOnlyWhileAcceptedUnfinished(t *testing.T) {
	t.Parallel()
	h := withWorker(t, hostsim.Config{})
	if err := h.sim.Admin.ArmFault("apply.accept-unfinished,kind=WorkerEndpoint,count=1"); err != nil {
		t.Fatal(err)
	}
	cfg := endpointConfig(values{aCreateTimeout: s("400ms")})
	pr := h.plan(endpointType, cfg, nil)
	mustNoError(t, "plan", pr.diags)
	st, d := h.apply(endpointType, cfg, nil, pr.planned)
	// accepted-unfinished is a warning
	wantDiags(t, d, warningDiag("WorkerEndpoint api-edge was accepted by the host but has not finished",
		"The host accepted the create but its outcome was not known before the create finished (create_timeout ran out while polling). The state records the operation in pending_operation_id with every output null; the next plan or apply picks it up and finishes the resource in place.",
		"",
		"Resource: takoform_worker_endpoint (dev/api-edge)",
		"Form: edge.forms.takokit.dev/v1beta1 WorkerEndpoint@0.2.0 schema=<sha256-1>",
		"Operation: <op-1>",
		"Code: accepted-without-representation (host)",
		"Retryable: no",
		"",
		"Run tofu apply again (or tofu refresh) once the host has finished; the resource is not re-created."))
	op := st.str(aPendingOp)
	if !strings.HasPrefix(op, "op_") {
		t.Fatalf("pending_operation_id = %q", op)
	}
	for _, o := range []string{"url", "hostname", "port"} {
		if !st[o].IsNull() {
			t.Errorf("%s = %v while unfinished, want null", o, st[o])
		}
	}
	if st.str(aOutputsJSON) != "{}" {
		t.Errorf("outputs_json = %q while unfinished", st.str(aOutputsJSON))
	}
	// nothing of the host's status is known yet: not ready, no conditions, no drift
	if !st[aReady].Equal(types.BoolValue(false)) || !st[aDrift].IsNull() {
		t.Errorf("ready = %v, relation_drift_reason = %v while unfinished; want false and null", st[aReady], st[aDrift])
	}
	if c, ok := st[aConditions].(types.List); !ok || c.IsNull() || len(c.Elements()) != 0 {
		t.Errorf("conditions = %v while unfinished; want an empty list", st[aConditions])
	}
	// still running: refresh keeps the marker and the nulls
	rd, d := h.read(endpointType, st)
	mustNoError(t, "read while running", d)
	if rd.str(aPendingOp) != op {
		t.Errorf("marker lost while running: %q", rd.str(aPendingOp))
	}
	if _, err := h.sim.Admin.Complete(op); err != nil {
		t.Fatal(err)
	}
	rd, d = h.read(endpointType, rd)
	mustNoError(t, "read after the host finished", d)
	if rd.str(aPendingOp) != "" || rd.str("url") == "" || !rd["port"].Equal(types.Int64Value(443)) {
		t.Fatalf("after completion: marker=%q url=%q port=%v", rd.str(aPendingOp), rd.str("url"), rd["port"])
	}
	pr = h.plan(endpointType, cfg, rd)
	mustNoError(t, "plan after completion", pr.diags)
	if len(pr.replace) != 0 {
		t.Errorf("plan after completion replaces %v", pr.replace)
	}
	wantPlannedUnchanged(t, "plan after completion", rd, pr.planned)
}

// bundleName is the bundle withWorker created.
func (h *harness) bundleName(t *testing.T) string {
	if h.bundle == "" {
		t.Fatal("no bundle: use withWorker")
	}
	return h.bundle
}

func TestUndeclaredOutputMemberIsKeptInOutputsJSONOnly(t *testing.T) {
	t.Parallel()
	h := withWorker(t, hostsim.Config{})
	if err := h.sim.Admin.ArmFault("outputs.extra=takokitExtra,kind=WorkerEndpoint"); err != nil {
		t.Fatal(err)
	}
	st := h.create(endpointType, endpointConfig(nil))
	if !strings.Contains(st.str(aOutputsJSON), `"takokitExtra"`) {
		t.Errorf("outputs_json must hold the whole document, undeclared members included: %s", st.str(aOutputsJSON))
	}
	if st.str("url") == "" {
		t.Error("declared outputs must still be set")
	}
}
