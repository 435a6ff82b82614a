package takoform

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/takokit/takokit/hostsim"
)

func versionConfig(t *testing.T, handlers []string, kv, bucket bool) values {
	var hs []attr.Value
	for _, h := range handlers {
		hs = append(hs, s(h))
	}
	cfg := values{aRevisionOwner: s("api"), "worker": s("api"), "bundle": s("b"),
		"handlers": types.SetValueMust(types.StringType, hs)}
	bt := bindingItemType()
	if kv {
		cfg["kv_bindings"] = objList(t, bt, map[string]attr.Value{"name": s("CACHE"), bindingTargetAttr: s("cache")})
	}
	if bucket {
		cfg["bucket_bindings"] = objList(t, bt, map[string]attr.Value{"name": s("MEDIA"), bindingTargetAttr: s("media")})
	}
	return cfg
}

func mutationsAndSupport(t *testing.T, h *harness) (int64, int64) {
	c, err := h.sim.Admin.Counters()
	if err != nil {
		t.Fatal(err)
	}
	return c.Mutations, c.SupportReads
}

func TestPlanRefusesUnsupportedBindingOnly(t *testing.T) {
	h := newHarness(t, hostsim.Config{Profile: "kv-only"})
	pr := h.plan("takoform_worker_version", versionConfig(t, []string{"fetch"}, true, true), nil)
	// the KV binding is not refused
	wantDiags(t, pr.diags, errorDiag("Host does not implement binding module-worker.object-bucket@1.0.0",
		"bucket_bindings uses this binding contract. The host's support route refused it (resource_not_found, HTTP 404). The host may implement other bindings; apply would end in unsupported_capability (422). This is a fact about this host, not about the configuration: the same configuration applies unchanged on a host that implements it.",
		"",
		`Host: this host (profile "kv-only") does not implement binding module-worker.object-bucket@1.0.0`,
		"",
		"Resource: takoform_worker_version (dev/version-770938bfde56-14c2529eb449)",
		"Form: edge.forms.takokit.dev/v1beta1 WorkerVersion@0.1.0 schema=<sha256-1>",
		"Pointer: /spec/bucketBindings",
		"Request: <req-1>",
		"Code: takoform.provider/host-does-not-support-binding",
		"Retryable: no",
		"",
		"Remove the binding or use another host.").at("bucket_bindings"))
	pr = h.plan("takoform_worker_version", versionConfig(t, []string{"fetch"}, true, false), nil)
	mustNoError(t, "a KV-only worker plans cleanly", pr.diags)
	if m, _ := mutationsAndSupport(t, h); m != 0 {
		t.Errorf("plan made %d mutations", m)
	}
}

func TestPlanRefusesEnumRangeAndCeiling(t *testing.T) {
	h := newHarness(t, hostsim.Config{Profile: "tight-limits"})
	pr := h.plan("takoform_worker_version", versionConfig(t, []string{"fetch", "queue"}, false, false), nil)
	wantDiags(t, pr.diags, errorDiag(`Host does not accept handlers = "queue"`,
		`The value is valid for the Form; this host accepts exactly "fetch", "scheduled". This is a fact about this host, not about the configuration: the same configuration applies unchanged on a host that implements it.`,
		"",
		"Resource: takoform_worker_version (dev/version-90086e40da43-14c2529eb449)",
		"Form: edge.forms.takokit.dev/v1beta1 WorkerVersion@0.1.0 schema=<sha256-1>",
		"Pointer: /spec/handlers",
		"Code: takoform.provider/host-does-not-support-value",
		"Retryable: no",
		"",
		"Use an accepted value, or another host.").at(`handlers{"queue"}`),
		errorDiag("handlers has more entries than the host accepts",
			"2 entries planned; maximumHandlers = 1. This is a fact about this host, not about the configuration: the same configuration applies unchanged on a host that implements it.",
			"",
			"Resource: takoform_worker_version (dev/version-90086e40da43-14c2529eb449)",
			"Form: edge.forms.takokit.dev/v1beta1 WorkerVersion@0.1.0 schema=<sha256-1>",
			"Pointer: /spec/handlers",
			"Code: takoform.provider/host-limit-exceeded",
			"Retryable: no",
			"",
			"Use at most 1 entry in handlers, or another host.").at("handlers"))
	pr = h.plan(queueType, values{aName: s("orders"), "message_retention_seconds": i64(345600)}, nil)
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
	pr = h.plan(queueType, values{aName: s("orders"), "message_retention_seconds": i64(3600)}, nil)
	mustNoError(t, "an in-range queue", pr.diags)
}

