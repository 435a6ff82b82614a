package takoform

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/takokit/takokit/hostsim"
)

// Plan-time capability (docs/provider-design.md#plan-time-support): one test per refusal/warning branch and
// per cache rule, against hostsim's profiles, counting requests with its counters.

const (
	capVersionType    = "takoform_worker_version"
	capDeploymentType = "takoform_worker_deployment"
	capKVType         = "takoform_edge_kv_namespace"
)

// capProfile writes a profile document and returns its path.
func capProfile(t *testing.T, doc string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "profile.json")
	if err := os.WriteFile(p, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// capStrings builds a string collection value of the attribute's own type (set or list).
func capStrings(h *harness, typeName, name string, items ...string) attr.Value {
	vs := make([]attr.Value, len(items))
	for i, x := range items {
		vs[i] = s(x)
	}
	switch h.kind(typeName).objectType.AttrTypes[name].(type) {
	case types.SetType:
		return types.SetValueMust(types.StringType, vs)
	default:
		return types.ListValueMust(types.StringType, vs)
	}
}

func capBindings(items ...string) attr.Value {
	bt := bindingItemType()
	vs := make([]attr.Value, len(items))
	for i, x := range items {
		vs[i] = types.ObjectValueMust(bt.AttrTypes, map[string]attr.Value{"name": s(strings.ToUpper(x)), bindingTargetAttr: s(x)})
	}
	return types.ListValueMust(bt, vs)
}

func capVersion(h *harness, handlers ...string) values {
	return values{aRevisionOwner: s("api"), "worker": s("api"), "bundle": s("bundle-a"),
		"handlers": capStrings(h, capVersionType, "handlers", handlers...)}
}

func capDeployment(t *testing.T, h *harness, weights ...int64) values {
	lt := h.kind(capDeploymentType).objectType.AttrTypes["versions"].(types.ListType).ElemType.(types.ObjectType)
	var items []map[string]attr.Value
	for i, w := range weights {
		items = append(items, map[string]attr.Value{"weight": i64(w), "worker_version": s("version-" + string(rune('a'+i)))})
	}
	return values{aName: s("web"), "worker": s("api"), "versions": objList(t, lt, items...)}
}

func capCounters(t *testing.T, h *harness) (c struct{ requests, mutations, uploads, support int64 }) {
	t.Helper()
	got, err := h.sim.Admin.Counters()
	if err != nil {
		t.Fatal(err)
	}
	c.requests, c.mutations, c.uploads, c.support = got.Requests, got.Mutations, got.Uploads, got.SupportReads
	return c
}

// capReconfigure gives the harness a fresh provider configuration (an empty cache).
func capReconfigure(t *testing.T, h *harness) {
	t.Helper()
	for _, d := range h.configure(map[string]string{"endpoint": h.sim.URL, "token": "sim-primary", "space": "dev"}) {
		t.Fatalf("configure: %s: %s", d.Summary, d.Detail)
	}
}

// capPlanCreate plans a creation straight through the protocol server; unlike
// harness.plan it touches no shared harness state, so goroutines may call it.
func capPlanCreate(t *testing.T, h *harness, typeName string, cfg values) planResult {
	kt := h.kind(typeName)
	dv := benchDyn(t, kt, cfg)
	resp, err := h.srv.PlanResourceChange(h.ctx, &tfprotov6.PlanResourceChangeRequest{TypeName: typeName,
		PriorState: benchDyn(t, kt, nil), ProposedNewState: dv, Config: dv})
	if err != nil {
		t.Error(err)
		return planResult{}
	}
	return planResult{diags: resp.Diagnostics}
}

func warnings(ds []*tfprotov6.Diagnostic) int {
	n := 0
	for _, d := range ds {
		if d.Severity == tfprotov6.DiagnosticSeverityWarning {
			n++
		}
	}
	return n
}

func TestCapabilityTransientFailureIsRetriedOnceAndNeverPinned(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	queue := values{aName: s("orders"), "message_retention_seconds": i64(3600)}
	// one failure: the retry inside the same check answers, so nothing is reported
	if err := h.sim.Admin.ArmFault("error=backend_unavailable,kind=AtLeastOnceQueue,count=1"); err != nil {
		t.Fatal(err)
	}
	pr := h.plan(queueType, queue, nil)
	if len(pr.diags) != 0 {
		t.Fatalf("a failure followed by an answer must decide quietly:\n%s", dump(pr.diags))
	}
	if c := capCounters(t, h); c.support != 3 {
		t.Errorf("support reads = %d, want 3 (Form route twice, edge.queue once)", c.support)
	}
	// two failures: that resource gets the warning; the failure is not cached
	capReconfigure(t, h)
	if err := h.sim.Admin.ArmFault("error=backend_unavailable,kind=AtLeastOnceQueue,count=2"); err != nil {
		t.Fatal(err)
	}
	before := capCounters(t, h).support
	pr = h.plan(queueType, queue, nil)
	mustNoError(t, "undecided plan", pr.diags)
	wantDiags(t, pr.diags, warningDiag("Could not check host support for Form AtLeastOnceQueue 0.2.0",
		"Nothing was decided at plan time; apply still checks.",
		"",
		"Host: error backend_unavailable injected by an armed hostsim fault (error=backend_unavailable)",
		"",
		"Resource: takoform_at_least_once_queue (dev/orders)",
		"Form: edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue@0.2.0 schema=<sha256-1>",
		"Route: GET /apis/forms.takoform.com/v1beta1/support/forms/edge.forms.takokit.dev/v1beta1/AtLeastOnceQueue/0.2.0",
		"Request: <req-1>",
		"Code: takoform.provider/host-support-unreadable (backend_unavailable (host, HTTP 503))",
		"Retryable: yes",
		"",
		"Make the host's support surface readable: the lines above say why it is not. Nothing to do if apply succeeds; to make a CI plan gate fail here instead, set require_support_surface = true."))
	if got := capCounters(t, h).support - before; got != 2 {
		t.Errorf("an undecided check made %d support reads, want 2 (one retry, no further checks)", got)
	}
	pr = h.plan(queueType, values{aName: s("other"), "message_retention_seconds": i64(60)}, nil)
	if len(pr.diags) != 0 {
		t.Fatalf("the next resource asks again and is decided:\n%s", dump(pr.diags))
	}
	if got := capCounters(t, h).support - before; got != 4 {
		t.Errorf("support reads after the next resource = %d, want 4 (the failed route read again, edge.queue once)", got)
	}
}

func TestCapabilityConcurrentAskersShareOneReadAndRefusalsAreCached(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{Profile: "kv-only"})
	form := h.kind(capVersionType).model.newest
	const n = 12
	var wg sync.WaitGroup
	results := make([]planResult, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			cfg := capVersion(h, "fetch")
			cfg["bucket_bindings"] = capBindings("media")
			results[i] = capPlanCreate(t, h, capVersionType, cfg)
		}(i)
	}
	wg.Wait()
	for _, pr := range results {
		wantDiags(t, pr.diags, errorDiag("Host does not implement binding module-worker.object-bucket@1.0.0",
			"bucket_bindings uses this binding contract. The host's support route refused it (resource_not_found, HTTP 404). The host may implement other bindings; apply would end in unsupported_capability (422). This is a fact about this host, not about the configuration: the same configuration applies unchanged on a host that implements it.",
			"",
			`Host: this host (profile "kv-only") does not implement binding module-worker.object-bucket@1.0.0`,
			"",
			"Resource: takoform_worker_version (dev/version-e701b9b49087-14c2529eb449)",
			"Form: edge.forms.takokit.dev/v1beta1 WorkerVersion@0.1.0 schema=<sha256-1>",
			"Pointer: /spec/bucketBindings",
			"Request: <req-1>",
			"Code: takoform.provider/host-does-not-support-binding",
			"Retryable: no",
			"",
			"Remove the binding or use another host.").at("bucket_bindings"))
	}
	// one Form route, its interfaces, one binding route: each read once for twelve askers
	want := int64(1 + len(form.Provided) + 1)
	c := capCounters(t, h)
	if c.support != want {
		t.Errorf("support reads = %d for %d concurrent plans, want %d (one per route)", c.support, n, want)
	}
	if c.mutations != 0 || c.uploads != 0 {
		t.Errorf("plan mutated (%d) or uploaded (%d)", c.mutations, c.uploads)
	}
}

