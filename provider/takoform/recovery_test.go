package takoform

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/takokit/takokit/hostsim"
)

func counters(t *testing.T, h *harness) (requests, mutations int64) {
	t.Helper()
	c, err := h.sim.Admin.Counters()
	if err != nil {
		t.Fatal(err)
	}
	return c.Requests, c.Mutations
}

func TestLostResponseReplaysWithinTheApply(t *testing.T) {
	h := newHarness(t, hostsim.Config{})
	if err := h.sim.Admin.ArmFault("response.drop-after-commit,kind=AtLeastOnceQueue,count=1"); err != nil {
		t.Fatal(err)
	}
	st := h.create(queueType, values{aName: s("orders"), "message_retention_seconds": i64(3600)})
	if st.str(aUID) == "" || st.str(aPendingOp) != "" {
		t.Fatalf("after the replay: uid=%q pending=%q", st.str(aUID), st.str(aPendingOp))
	}
	if _, muts := counters(t, h); muts != 1 {
		t.Errorf("mutations = %d, want exactly 1 (the resend must replay, not mutate again)", muts)
	}
}

func TestUIDMismatchKeepsState(t *testing.T) {
	h := newHarness(t, hostsim.Config{})
	cfg := values{aName: s("orders"), "message_retention_seconds": i64(3600)}
	old := h.create(queueType, cfg)
	// out of band: delete and re-create under the same name
	_, d := h.apply(queueType, nil, old, nil)
	mustNoError(t, "delete", d)
	fresh := h.create(queueType, cfg)
	if fresh.str(aUID) == old.str(aUID) {
		t.Fatal("re-create kept the uid")
	}
	st, d := h.read(queueType, old)
	dg := diagWith(d, "is not the object this state tracks", codeUIDMismatch, old.str(aUID), fresh.str(aUID), "tofu state rm")
	if dg == nil || dg.Severity != tfprotov6.DiagnosticSeverityError {
		t.Fatalf("want the uid-mismatch error naming both uids:\n%s", dump(d))
	}
	if st == nil {
		t.Fatal("state was removed")
	}
	for k, v := range old {
		if !st[k].Equal(v) {
			t.Errorf("state changed at %s: %v -> %v", k, v, st[k])
		}
	}
}

func TestUnknownStateRefFailsClosed(t *testing.T) {
	h := newHarness(t, hostsim.Config{})
	st := h.create(queueType, values{aName: s("orders"), "message_retention_seconds": i64(3600)})
	st[aFormSchemaDigest] = s("sha256:" + strings.Repeat("0", 64))
	before, _ := counters(t, h)
	_, d := h.read(queueType, st)
	if diagWith(d, "does not carry the Form identity recorded in state", codeStateRefUnsupported, "0.1.0", "0.2.0") == nil {
		t.Fatalf("want state-form-ref-unsupported listing the carried refs:\n%s", dump(d))
	}
	pr := h.plan(queueType, values{aName: s("orders"), "message_retention_seconds": i64(3600)}, st)
	if diagWith(pr.diags, codeStateRefUnsupported) == nil {
		t.Errorf("plan does not fail closed:\n%s", dump(pr.diags))
	}
	st[aFormSchemaDigest] = s("")
	_, d = h.read(queueType, st)
	if diagWith(d, "State has no exact Form identity", codeStateRefMissing) == nil {
		t.Errorf("want state-form-ref-missing:\n%s", dump(d))
	}
	if after, _ := counters(t, h); after != before {
		t.Errorf("requests = %d after failing closed, want %d (no host call)", after, before)
	}
}

func TestRetryableErrorsRetryUnderOneKey(t *testing.T) {
	h := newHarness(t, hostsim.Config{})
	h.configure(map[string]string{"endpoint": h.sim.URL, "token": "sim-primary", "space": "dev"})
	if err := h.sim.Admin.ArmFault("error=backend_unavailable,kind=AtLeastOnceQueue,resource=orders,count=2"); err != nil {
		t.Fatal(err)
	}
	st := h.create(queueType, values{aName: s("orders"), "message_retention_seconds": i64(3600)})
	if st.str(aUID) == "" {
		t.Fatal("no uid after retries")
	}
	// The host's journal shows the retries: three PUTs of orders, two answered 503 and
	// one 201, all under one Idempotency-Key; one mutation; both faults fired.
	raw, err := h.sim.Admin.Events(0)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Events []struct {
			Type string
			Data struct {
				Method, Route, Path, IdempotencyKey string
				Status                              int
			}
		}
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	keys, statuses := map[string]int{}, map[int]int{}
	for _, e := range doc.Events {
		if e.Type == "request" && e.Data.Route == "apply" && strings.HasSuffix(e.Data.Path, "/orders") {
			keys[e.Data.IdempotencyKey]++
			statuses[e.Data.Status]++
		}
	}
	if len(keys) != 1 || keys[""] != 0 || statuses[503] != 2 || statuses[201] != 1 || len(statuses) != 2 {
		t.Fatalf("the create's PUTs: keys %v, statuses %v; want three PUTs under one key, two 503 then one 201", keys, statuses)
	}
	c, err := h.sim.Admin.Counters()
	if err != nil {
		t.Fatal(err)
	}
	if c.Mutations != 1 || c.Fired["error=backend_unavailable"] != 2 {
		t.Fatalf("mutations %d, fired %v; want one mutation and both transient errors fired", c.Mutations, c.Fired)
	}
}

