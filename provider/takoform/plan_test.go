package takoform

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/takokit/takokit/hostsim"
)

func TestOldVersionQueueShowsNewFieldAtDefault(t *testing.T) {
	t.Parallel()
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
	wantDiags(t, pr.diags, errorDiag("max_message_bytes is not part of AtLeastOnceQueue 0.1.0",
		"The resource's Form definition does not declare this field.",
		"",
		"Resource: takoform_at_least_once_queue (orders)",
		"Form: edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue@0.1.0 schema=<sha256-1>",
		"Pointer: /spec/maxMessageBytes",
		"Code: takoform.provider/field-not-in-recorded-definition",
		"Retryable: no",
		"",
		`Move the resource with form_transition = "at-least-once-queue-0.1-to-0.2" first, or remove max_message_bytes.`).at("max_message_bytes"))
	// changing the version without a transition is refused
	moved := values{aName: s("orders"), "message_retention_seconds": i64(3600), aFormDefVersion: s("0.2.0")}
	pr = h.plan(queueType, moved, rd)
	wantDiags(t, pr.diags, errorDiag("Changing the definition version of AtLeastOnceQueue orders needs a Form transition",
		"The resource is recorded under AtLeastOnceQueue@0.1.0; moving it to 0.2.0 never happens by editing this attribute alone. Declared marker(s) for this change: at-least-once-queue-0.1-to-0.2.",
		"",
		"Resource: takoform_at_least_once_queue (dev/orders)",
		"Form: edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue@0.1.0 schema=<sha256-1>",
		"Code: takoform.provider/definition-version-change-needs-transition",
		"Retryable: no",
		"",
		`Set form_transition = "at-least-once-queue-0.1-to-0.2", or set form_definition_version back to "0.1.0" (or remove it).`).at("form_definition_version"))
	// an unset version keeps the recorded ref
	pr = h.plan(queueType, values{aName: s("orders"), "message_retention_seconds": i64(3600)}, rd)
	mustNoError(t, "plan without version", pr.diags)
	if pr.planned.str(aFormDefVersion) != "0.1.0" {
		t.Errorf("an unset version moved the resource to %q", pr.planned.str(aFormDefVersion))
	}
}

func TestPlanRefusesUnknownDefinitionVersionAndMarker(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	pr := h.plan(queueType, values{aName: s("orders"), "message_retention_seconds": i64(3600), aFormDefVersion: s("9.9.9")}, nil)
	// an unknown version lists the carried ones
	wantDiags(t, pr.diags, errorDiag("Value not allowed",
		`"9.9.9" is not a definition version this provider carries for AtLeastOnceQueue; allowed: "0.1.0", "0.2.0".`).at("form_definition_version"))
	pr = h.plan(queueType, values{aName: s("orders"), "message_retention_seconds": i64(3600), aFormTransition: s("worker-endpoint-0.1-to-0.2")}, nil)
	// another kind's marker is refused
	wantDiags(t, pr.diags, errorDiag("Invalid form_transition",
		`"worker-endpoint-0.1-to-0.2" is not a Form transition the catalog declares for AtLeastOnceQueue. Declared: "at-least-once-queue-0.1-to-0.2".`,
		"",
		"Code: takoform.provider/form-transition-invalid",
		"Retryable: no",
		"",
		"Use a declared marker, or remove form_transition.").at("form_transition"))
}

func TestPlanNeedsASpace(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	h.configure(map[string]string{"endpoint": h.sim.URL, "token": "sim-primary"})
	pr := h.plan(queueType, values{aName: s("orders"), "message_retention_seconds": i64(3600)}, nil)
	wantDiags(t, pr.diags, errorDiag("No space for AtLeastOnceQueue orders",
		"The resource sets no space and the provider has no default space.",
		"",
		"Resource: takoform_at_least_once_queue (orders)",
		"Code: takoform.provider/space-missing",
		"Retryable: no",
		"",
		"Set space on the resource, or space in the provider block (or TAKOFORM_SPACE).").at("space"))
	// a revision Form's name is derived later, from its space among others: the summary
	// names its owner (it ended "WorkerBundle " with nothing after)
	pr = h.plan("takoform_worker_bundle", values{aRevisionOwner: s("api")}, nil)
	wantDiags(t, pr.diags, errorDiag("No space for WorkerBundle (revision_owner api)",
		"The resource sets no space and the provider has no default space.",
		"",
		"Resource: takoform_worker_bundle",
		"Code: takoform.provider/space-missing",
		"Retryable: no",
		"",
		"Set space on the resource, or space in the provider block (or TAKOFORM_SPACE).").at("space"))
	pr = h.plan(queueType, values{aName: s("orders"), aSpace: s("prod"), "message_retention_seconds": i64(3600)}, nil)
	mustNoError(t, "plan with a space", pr.diags)
	if pr.planned.str(aSpace) != "prod" {
		t.Errorf("space = %q", pr.planned.str(aSpace))
	}
}