func TestCapabilityOperationsMustCoverTheLifecycle(t *testing.T) {
	t.Parallel()
	prof := capProfile(t, `{"name":"queues-without-update","extends":"full",
		"operations":{"AtLeastOnceQueue":["create","read","delete","import","observe"]}}`)
	h := newHarness(t, hostsim.Config{Profile: prof})
	pr := h.plan(queueType, values{aName: s("orders"), "message_retention_seconds": i64(3600)}, nil)
	wantDiags(t, pr.diags, errorDiag("Host does not offer every operation AtLeastOnceQueue needs",
		"The Form declares create, read, update, delete, import, observe; the host offers create, read, delete, import, observe and lacks update. This is a fact about this host, not about the configuration: the same configuration applies unchanged on a host that implements it.",
		"",
		"Resource: takoform_at_least_once_queue (dev/orders)",
		"Form: edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue@0.2.0 schema=<sha256-1>",
		"Pointer: /form/formRef",
		"Code: takoform.provider/host-does-not-support-operation",
		"Retryable: no",
		"",
		"Use a host that offers the whole lifecycle."))
	// a kind that declares no update needs none
	mustNoError(t, "kv namespace", h.plan(capKVType, values{aName: s("cache")}, nil).diags)
}

func TestCapabilityProvidedInterfaceMustBeImplemented(t *testing.T) {
	t.Parallel()
	prof := capProfile(t, `{"name":"queues-without-contract","extends":"full","interfaces":{"exclude":["edge.queue@1.0.0"]}}`)
	h := newHarness(t, hostsim.Config{Profile: prof})
	pr := h.plan(queueType, values{aName: s("orders"), "message_retention_seconds": i64(3600)}, nil)
	// on the resource: no attribute
	wantDiags(t, pr.diags, errorDiag("Host does not implement edge.queue@1.0.0",
		"Every resource of AtLeastOnceQueue 0.2.0 provides this contract. The host's support route refused it (resource_not_found, HTTP 404). This is a fact about this host, not about the configuration: the same configuration applies unchanged on a host that implements it.",
		"",
		`Host: this host (profile "queues-without-contract") does not implement interface edge.queue@1.0.0`,
		"",
		"Resource: takoform_at_least_once_queue (dev/orders)",
		"Form: edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue@0.2.0 schema=<sha256-1>",
		"Pointer: /form/formRef",
		"Request: <req-1>",
		"Code: takoform.provider/host-does-not-support-interface",
		"Retryable: no",
		"",
		"Use a host implementing this exact contract."))
	mustNoError(t, "kv namespace", h.plan(capKVType, values{aName: s("cache")}, nil).diags)
}