func TestNonRetryableErrorCarriesCodeRequestAndRepair(t *testing.T) {
	h := newHarness(t, hostsim.Config{})
	if err := h.sim.Admin.ArmFault("error=invalid_argument,kind=AtLeastOnceQueue,resource=orders,count=1"); err != nil {
		t.Fatal(err)
	}
	cfg := values{aName: s("orders"), "message_retention_seconds": i64(3600)}
	pr := h.plan(queueType, cfg, nil)
	mustNoError(t, "plan", pr.diags)
	st, d := h.apply(queueType, cfg, nil, pr.planned)
	dg := diagWith(d, "Failed to create AtLeastOnceQueue orders", "Code: invalid_argument (host, HTTP 400)", "Request: req_", "Retryable: no", "Fix the value")
	if dg == nil {
		t.Fatalf("diagnostic lacks code/request/repair:\n%s", dump(d))
	}
	if st != nil {
		t.Errorf("a refused create wrote state: %v", st)
	}
}

func TestPendingRefreshKeepsStateWhileAbsent(t *testing.T) {
	h := withWorker(t, hostsim.Config{})
	if err := h.sim.Admin.ArmFault("apply.accept-unfinished,kind=WorkerEndpoint,count=1"); err != nil {
		t.Fatal(err)
	}
	cfg := endpointConfig(values{aCreateTimeout: s("300ms")})
	pr := h.plan(endpointType, cfg, nil)
	st, d := h.apply(endpointType, cfg, nil, pr.planned)
	mustNoError(t, "apply", d)
	rd, d := h.read(endpointType, st)
	mustNoError(t, "read", d)
	if diagWith(d, "is still changing on the host") == nil {
		t.Errorf("no still-changing warning:\n%s", dump(d))
	}
	if rd == nil || rd.str(aPendingOp) != st.str(aPendingOp) {
		t.Fatalf("refresh of a running create dropped the resource or its marker: %v", rd)
	}
}

func TestImportAdoptsTheHostSpec(t *testing.T) {
	h := withWorker(t, hostsim.Config{})
	cfg := endpointConfig(nil)
	created := h.create(endpointType, cfg)
	ids := []string{"api-edge", "dev/api-edge",
		`{"space":"dev","name":"api-edge","apiVersion":"` + created.str(aFormAPIVersion) + `","kind":"WorkerEndpoint","definitionVersion":"0.2.0","schemaDigest":"` + created.str(aFormSchemaDigest) + `"}`}
	for _, id := range ids {
		imp, d := h.importID(endpointType, id)
		mustNoError(t, "import "+id, d)
		st, d := h.read(endpointType, imp)
		mustNoError(t, "read after import "+id, d)
		if st.str("worker") != "api" || st.str(aUID) != created.str(aUID) {
			t.Fatalf("import %s: worker=%q uid=%q", id, st.str("worker"), st.str(aUID))
		}
		pr := h.plan(endpointType, cfg, st)
		mustNoError(t, "plan after import", pr.diags)
		if len(pr.replace) != 0 {
			t.Errorf("import %s: plan replaces %v", id, pr.replace)
		}
		for k, v := range st {
			if !pr.planned[k].Equal(v) {
				t.Errorf("import %s: plan changes %s: %v -> %v", id, k, v, pr.planned[k])
			}
		}
	}
	for _, bad := range []string{"", "a/b/c", "Bad_Name", `{"name":"x","kind":"WorkerEndpoint"}`, `{"name":"x","extra":1}`} {
		_, d := h.importID(endpointType, bad)
		if diagWith(d, "Invalid import ID", codeImportIDInvalid, "SPACE/NAME") == nil {
			t.Errorf("import %q: want import-id-invalid:\n%s", bad, dump(d))
		}
	}
	_, d := h.importID(endpointType, "dev/nothing-here")
	if diagWith(d, "was not found under any definition version") == nil {
		t.Errorf("import of a missing name:\n%s", dump(d))
	}
}

func TestDeleteOfAbsentResourceIsDone(t *testing.T) {
	h := newHarness(t, hostsim.Config{})
	st := h.create(queueType, values{aName: s("orders"), "message_retention_seconds": i64(3600)})
	_, d := h.apply(queueType, nil, st, nil)
	mustNoError(t, "delete", d)
	_, d = h.apply(queueType, nil, st, nil)
	mustNoError(t, "second delete of the same state", d)
}