func TestPlanRefusesNestedRangeByDottedKey(t *testing.T) {
	prof := filepath.Join(t.TempDir(), "weights.json")
	os.WriteFile(prof, []byte(`{"name":"weights","extends":"full","supportedRanges":{"WorkerDeployment":{"versions.weight":{"maximum":6000}}}}`), 0o644)
	h := newHarness(t, hostsim.Config{Profile: prof})
	lt := h.kind("takoform_worker_deployment").objectType.AttrTypes["versions"].(types.ListType).ElemType.(types.ObjectType)
	cfg := values{aName: s("web"), "worker": s("api"), "versions": objList(t, lt,
		map[string]attr.Value{"weight": i64(4000), "worker_version": s("v1")},
		map[string]attr.Value{"weight": i64(6000), "worker_version": s("v2")})}
	mustNoError(t, "weights in range", h.plan("takoform_worker_deployment", cfg, nil).diags)
	cfg["versions"] = objList(t, lt,
		map[string]attr.Value{"weight": i64(3000), "worker_version": s("v1")},
		map[string]attr.Value{"weight": i64(7000), "worker_version": s("v2")})
	pr := h.plan("takoform_worker_deployment", cfg, nil)
	wantDiags(t, pr.diags, errorDiag("Host does not accept versions[1].weight = 7000",
		"The value is valid for the Form; this host accepts 6000 or less. This is a fact about this host, not about the configuration: the same configuration applies unchanged on a host that implements it.",
		"",
		"Resource: takoform_worker_deployment (dev/web)",
		"Form: edge.forms.takokit.dev/v1beta1 WorkerDeployment@0.1.0 schema=<sha256-1>",
		"Pointer: /spec/versions/1/weight",
		"Code: takoform.provider/host-does-not-support-value",
		"Retryable: no",
		"",
		"Use 6000 or less, or another host.").at("versions[1].weight"))
}

func TestPlanRefusesAFormTheHostLacksAndNamesItsVersions(t *testing.T) {
	prof := filepath.Join(t.TempDir(), "old-queues.json")
	os.WriteFile(prof, []byte(`{"name":"old-queues","extends":"full","forms":{"exclude":["AtLeastOnceQueue@0.2.0"]}}`), 0o644)
	h := newHarness(t, hostsim.Config{Profile: prof})
	pr := h.plan(queueType, values{aName: s("orders"), "message_retention_seconds": i64(3600)}, nil)
	wantDiags(t, pr.diags, errorDiag("Host does not offer AtLeastOnceQueue 0.2.0",
		"The host's support surface refused this exact FormRef (form_unknown). The host offers AtLeastOnceQueue 0.1.0; form_definition_version selects one. This is a fact about this host; the same configuration works on a host that offers it.",
		"",
		`Host: this host (profile "old-queues") installs no edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue 0.2.0`,
		"",
		"Resource: takoform_at_least_once_queue (dev/orders)",
		"Form: edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue@0.2.0 schema=<sha256-1>",
		"Pointer: /form/formRef",
		"Request: <req-1>",
		"Code: takoform.provider/host-does-not-support-form",
		"Retryable: no",
		"",
		"Point the provider at a host that offers it, or remove these resources."))
	pr = h.plan(queueType, values{aName: s("orders"), "message_retention_seconds": i64(3600), aFormDefVersion: s("0.1.0")}, nil)
	mustNoError(t, "the carried older version plans cleanly", pr.diags)
}

func TestUnreadableSupportWarnsAndProceeds(t *testing.T) {
	h := newHarness(t, hostsim.Config{Profile: "unreadable-support"})
	cfg := values{aName: s("orders"), "message_retention_seconds": i64(3600)}
	pr := h.plan(queueType, cfg, nil)
	wantDiags(t, pr.diags, warningDiag("Could not check host support for Form AtLeastOnceQueue 0.2.0",
		"Nothing was decided at plan time; apply still checks.",
		"",
		`Host: support profiles are unavailable on this host (profile "unreadable-support"); retry later`,
		"",
		"Resource: takoform_at_least_once_queue (dev/orders)",
		"Form: edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue@0.2.0 schema=<sha256-1>",
		"Route: GET /apis/forms.takoform.com/v1beta1/support/forms/edge.forms.takokit.dev/v1beta1/AtLeastOnceQueue/0.2.0",
		"Request: <req-1>",
		"Code: takoform.provider/host-support-unreadable (backend_unavailable (host, HTTP 503))",
		"Retryable: yes",
		"",
		"Make the host's support surface readable: the lines above say why it is not. Nothing to do if apply succeeds; to make a CI plan gate fail here instead, set require_support_surface = true."))
	st, ds := h.apply(queueType, cfg, nil, pr.planned)
	mustNoError(t, "apply proceeds", ds)
	if st.str(aUID) == "" {
		t.Error("no uid")
	}
}

func TestSupportRoutesAreReadOncePerConfiguration(t *testing.T) {
	h := newHarness(t, hostsim.Config{})
	cfg := values{aName: s("orders"), "message_retention_seconds": i64(3600)}
	mustNoError(t, "plan", h.plan(queueType, cfg, nil).diags)
	_, first := mutationsAndSupport(t, h)
	mustNoError(t, "plan again", h.plan(queueType, values{aName: s("other"), "message_retention_seconds": i64(60)}, nil).diags)
	if _, second := mutationsAndSupport(t, h); second != first || first == 0 {
		t.Errorf("support reads %d then %d; each route is read once per configuration", first, second)
	}
	st := h.create(queueType, cfg)
	_, before := mutationsAndSupport(t, h)
	before2, _ := counters(t, h)
	pr := h.plan(queueType, cfg, st)
	mustNoError(t, "no-change plan", pr.diags)
	if after, _ := counters(t, h); after != before2 {
		t.Errorf("a plan without changes made %d requests", after-before2)
	}
	_ = before
}