func TestCapabilitySilenceIsNotRefusalAndNothingEntersThePlan(t *testing.T) {
	t.Parallel()
	silent := newHarness(t, hostsim.Config{Profile: capProfile(t, `{"name":"quiet-tight","extends":"tight-limits","support":"silent"}`)})
	full := newHarness(t, hostsim.Config{})
	tight := newHarness(t, hostsim.Config{Profile: "tight-limits"})
	queue := values{aName: s("orders"), "message_retention_seconds": i64(1209600)}
	pr := silent.plan(queueType, queue, nil)
	if len(pr.diags) != 0 {
		t.Fatalf("a silent profile refused or warned:\n%s", dump(pr.diags))
	}
	ver := capVersion(silent, "fetch", "scheduled", "queue")
	ver["required_sensitive_vars"] = capStrings(silent, capVersionType, "required_sensitive_vars", "A", "B", "C")
	if pr := silent.plan(capVersionType, ver, nil); len(pr.diags) != 0 {
		t.Fatalf("a silent profile refused or warned:\n%s", dump(pr.diags))
	}
	// the same accepted configuration plans to identical values on a full and a narrowed host
	ok := values{aName: s("orders"), "message_retention_seconds": i64(3600)}
	a, b := full.plan(queueType, ok, nil), tight.plan(queueType, ok, nil)
	mustNoError(t, "full", a.diags)
	mustNoError(t, "tight", b.diags)
	for k, v := range a.planned {
		if !b.planned[k].Equal(v) {
			t.Errorf("host profile changed planned %s: %v on full, %v on tight-limits", k, v, b.planned[k])
		}
	}
}