func TestAttributeValidatorsFollowTheSchema(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	const cronField = `(?:\*(?:/[0-9]{1,2})?|[0-9]{1,2}(?:-[0-9]{1,2}(?:/[0-9]{1,2})?)?)(?:,(?:\*(?:/[0-9]{1,2})?|[0-9]{1,2}(?:-[0-9]{1,2}(?:/[0-9]{1,2})?)?))*`
	cases := []struct {
		typ  string
		cfg  values
		want diagnostic
	}{
		{queueType, values{aName: s("orders"), "message_retention_seconds": i64(10)}, errorDiag("Value out of range",
			"10 is outside the allowed range 60 to 1209600.").at("message_retention_seconds")},
		{queueType, values{aName: s("Orders"), "message_retention_seconds": i64(60)}, errorDiag("Value does not match the required pattern",
			`"Orders" must match ^[a-z][a-z0-9-]{0,62}$. A name is 1 to 63 lower-case letters, digits and hyphens, starting with a letter.`).at("name")},
		{queueType, values{aName: s("orders"), aSpace: s(" x"), "message_retention_seconds": i64(60)}, errorDiag("Invalid space",
			`space " x" starts or ends with whitespace or U+FEFF; spaces are never trimmed, so remove it`).at("space")},
		{queueType, values{aName: s("orders"), "message_retention_seconds": i64(60), aCreateTimeout: s("soon")}, errorDiag("Invalid timeout",
			`"soon" is not a positive Go duration such as "30s", "20m" or "1h".`).at("create_timeout")},
		{"takoform_worker_cron_trigger", values{aName: s("nightly"), "worker": s("api"), "cron": s("every night")}, errorDiag("Value does not match the required pattern",
			`"every night" must match ^`+cronField+`(?: `+cronField+`){4}$. Five space-separated cron fields; each is a comma list of *, */step, N, A-B or A-B/step.`).at("cron")},
	}
	for _, c := range cases {
		wantDiags(t, h.plan(c.typ, c.cfg, nil).diags, c.want)
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
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	wv := h.kind("takoform_worker_version")
	bt := bindingItemType()
	cfg := values{aRevisionOwner: s("team"), "worker": s("api"), "bundle": s("b"),
		"handlers":    types.SetValueMust(types.StringType, []attr.Value{s("fetch")}),
		"kv_bindings": objList(t, bt, map[string]attr.Value{"name": s("CACHE"), bindingTargetAttr: s("kv")}),
		"vars_json":   s(`{"CACHE":"x"}`)}
	_ = wv
	pr := h.plan("takoform_worker_version", cfg, nil)
	wantDiags(t, pr.diags, errorDiag(`Module environment name "CACHE" is declared twice`,
		"Binding names, vars keys and names of required sensitive vars share one namespace in the module's environment.",
		"",
		"Resource: takoform_worker_version",
		"Code: takoform.provider/environment-name-duplicate",
		"Retryable: no",
		"",
		"Rename one of them.").at("vars_json"))
	// a required sensitive var (a set: its path is the value) named like a binding
	secret := cfg.clone()
	secret["vars_json"] = s(`{}`)
	secret["required_sensitive_vars"] = types.SetValueMust(types.StringType, []attr.Value{s("TOKEN"), s("CACHE")})
	pr = h.plan("takoform_worker_version", secret, nil)
	wantDiags(t, pr.diags, errorDiag(`Module environment name "CACHE" is declared twice`,
		"Binding names, vars keys and names of required sensitive vars share one namespace in the module's environment.",
		"",
		"Resource: takoform_worker_version",
		"Code: takoform.provider/environment-name-duplicate",
		"Retryable: no",
		"",
		"Rename one of them.").at(`required_sensitive_vars{"CACHE"}`))
	both := cfg.clone()
	both[aName] = s("version-a")
	both["vars_json"] = s(`{}`)
	pr = h.plan("takoform_worker_version", both, nil)
	wantDiags(t, pr.diags, errorDiag("Set either name or revision_owner, not both",
		"A revision is named either explicitly or from its content and owner.",
		"",
		"Resource: takoform_worker_version (version-a)",
		"Code: takoform.provider/revision-owner-conflict",
		"Retryable: no",
		"",
		"Remove name (to derive it) or remove revision_owner.").at("revision_owner"))
	dep := h.kind("takoform_worker_deployment")
	lt := dep.objectType.AttrTypes["versions"].(types.ListType).ElemType.(types.ObjectType)
	dcfg := values{aName: s("web"), "worker": s("api"), "versions": objList(t, lt,
		map[string]attr.Value{"weight": i64(6000), "worker_version": s("v1")},
		map[string]attr.Value{"weight": i64(3000), "worker_version": s("v2")})}
	pr = h.plan("takoform_worker_deployment", dcfg, nil)
	wantDiags(t, pr.diags, errorDiag("Weights of versions add up to 9000, not 10000",
		"The entries split traffic, so their weights must add up to exactly the maximum weight.",
		"",
		"Resource: takoform_worker_deployment (web)",
		"Code: takoform.provider/weight-sum-invalid",
		"Retryable: no",
		"",
		"Adjust the weights so they sum to 10000.").at("versions"))
}

func TestRevisionOwnerDerivesTheName(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
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
	notObject := errorDiag("Not a JSON object",
		`The value must be one JSON object such as {"KEY": "value"}; null and arrays are not allowed.`).at("vars_json")
	for val, want := range map[string]diagnostic{`[1]`: notObject, `null`: notObject,
		`{"a":1,"a":2}`: errorDiag("Invalid JSON",
			`The value must be one JSON object: JSON at /a (byte 10): duplicate member name "a"; every member name in an object must be unique`).at("vars_json"),
		many: errorDiag("Too many members", "The object has 65 members; at most 64 are allowed.").at("vars_json")} {
		cfg := base.clone()
		cfg["vars_json"] = s(val)
		wantDiags(t, h.plan("takoform_worker_version", cfg, nil).diags, want)
	}
	cfg := base.clone()
	cfg["vars_json"] = s(`{"bad key!":1}`)
	pr := h.plan("takoform_worker_version", cfg, nil)
	// the whole-spec check refuses a bad key
	wantDiags(t, pr.diags, errorDiag("Invalid vars_json for WorkerVersion version-addb84d93765-ca8b22d0db83",
		`The desired spec breaks the Form's desired schema at /spec/vars: member name "bad key!" is not allowed: "bad key!" does not match the pattern ^[A-Za-z][A-Za-z0-9._-]{0,63}$: a letter, then up to 63 letters, digits, "-", "." or "_". Nothing was sent.`,
		"",
		"Resource: takoform_worker_version (version-addb84d93765-ca8b22d0db83)",
		"Form: edge.forms.takokit.dev/v1beta1 WorkerVersion@0.1.0 schema=<sha256-1>",
		"Pointer: /spec/vars",
		"Code: takoform.provider/desired-invalid",
		"Retryable: no",
		"",
		"Change the value so it satisfies the Form's desired schema.").at("vars_json"))
}

func TestCreateOverATakenNameSuggestsImport(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	cfg := values{aName: s("orders"), "message_retention_seconds": i64(3600)}
	taken := h.create(queueType, cfg)
	pr := h.plan(queueType, cfg, nil)
	mustNoError(t, "plan", pr.diags)
	st, d := h.apply(queueType, cfg, nil, pr.planned)
	wantDiags(t, named(d, "<taken uid>", taken.str(aUID)), errorDiag("Failed to create AtLeastOnceQueue orders",
		`The name "orders" is already taken on the host in space "dev" (uid <taken uid>, under AtLeastOnceQueue@0.2.0); nothing was written to state.`,
		"",
		`Host: AtLeastOnceQueue "orders" in space "dev" exists at generation 1; prepare of an existing resource requires Takoform-Expected-Generation`,
		"",
		"Resource: takoform_at_least_once_queue (dev/orders)",
		"Form: edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue@0.2.0 schema=<sha256-1>",
		"Pointer: /spec",
		"Request: <req-1>",
		"Code: invalid_argument (host, HTTP 400)",
		"Retryable: no",
		"",
		"Adopt it with: tofu import <address> dev/orders — or choose another name."))
	if st != nil {
		t.Errorf("a refused create wrote state")
	}
}

func TestReformattedJSONIsNotAReplacement(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	cfg := values{aRevisionOwner: s("team"), "worker": s("api"), "bundle": s("b"),
		"handlers": types.SetValueMust(types.StringType, []attr.Value{s("fetch")}), "vars_json": s(`{"A":"1","B":2}`)}
	pr := h.plan("takoform_worker_version", cfg, nil)
	mustNoError(t, "plan", pr.diags)
	prior := h.settled("takoform_worker_version", pr.planned)
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
	t.Parallel()
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

// TestCreateUnderAnOlderVersionIsPlannedUnderIt: a create that names an older
// definition version is planned under that version's ref (known at plan, not left to
// apply), and a value for a field that version lacks is refused at plan, before
// anything is sent.
func TestCreateUnderAnOlderVersionIsPlannedUnderIt(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	cfg := values{aName: s("orders"), "message_retention_seconds": i64(3600), aFormDefVersion: s("0.1.0")}
	pr := h.plan(queueType, cfg, nil)
	mustNoError(t, "plan", pr.diags)
	old, _ := h.kind(queueType).model.form("0.1.0")
	if got, want := pr.planned.str(aFormSchemaDigest), old.Ref.SchemaDigest; got != want || !pr.planned.known(aFormAPIVersion) {
		t.Errorf("planned schema digest %q (api version %v), want 0.1.0's %q", got, pr.planned[aFormAPIVersion], want)
	}
	bad := cfg.clone()
	bad["max_message_bytes"] = i64(2048)
	pr = h.plan(queueType, bad, nil)
	wantDiags(t, pr.diags, errorDiag("max_message_bytes is not part of AtLeastOnceQueue 0.1.0",
		"The resource's Form definition does not declare this field.",
		"",
		"Resource: takoform_at_least_once_queue (orders)",
		"Form: edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue@0.1.0 schema=<sha256-1>",
		"Pointer: /spec/maxMessageBytes",
		"Code: takoform.provider/field-not-in-recorded-definition",
		"Retryable: no",
		"",
		`Move the resource with form_transition = "at-least-once-queue-0.1-to-0.2" first, or remove max_message_bytes.`).at("max_message_bytes"))
}

// TestInPlaceUpdatePlansTheRecordedRef: an in-place update is sent under the recorded
// ref, so the plan shows that ref in full, the package digest too, not "known after
// apply" (docs/provider-design.md#recorded-ref).
func TestInPlaceUpdatePlansTheRecordedRef(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	cfg := values{aName: s("orders"), "message_retention_seconds": i64(3600)}
	st := h.create(queueType, cfg)
	cfg["message_retention_seconds"] = i64(7200)
	pr := h.plan(queueType, cfg, st)
	mustNoError(t, "plan", pr.diags)
	for _, a := range []string{aFormAPIVersion, aFormKind, aFormDefVersion, aFormSchemaDigest, aFormPackageDigest} {
		if !st.known(a) || !pr.planned[a].Equal(st[a]) {
			t.Errorf("%s: planned %v, want the recorded %v", a, pr.planned[a], st[a])
		}
	}
}

// TestUnknownValueOfAnUndeclaredFieldKeepsItsRecordedValue: a field the recorded
// version does not declare is planned as state holds it (its newest default) even when
// the configuration's value is not known yet: nothing of it is sent, and a value that
// turns out to be another one is refused when it is known.
func TestUnknownValueOfAnUndeclaredFieldKeepsItsRecordedValue(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	cfg := values{aName: s("orders"), "message_retention_seconds": i64(3600), aFormDefVersion: s("0.1.0")}
	st := h.create(queueType, cfg)
	cfg["max_message_bytes"] = types.Int64Unknown()
	pr := h.plan(queueType, cfg, st)
	mustNoError(t, "plan", pr.diags)
	if got, want := pr.planned["max_message_bytes"], st["max_message_bytes"]; !want.Equal(types.Int64Value(127000)) || !want.Equal(got) {
		t.Errorf("max_message_bytes planned %v, want the recorded default %v", got, want)
	}
}
