package takoform

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/takokit/takokit/hostsim"
)

func TestOldVersionQueueShowsNewFieldAtDefault(t *testing.T) {
	h := newHarness(t, hostsim.Config{})
	cfg := values{aName: s("orders"), "message_retention_seconds": i64(3600), aFormDefVersion: s("0.1.0")}
	st := h.create(queueType, cfg)
	if st.str(aFormDefVersion) != "0.1.0" || !st["max_message_bytes"].Equal(types.Int64Value(127000)) {
		t.Fatalf("0.1.0 queue: version=%q max_message_bytes=%v (want the newest default)", st.str(aFormDefVersion), st["max_message_bytes"])
	}
	// the PUT went out under 0.1.0 without the 0.2.0-only member: a refresh shows no diff
	rd, d := h.read(queueType, st)
	mustNoError(t, "read", d)
	pr := h.plan(queueType, cfg, rd)
	mustNoError(t, "replan", pr.diags)
	for k, v := range rd {
		if !pr.planned[k].Equal(v) {
			t.Errorf("no-change plan moves %s: %v -> %v", k, v, pr.planned[k])
		}
	}
	// a non-default value for a field 0.1.0 lacks is refused at plan
	bad := cfg.clone()
	bad["max_message_bytes"] = i64(2048)
	pr = h.plan(queueType, bad, rd)
	if diagWith(pr.diags, "max_message_bytes is not part of AtLeastOnceQueue 0.1.0", codeFieldNotInDefinition, "at-least-once-queue-0.1-to-0.2") == nil {
		t.Errorf("want field-not-in-recorded-definition naming the marker:\n%s", dump(pr.diags))
	}
	// changing the version without a transition is refused
	moved := values{aName: s("orders"), "message_retention_seconds": i64(3600), aFormDefVersion: s("0.2.0")}
	pr = h.plan(queueType, moved, rd)
	if diagWith(pr.diags, "needs a Form transition", codeVersionChangeNeedsTrans, "at-least-once-queue-0.1-to-0.2") == nil {
		t.Errorf("want definition-version-change-needs-transition:\n%s", dump(pr.diags))
	}
	// an unset version keeps the recorded ref
	pr = h.plan(queueType, values{aName: s("orders"), "message_retention_seconds": i64(3600)}, rd)
	mustNoError(t, "plan without version", pr.diags)
	if pr.planned.str(aFormDefVersion) != "0.1.0" {
		t.Errorf("an unset version moved the resource to %q", pr.planned.str(aFormDefVersion))
	}
}

func TestPlanRefusesUnknownDefinitionVersionAndMarker(t *testing.T) {
	h := newHarness(t, hostsim.Config{})
	pr := h.plan(queueType, values{aName: s("orders"), "message_retention_seconds": i64(3600), aFormDefVersion: s("9.9.9")}, nil)
	if diagWith(pr.diags, "9.9.9", "0.1.0", "0.2.0") == nil {
		t.Errorf("unknown version must list the carried ones:\n%s", dump(pr.diags))
	}
	pr = h.plan(queueType, values{aName: s("orders"), "message_retention_seconds": i64(3600), aFormTransition: s("worker-endpoint-0.1-to-0.2")}, nil)
	if diagWith(pr.diags, "at-least-once-queue-0.1-to-0.2", codeFormTransitionInvalid) == nil {
		t.Errorf("another kind's marker must be refused:\n%s", dump(pr.diags))
	}
}

func TestPlanNeedsASpace(t *testing.T) {
	h := newHarness(t, hostsim.Config{})
	h.configure(map[string]string{"endpoint": h.sim.URL, "token": "sim-primary"})
	pr := h.plan(queueType, values{aName: s("orders"), "message_retention_seconds": i64(3600)}, nil)
	if diagWith(pr.diags, codeSpaceMissing) == nil {
		t.Errorf("want space-missing:\n%s", dump(pr.diags))
	}
	pr = h.plan(queueType, values{aName: s("orders"), aSpace: s("prod"), "message_retention_seconds": i64(3600)}, nil)
	mustNoError(t, "plan with a space", pr.diags)
	if pr.planned.str(aSpace) != "prod" {
		t.Errorf("space = %q", pr.planned.str(aSpace))
	}
}