func TestCapabilityCollectionCeilingsByConvention(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{Profile: "tight-limits"})
	ver := capVersion(h, "fetch")
	ver["required_sensitive_vars"] = capStrings(h, capVersionType, "required_sensitive_vars", "A", "B", "C")
	pr := h.plan(capVersionType, ver, nil)
	wantDiags(t, pr.diags, errorDiag("required_sensitive_vars has more entries than the host accepts",
		"3 entries planned; maximumRequiredSensitiveVars = 2. This is a fact about this host, not about the configuration: the same configuration applies unchanged on a host that implements it.",
		"",
		"Resource: takoform_worker_version (dev/version-aa2d1780645c-14c2529eb449)",
		"Form: edge.forms.takokit.dev/v1beta1 WorkerVersion@0.1.0 schema=<sha256-1>",
		"Pointer: /spec/requiredSensitiveVars",
		"Code: takoform.provider/host-limit-exceeded",
		"Retryable: no",
		"",
		"Use at most 2 entries in required_sensitive_vars, or another host.").at("required_sensitive_vars"))
	ver["required_sensitive_vars"] = capStrings(h, capVersionType, "required_sensitive_vars", "A", "B")
	mustNoError(t, "at the ceiling", h.plan(capVersionType, ver, nil).diags)

	pr = h.plan(capDeploymentType, capDeployment(t, h, 3000, 3000, 4000), nil)
	wantDiags(t, pr.diags, errorDiag("versions has more entries than the host accepts",
		"3 entries planned; maximumVersions = 2. This is a fact about this host, not about the configuration: the same configuration applies unchanged on a host that implements it.",
		"",
		"Resource: takoform_worker_deployment (dev/web)",
		"Form: edge.forms.takokit.dev/v1beta1 WorkerDeployment@0.1.0 schema=<sha256-1>",
		"Pointer: /spec/versions",
		"Code: takoform.provider/host-limit-exceeded",
		"Retryable: no",
		"",
		"Use at most 2 entries in versions, or another host.").at("versions"))
	mustNoError(t, "two versions", h.plan(capDeploymentType, capDeployment(t, h, 5000, 5000), nil).diags)

	// no-secrets publishes a ceiling of zero: one slot is already too many
	ns := newHarness(t, hostsim.Config{Profile: "no-secrets"})
	ver = capVersion(ns, "fetch")
	ver["required_sensitive_vars"] = capStrings(ns, capVersionType, "required_sensitive_vars", "API_KEY")
	wantDiags(t, ns.plan(capVersionType, ver, nil).diags, errorDiag("required_sensitive_vars has more entries than the host accepts",
		"1 entry planned; maximumRequiredSensitiveVars = 0. This is a fact about this host, not about the configuration: the same configuration applies unchanged on a host that implements it.",
		"",
		"Resource: takoform_worker_version (dev/version-94e469a6b8a4-14c2529eb449)",
		"Form: edge.forms.takokit.dev/v1beta1 WorkerVersion@0.1.0 schema=<sha256-1>",
		"Pointer: /spec/requiredSensitiveVars",
		"Code: takoform.provider/host-limit-exceeded",
		"Retryable: no",
		"",
		"This host accepts no entries in required_sensitive_vars: leave it empty, or use another host.").at("required_sensitive_vars"))
	if c := capCounters(t, h); c.mutations != 0 {
		t.Errorf("plan mutated %d times", c.mutations)
	}
}