func TestPendingDeleteIsObservedByRefresh(t *testing.T) {
	h := newHarness(t, hostsim.Config{})
	st := h.create(queueType, values{aName: s("orders"), "message_retention_seconds": i64(60), aDeleteTimeout: s("300ms")})
	if err := h.sim.Admin.ArmFault("apply.accept-unfinished,kind=AtLeastOnceQueue,count=1"); err != nil {
		t.Fatal(err)
	}
	kept, d := h.apply(queueType, nil, st, nil)
	if diagWith(d, "was accepted for deletion but has not finished") == nil || kept == nil || kept.str(aPendingOp) == "" {
		t.Fatalf("want the kept state with a marker:\n%s", dump(d))
	}
	if _, err := h.sim.Admin.Complete(kept.str(aPendingOp)); err != nil {
		t.Fatal(err)
	}
	rd, d := h.read(queueType, kept)
	mustNoError(t, "refresh after the delete finished", d)
	if rd != nil {
		t.Errorf("the finished delete left the resource in state: %v", rd)
	}
}

func TestImportFindsTheOldRefNewestFirst(t *testing.T) {
	h := newHarness(t, hostsim.Config{})
	h.create(queueType, values{aName: s("orders"), "message_retention_seconds": i64(3600), aFormDefVersion: s("0.1.0")})
	imp, d := h.importID(queueType, "orders")
	mustNoError(t, "import", d)
	if imp.str(aFormDefVersion) != "0.1.0" {
		t.Fatalf("import recorded %q, want the 0.1.0 ref the resource lives under", imp.str(aFormDefVersion))
	}
	st, d := h.read(queueType, imp)
	mustNoError(t, "read", d)
	cfg := values{aName: s("orders"), "message_retention_seconds": i64(3600)}
	pr := h.plan(queueType, cfg, st)
	mustNoError(t, "plan", pr.diags)
	for k, v := range st {
		if !pr.planned[k].Equal(v) {
			t.Errorf("plan after importing the old ref changes %s: %v -> %v", k, v, pr.planned[k])
		}
	}
}

func TestUnfinishedUpdateKeepsPriorStateWithTheMarker(t *testing.T) {
	h := newHarness(t, hostsim.Config{})
	cfg := values{aName: s("orders"), "message_retention_seconds": i64(60), aUpdateTimeout: s("300ms")}
	st := h.create(queueType, cfg)
	if err := h.sim.Admin.ArmFault("apply.accept-unfinished,kind=AtLeastOnceQueue,count=1"); err != nil {
		t.Fatal(err)
	}
	cfg2 := cfg.clone()
	cfg2["message_retention_seconds"] = i64(120)
	pr := h.plan(queueType, cfg2, st)
	mustNoError(t, "plan", pr.diags)
	up, d := h.apply(queueType, cfg2, st, pr.planned)
	if diagWith(d, "was accepted by the host but has not finished", "Operation: op_") == nil || !hasError(d) {
		t.Fatalf("want the accepted-unfinished update error:\n%s", dump(d))
	}
	if up.str(aGeneration) != "1" || !up["message_retention_seconds"].Equal(i64(60)) || up.str(aPendingOp) == "" {
		t.Fatalf("state: gen=%q retention=%v pending=%q", up.str(aGeneration), up["message_retention_seconds"], up.str(aPendingOp))
	}
	if _, err := h.sim.Admin.Complete(up.str(aPendingOp)); err != nil {
		t.Fatal(err)
	}
	rd, d := h.read(queueType, up)
	mustNoError(t, "refresh", d)
	if rd.str(aPendingOp) != "" || rd.str(aGeneration) != "2" || !rd["message_retention_seconds"].Equal(i64(120)) {
		t.Errorf("after the host finished: pending=%q gen=%q retention=%v", rd.str(aPendingOp), rd.str(aGeneration), rd["message_retention_seconds"])
	}
	if pr := h.plan(queueType, cfg2, rd); len(pr.replace) != 0 || hasError(pr.diags) {
		t.Errorf("plan after convergence: %v %s", pr.replace, dump(pr.diags))
	}
}

func TestDeleteOfAPinnedTargetExplainsTheTeardownOrder(t *testing.T) {
	h := withWorker(t, hostsim.Config{})
	imp, d := h.importID(workerType, "api")
	mustNoError(t, "import", d)
	st, d := h.read(workerType, imp)
	mustNoError(t, "read", d)
	kept, d := h.apply(workerType, nil, st, nil)
	if diagWith(d, "Failed to delete ModuleWorker api", "dependency_in_use (host, HTTP 409)", "then the deployment, then versions, then bundles, then the worker", "Expected generation: 1") == nil {
		t.Fatalf("want dependency_in_use with the teardown order:\n%s", dump(d))
	}
	if kept == nil || kept.str(aUID) != st.str(aUID) {
		t.Error("a refused delete must keep the resource in state")
	}
}