func TestAttributeValidatorsFollowTheSchema(t *testing.T) {
	h := newHarness(t, hostsim.Config{})
	cases := []struct {
		typ  string
		cfg  values
		want string
	}{
		{queueType, values{aName: s("orders"), "message_retention_seconds": i64(10)}, "outside the allowed range 60 to 1209600"},
		{queueType, values{aName: s("Orders"), "message_retention_seconds": i64(60)}, "must match"},
		{queueType, values{aName: s("orders"), aSpace: s(" x"), "message_retention_seconds": i64(60)}, "starts or ends with whitespace"},
		{queueType, values{aName: s("orders"), "message_retention_seconds": i64(60), aCreateTimeout: s("soon")}, "positive Go duration"},
		{"takoform_worker_cron_trigger", values{aName: s("nightly"), "worker": s("api"), "cron": s("every night")}, "must match"},
	}
	for _, c := range cases {
		pr := h.plan(c.typ, c.cfg, nil)
		if diagWith(pr.diags, c.want) == nil {
			t.Errorf("%s %v: want %q:\n%s", c.typ, c.cfg, c.want, dump(pr.diags))
		}
	}
}

func objList(t *testing.T, et types.ObjectType, items ...map[string]attr.Value) attr.Value {
	var elems []attr.Value
	for _, it := range items {
		elems = append(elems, types.ObjectValueMust(et.AttrTypes, it))
	}
	v, d := types.ListValue(et, elems)
	if d.HasError() {
		t.Fatal(d)
	}
	return v
}

func TestCrossFieldConventions(t *testing.T) {
	h := newHarness(t, hostsim.Config{})
	wv := h.kind("takoform_worker_version")
	bt := bindingItemType()
	cfg := values{aRevisionOwner: s("team"), "worker": s("api"), "bundle": s("b"),
		"handlers":    types.SetValueMust(types.StringType, []attr.Value{s("fetch")}),
		"kv_bindings": objList(t, bt, map[string]attr.Value{"name": s("CACHE"), bindingTargetAttr: s("kv")}),
		"vars_json":   s(`{"CACHE":"x"}`)}
	_ = wv
	pr := h.plan("takoform_worker_version", cfg, nil)
	if diagWith(pr.diags, `Module environment name "CACHE" is declared twice`, codeEnvNameDuplicate) == nil {
		t.Errorf("want environment-name-duplicate:\n%s", dump(pr.diags))
	}
	both := cfg.clone()
	both[aName] = s("version-a")
	both["vars_json"] = s(`{}`)
	pr = h.plan("takoform_worker_version", both, nil)
	if diagWith(pr.diags, "Set either name or revision_owner, not both", codeRevisionOwnerConflict) == nil {
		t.Errorf("want revision-owner-conflict:\n%s", dump(pr.diags))
	}
	dep := h.kind("takoform_worker_deployment")
	lt := dep.objectType.AttrTypes["versions"].(types.ListType).ElemType.(types.ObjectType)
	dcfg := values{aName: s("web"), "worker": s("api"), "versions": objList(t, lt,
		map[string]attr.Value{"weight": i64(6000), "worker_version": s("v1")},
		map[string]attr.Value{"weight": i64(3000), "worker_version": s("v2")})}
	pr = h.plan("takoform_worker_deployment", dcfg, nil)
	if diagWith(pr.diags, "Weights of versions add up to 9000, not 10000", codeWeightSumInvalid) == nil {
		t.Errorf("want weight-sum-invalid:\n%s", dump(pr.diags))
	}
}

func TestRevisionOwnerDerivesTheName(t *testing.T) {
	h := newHarness(t, hostsim.Config{})
	digest := "sha256:" + "ab" + "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcd"
	cfg := values{aRevisionOwner: s("team-a"), "manifest_digest": s(digest)}
	pr := h.plan("takoform_worker_bundle", cfg, nil)
	mustNoError(t, "plan", pr.diags)
	name := pr.planned.str(aName)
	if len(name) != len("bundle-")+12+1+12 || name[:19] != "bundle-ab0123456789" {
		t.Errorf("derived name %q, want bundle-<c12>-<o12> from the manifest digest", name)
	}
	other := values{aRevisionOwner: s("team-b"), "manifest_digest": s(digest)}
	if h.plan("takoform_worker_bundle", other, nil).planned.str(aName) == name {
		t.Error("another owner derives the same name")
	}
}