func TestCapabilityBundleSizeIsDecidedBeforeUpload(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{Profile: "tight-limits"})
	dir := t.TempDir()
	small, big := filepath.Join(dir, "index.js"), filepath.Join(dir, "big.js")
	if err := os.WriteFile(small, []byte("export default {};"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(big, make([]byte, 1100000), 0o644); err != nil {
		t.Fatal(err)
	}
	mustNoError(t, "small bundle", h.plan("takoform_worker_bundle", bundleConfig(t, h, small), nil).diags)
	pr := h.plan("takoform_worker_bundle", bundleConfig(t, h, big), nil)
	wantDiags(t, pr.diags, errorDiag("Bundle for WorkerBundle bundle-4acc1fd8bfdd-14c2529eb449 is larger than the host accepts",
		"The modules add up to 1100000 bytes; maximumBundleBytes = 1048576. Nothing was uploaded. This is a fact about this host, not about the configuration: the same configuration applies unchanged on a host that implements it.",
		"",
		"Resource: takoform_worker_bundle (dev/bundle-4acc1fd8bfdd-14c2529eb449)",
		"Form: edge.forms.takokit.dev/v1beta1 WorkerBundle@0.1.0 schema=<sha256-1>",
		"Pointer: /spec/manifestDigest",
		"Code: takoform.provider/host-limit-exceeded",
		"Retryable: no",
		"",
		"Shrink the bundle or use another host.").at("modules"))
	if c := capCounters(t, h); c.uploads != 0 || c.mutations != 0 {
		t.Errorf("plan uploaded %d / mutated %d", c.uploads, c.mutations)
	}
}

func TestCapabilityRunsForCreateAndUpdateOnly(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{Profile: "tight-limits"})
	queue := values{aName: s("orders"), "message_retention_seconds": i64(3600)}
	st := h.create(queueType, queue)
	capReconfigure(t, h) // empty cache: any support read below would be counted
	before := capCounters(t, h)
	mustNoError(t, "no-change plan", h.plan(queueType, queue, st).diags)
	if pr := h.plan(queueType, nil, st); hasError(pr.diags) {
		t.Fatalf("destroy plan: %s", dump(pr.diags))
	}
	if c := capCounters(t, h); c.requests != before.requests {
		t.Errorf("a no-change and a destroy plan made %d requests, want 0", c.requests-before.requests)
	}
	// an update is checked against the ref in state
	upd := queue.clone()
	upd["message_retention_seconds"] = i64(345600)
	pr := h.plan(queueType, upd, st)
	wantDiags(t, pr.diags, errorDiag("Host does not accept message_retention_seconds = 345600",
		"The value is valid for the Form; this host accepts 60 to 86400. This is a fact about this host, not about the configuration: the same configuration applies unchanged on a host that implements it.",
		"",
		"Resource: takoform_at_least_once_queue (dev/orders)",
		"Form: edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue@0.2.0 schema=<sha256-1>",
		"Pointer: /spec/messageRetentionSeconds",
		"Code: takoform.provider/host-does-not-support-value",
		"Retryable: no",
		"",
		"Use a value from 60 to 86400, or another host.").at("message_retention_seconds"))
	if c := capCounters(t, h); c.support == before.support || c.mutations != 1 {
		t.Errorf("update plan: support reads %d -> %d, mutations %d (want reads, and only the create's mutation)", before.support, c.support, c.mutations)
	}
}

func TestCapabilitySkipsUnknownValuesAndUnusedBindings(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{Profile: "tight-limits"})
	ver := capVersion(h, "fetch")
	ver["handlers"] = unknownOf(h.kind(capVersionType).objectType.AttrTypes["handlers"])
	ver["kv_bindings"] = unknownOf(h.kind(capVersionType).objectType.AttrTypes["kv_bindings"])
	pr := h.plan(capVersionType, ver, nil)
	mustNoError(t, "unknown values", pr.diags)
	form := h.kind(capVersionType).model.newest
	if c := capCounters(t, h); c.support != int64(1+len(form.Provided)) {
		t.Errorf("support reads = %d, want %d (no binding route for an unknown or empty list)", c.support, 1+len(form.Provided))
	}
}

func TestCapabilityUnreachableHostIsAWarning(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	// a loopback port nothing listens on: discovery fails, the plan proceeds
	if ds := h.configure(map[string]string{"endpoint": "http://127.0.0.1:1", "token": "sim-primary", "space": "dev"}); hasError(ds) {
		t.Fatal(dump(ds))
	}
	pr := h.plan(queueType, values{aName: s("orders"), "message_retention_seconds": i64(3600)}, nil)
	wantDiags(t, pr.diags, warningDiag("Could not check host support for Form AtLeastOnceQueue 0.2.0: host unreachable at http://127.0.0.1:1",
		"Nothing was decided at plan time; apply still checks.",
		"",
		"Cause: host unreachable at http://127.0.0.1:1: connection refused (nothing listens at that address) (GET /.well-known/takoform/v1beta1)",
		"",
		"Resource: takoform_at_least_once_queue (dev/orders)",
		"Form: edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue@0.2.0 schema=<sha256-1>",
		"Route: GET /.well-known/takoform/v1beta1",
		"Code: takoform.provider/host-support-unreadable (takoform.provider/host-unreachable)",
		"Retryable: yes",
		"",
		"No host answered at http://127.0.0.1:1. Check the endpoint (endpoint or TAKOFORM_ENDPOINT), that the host is running and that this machine can reach it, then run the command again. Nothing to do if apply succeeds; to make a CI plan gate fail here instead, set require_support_surface = true."))
}

