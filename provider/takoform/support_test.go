package takoform

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
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
	d := diagWith(pr.diags, "Host does not implement binding module-worker.object-bucket@1.0.0", codeHostNoBinding, "/spec/bucketBindings")
	if d == nil || d.Severity != tfprotov6.DiagnosticSeverityError || d.Attribute == nil {
		t.Fatalf("want the binding refusal at bucket_bindings:\n%s", dump(pr.diags))
	}
	if diagWith(pr.diags, "module-worker.edge-kv") != nil {
		t.Errorf("the KV binding was refused:\n%s", dump(pr.diags))
	}
	pr = h.plan("takoform_worker_version", versionConfig(t, []string{"fetch"}, true, false), nil)
	mustNoError(t, "a KV-only worker plans cleanly", pr.diags)
	if m, _ := mutationsAndSupport(t, h); m != 0 {
		t.Errorf("plan made %d mutations", m)
	}
}

func TestPlanRefusesEnumRangeAndCeiling(t *testing.T) {
	h := newHarness(t, hostsim.Config{Profile: "tight-limits"})
	pr := h.plan("takoform_worker_version", versionConfig(t, []string{"fetch", "queue"}, false, false), nil)
	if diagWith(pr.diags, `Host does not accept handlers = "queue"`, codeHostNoValue, `"fetch", "scheduled"`) == nil {
		t.Errorf("want the enum refusal:\n%s", dump(pr.diags))
	}
	if diagWith(pr.diags, "handlers has more entries than the host accepts", "maximumHandlers = 1", codeHostLimitExceeded) == nil {
		t.Errorf("want the ceiling refusal:\n%s", dump(pr.diags))
	}
	pr = h.plan(queueType, values{aName: s("orders"), "message_retention_seconds": i64(345600)}, nil)
	if diagWith(pr.diags, "Host does not accept message_retention_seconds = 345600", "60 to 86400") == nil {
		t.Errorf("want the range refusal:\n%s", dump(pr.diags))
	}
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
	d := diagWith(pr.diags, "Host does not accept versions[1].weight = 7000", "6000 or less")
	if d == nil || d.Attribute == nil {
		t.Errorf("want the refusal at versions[1].weight:\n%s", dump(pr.diags))
	}
}

func TestPlanRefusesAFormTheHostLacksAndNamesItsVersions(t *testing.T) {
	prof := filepath.Join(t.TempDir(), "old-queues.json")
	os.WriteFile(prof, []byte(`{"name":"old-queues","extends":"full","forms":{"exclude":["AtLeastOnceQueue@0.2.0"]}}`), 0o644)
	h := newHarness(t, hostsim.Config{Profile: prof})
	pr := h.plan(queueType, values{aName: s("orders"), "message_retention_seconds": i64(3600)}, nil)
	if diagWith(pr.diags, "Host does not offer AtLeastOnceQueue 0.2.0", codeHostNoForm, "offers AtLeastOnceQueue 0.1.0") == nil {
		t.Fatalf("want the Form refusal naming 0.1.0:\n%s", dump(pr.diags))
	}
	pr = h.plan(queueType, values{aName: s("orders"), "message_retention_seconds": i64(3600), aFormDefVersion: s("0.1.0")}, nil)
	mustNoError(t, "the carried older version plans cleanly", pr.diags)
}

func TestUnreadableSupportWarnsAndProceeds(t *testing.T) {
	h := newHarness(t, hostsim.Config{Profile: "unreadable-support"})
	cfg := values{aName: s("orders"), "message_retention_seconds": i64(3600)}
	pr := h.plan(queueType, cfg, nil)
	mustNoError(t, "plan", pr.diags)
	d := diagWith(pr.diags, "Could not check host support for Form AtLeastOnceQueue 0.2.0", codeHostSupportUnreadable)
	if d == nil || d.Severity != tfprotov6.DiagnosticSeverityWarning {
		t.Fatalf("want the warning:\n%s", dump(pr.diags))
	}
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