func TestJSONMapValidators(t *testing.T) {
	h := newHarness(t, hostsim.Config{})
	base := values{aRevisionOwner: s("team"), "worker": s("api"), "bundle": s("b"),
		"handlers": types.SetValueMust(types.StringType, []attr.Value{s("fetch")})}
	many := "{"
	for i := 0; i < 65; i++ {
		if i > 0 {
			many += ","
		}
		many += `"K` + string(rune('A'+i/26)) + string(rune('A'+i%26)) + `":1`
	}
	many += "}"
	for val, want := range map[string]string{`[1]`: "Not a JSON object", `null`: "Not a JSON object", `{"a":1,"a":2}`: "Invalid JSON", many: "at most 64"} {
		cfg := base.clone()
		cfg["vars_json"] = s(val)
		pr := h.plan("takoform_worker_version", cfg, nil)
		if diagWith(pr.diags, want) == nil {
			t.Errorf("vars_json %.20s: want %q:\n%s", val, want, dump(pr.diags))
		}
	}
	cfg := base.clone()
	cfg["vars_json"] = s(`{"bad key!":1}`)
	pr := h.plan("takoform_worker_version", cfg, nil)
	if diagWith(pr.diags, codeDesiredInvalid, "bad key!") == nil {
		t.Errorf("the whole-spec check must refuse a bad key:\n%s", dump(pr.diags))
	}
}

func TestCreateOverATakenNameSuggestsImport(t *testing.T) {
	h := newHarness(t, hostsim.Config{})
	cfg := values{aName: s("orders"), "message_retention_seconds": i64(3600)}
	h.create(queueType, cfg)
	pr := h.plan(queueType, cfg, nil)
	mustNoError(t, "plan", pr.diags)
	st, d := h.apply(queueType, cfg, nil, pr.planned)
	if diagWith(d, `name "orders" is already taken`, "tofu import <address> dev/orders") == nil {
		t.Errorf("want the import repair:\n%s", dump(d))
	}
	if st != nil {
		t.Errorf("a refused create wrote state")
	}
}

func TestReformattedJSONIsNotAReplacement(t *testing.T) {
	h := newHarness(t, hostsim.Config{})
	cfg := values{aRevisionOwner: s("team"), "worker": s("api"), "bundle": s("b"),
		"handlers": types.SetValueMust(types.StringType, []attr.Value{s("fetch")}), "vars_json": s(`{"A":"1","B":2}`)}
	pr := h.plan("takoform_worker_version", cfg, nil)
	mustNoError(t, "plan", pr.diags)
	prior := pr.planned.clone()
	for k, v := range prior {
		if v.IsUnknown() {
			prior[k] = nullOf(h.kind("takoform_worker_version").objectType.AttrTypes[k])
		}
	}
	prior[aUID], prior[aGeneration] = s("u-1"), s("1")
	re := cfg.clone()
	re["vars_json"] = s("{\n  \"B\": 2,\n  \"A\": \"1\"\n}")
	pr = h.plan("takoform_worker_version", re, prior)
	mustNoError(t, "replan", pr.diags)
	if len(pr.replace) != 0 {
		t.Errorf("reformatting vars_json plans a replacement of %v", pr.replace)
	}
	changed := cfg.clone()
	changed["vars_json"] = s(`{"A":"2","B":2}`)
	if pr = h.plan("takoform_worker_version", changed, prior); len(pr.replace) == 0 {
		t.Errorf("a changed object must replace the revision:\n%s", dump(pr.diags))
	}
}

func TestReformattedJSONAppliesWithoutARequest(t *testing.T) {
	h := withWorker(t, hostsim.Config{})
	st := h.create("takoform_worker_version", values{aRevisionOwner: s("other"), "worker": s("api"),
		"bundle":   s(h.bundleName(t)),
		"handlers": types.SetValueMust(types.StringType, []attr.Value{s("fetch")}), "vars_json": s(`{"A":"1","B":2}`)})
	cfg := values{aRevisionOwner: s("other"), "worker": s("api"), "bundle": s(h.bundleName(t)),
		"handlers": types.SetValueMust(types.StringType, []attr.Value{s("fetch")}), "vars_json": s("{ \"B\": 2, \"A\": \"1\" }")}
	pr := h.plan("takoform_worker_version", cfg, st)
	mustNoError(t, "plan", pr.diags)
	if len(pr.replace) != 0 {
		t.Fatalf("replace %v", pr.replace)
	}
	before, _ := counters(t, h)
	up, d := h.apply("takoform_worker_version", cfg, st, pr.planned)
	mustNoError(t, "apply", d)
	if up.str("vars_json") != "{ \"B\": 2, \"A\": \"1\" }" {
		t.Errorf("vars_json = %q, want the configured spelling", up.str("vars_json"))
	}
	if after, _ := counters(t, h); after != before {
		t.Errorf("a reformatting made %d requests", after-before)
	}
}