// A replacement is checked when OpenTofu plans it again as a create (with a null
// prior and the default create ref), so the update call that asks for replacement
// reads nothing; an in-place update is checked against the ref in state.
func TestCapabilityReplacementIsCheckedAsItsCreate(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	cron := values{aName: s("hourly"), "worker": s("api"), "cron": s("0 * * * *")}
	// the prior state is the create plan with every computed value settled: ModifyPlan
	// reads only the recorded ref and values from it, and no apply is involved
	pr0 := h.plan("takoform_worker_cron_trigger", cron, nil)
	mustNoError(t, "create plan", pr0.diags)
	st := h.settled("takoform_worker_cron_trigger", pr0.planned)
	capReconfigure(t, h)
	before := capCounters(t, h).support
	moved := cron.clone()
	moved["worker"] = s("other")
	pr := h.plan("takoform_worker_cron_trigger", moved, st)
	mustNoError(t, "replacement plan", pr.diags)
	if len(pr.replace) == 0 {
		t.Fatal("changing an immutable worker must plan a replacement")
	}
	if got := capCounters(t, h).support - before; got != 0 {
		t.Errorf("the update call of a replacement made %d support reads, want 0", got)
	}
	mustNoError(t, "the replacement's create", h.plan("takoform_worker_cron_trigger", moved, nil).diags)
	if got := capCounters(t, h).support - before; got == 0 {
		t.Error("the replacement's create plan read no support route")
	}
	capReconfigure(t, h)
	before = capCounters(t, h).support
	daily := cron.clone()
	daily["cron"] = s("0 0 * * *")
	pr = h.plan("takoform_worker_cron_trigger", daily, st)
	mustNoError(t, "in-place update", pr.diags)
	if len(pr.replace) != 0 || capCounters(t, h).support == before {
		t.Errorf("an in-place update (replace=%v) must read the support routes", pr.replace)
	}
}

func TestCapabilityUnauthenticatedIsAWarning(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	if ds := h.configure(map[string]string{"endpoint": h.sim.URL, "token": "not-a-known-token", "space": "dev"}); hasError(ds) {
		t.Fatal(dump(ds))
	}
	pr := h.plan(queueType, values{aName: s("orders"), "message_retention_seconds": i64(3600)}, nil)
	// a 401 is undecided, not a refusal
	wantDiags(t, named(pr.diags, "<host>", h.sim.URL), warningDiag("Could not check host support for Form AtLeastOnceQueue 0.2.0: the host rejected the token",
		"The host at <host> rejected the token (from the provider's token attribute): unauthenticated (HTTP 401). Nothing was decided at plan time; apply still checks.",
		"",
		"Host: the bearer token names no principal of this host; check the configured token",
		"",
		"Resource: takoform_at_least_once_queue (dev/orders)",
		"Form: edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue@0.2.0 schema=<sha256-1>",
		"Route: GET /.well-known/takoform/v1beta1",
		"Request: <req-1>",
		"Code: takoform.provider/host-support-unreadable (unauthenticated (host, HTTP 401))",
		"Retryable: no",
		"",
		"The host does not accept the token: check the token attribute of the provider block (it takes precedence over TAKOFORM_TOKEN). Nothing to do if apply succeeds; to make a CI plan gate fail here instead, set require_support_surface = true."))
}

// TestCapabilityUnreadableBindingRouteIsAWarning: a binding route that fails twice
// (its read and the one retry) leaves that binding undecided: a warning naming the
// binding and its route, not a refusal, and the plan goes on.
func TestCapabilityUnreadableBindingRouteIsAWarning(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	if err := h.sim.Admin.ArmFault("error=backend_unavailable,route=support-binding,count=2"); err != nil {
		t.Fatal(err)
	}
	cfg := capVersion(h, "fetch")
	cfg["bucket_bindings"] = capBindings("media")
	pr := capPlanCreate(t, h, capVersionType, cfg)
	mustNoError(t, "undecided binding", pr.diags)
	wantDiags(t, pr.diags, warningDiag("Could not check host support for Binding module-worker.object-bucket@1.0.0",
		"Nothing was decided at plan time; apply still checks.",
		"",
		"Host: error backend_unavailable injected by an armed hostsim fault (error=backend_unavailable)",
		"",
		"Resource: takoform_worker_version (dev/version-e701b9b49087-14c2529eb449)",
		"Form: edge.forms.takokit.dev/v1beta1 WorkerVersion@0.1.0 schema=<sha256-1>",
		"Route: GET /apis/forms.takoform.com/v1beta1/support/bindings/module-worker.object-bucket/1.0.0",
		"Request: <req-1>",
		"Code: takoform.provider/host-support-unreadable (backend_unavailable (host, HTTP 503))",
		"Retryable: yes",
		"",
		"Make the host's support surface readable: the lines above say why it is not. Nothing to do if apply succeeds; to make a CI plan gate fail here instead, set require_support_surface = true."))
}
