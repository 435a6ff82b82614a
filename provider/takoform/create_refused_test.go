package takoform

import (
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/takokit/takokit/hostsim"
)

// TestCreateRefusedForItsValuesIsNotATakenName: a prepare the host refuses as
// invalid_argument may be a taken name (TestCreateOverATakenNameSuggestsImport) or a
// value of the spec. The provider looks the name up to tell: here no resource holds it,
// so the host's refusal is reported as it is, with its own repair, and no state.
func TestCreateRefusedForItsValuesIsNotATakenName(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	cfg := values{aName: s("hourly"), "worker": s("api"), "cron": s("99 * * * *")}
	pr := h.plan("takoform_worker_cron_trigger", cfg, nil)
	mustNoError(t, "plan", pr.diags)
	st, d, routes := applyRoutes(t, h, "takoform_worker_cron_trigger", cfg, nil, pr.planned)
	wantDiags(t, d, errorDiag("Failed to create WorkerCronTrigger hourly",
		"The host refused the create; nothing was written to state.",
		"",
		`Host: spec does not satisfy the desiredSchema of WorkerCronTrigger 0.1.0: /cron: cron expression "99 * * * *": field 1 (minute) "99": 99 is outside 0-59; accepted: five fields separated by single spaces (minute 0-59, hour 0-23, day of month 1-31, month 1-12, day of week 0-6 with 0 = Sunday), each a comma list of *, N, A-B, */S or A-B/S with one- or two-digit numbers, ranges not inverted and steps 1..(max-min) of the field; no names, macros, ?, L, W or #, schedules are UTC`,
		"",
		"Resource: takoform_worker_cron_trigger (dev/hourly)",
		"Form: edge.forms.takokit.dev/v1beta1 WorkerCronTrigger@0.1.0 schema=<sha256-1>",
		"Pointer: /spec/cron",
		"Request: <req-1>",
		"Code: invalid_argument (host, HTTP 400)",
		"Retryable: no",
		"",
		"The host refused the request as written. Fix the value at the pointer its message names, then apply again."))
	if st != nil {
		t.Errorf("a refused create wrote state")
	}
	if got, want := routes, []string{"GET forms", "POST prepare", "GET read"}; !slices.Equal(got, want) {
		t.Errorf("the apply sent %q, want %q: the probe, the refused prepare and the lookup of the name", got, want)
	}
}

// TestCreateRefusedForAMissingTargetAsksNothingMore: a create the host refuses for
// another reason than the name (a reference to a resource that does not exist) is
// reported from the refused PUT: the provider does not look the name up, and the
// diagnostic is the host's refusal with its repair.
func TestCreateRefusedForAMissingTargetAsksNothingMore(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	cfg := values{aRevisionOwner: s("team"), "worker": s("api"), "bundle": s("b"),
		"handlers": types.SetValueMust(types.StringType, []attr.Value{s("fetch")})}
	pr := h.plan("takoform_worker_version", cfg, nil)
	mustNoError(t, "plan", pr.diags)
	st, d, routes := applyRoutes(t, h, "takoform_worker_version", cfg, nil, pr.planned)
	wantDiags(t, d, errorDiag("Failed to create WorkerVersion version-911d3d1fed50-ca8b22d0db83",
		"The host refused the create; nothing was written to state.",
		"",
		`Host: /bundle: relation /bundle: WorkerBundle "b" (edge.forms.takokit.dev/v1beta1) does not exist in the caller's tenant and space; create it first or name an existing WorkerBundle`,
		"",
		"Resource: takoform_worker_version (dev/version-911d3d1fed50-ca8b22d0db83)",
		"Form: edge.forms.takokit.dev/v1beta1 WorkerVersion@0.1.0 schema=<sha256-1>",
		"Pointer: /spec/bundle",
		"Request: <req-1>",
		"Code: resource_not_found (host, HTTP 404)",
		"Retryable: no",
		"",
		"The resource or a referenced target does not exist in this space. Create the target first or fix the name."))
	if st != nil {
		t.Errorf("a refused create wrote state")
	}
	if got, want := routes, []string{"GET forms", "POST prepare", "PUT apply"}; !slices.Equal(got, want) {
		t.Errorf("the apply sent %q, want %q: the support probe, the prepare and the refused PUT, no lookup of the name", got, want)
	}
}

// requestRoutes are the host's journal's requests so far, each as "METHOD route".
func requestRoutes(t *testing.T, h *harness) []string {
	t.Helper()
	reqs, err := h.sim.Admin.Requests()
	if err != nil {
		t.Fatal(err)
	}
	routes := make([]string, len(reqs))
	for i, r := range reqs {
		routes[i] = r.Method + " " + r.Route
	}
	return routes
}

// applyRoutes applies planned as h.apply does and also returns the routes of the
// requests the apply sent (requestRoutes, from where the plan left them).
func applyRoutes(t *testing.T, h *harness, typeName string, config, prior, planned values) (values, []*tfprotov6.Diagnostic, []string) {
	t.Helper()
	before := len(requestRoutes(t, h))
	st, d := h.apply(typeName, config, prior, planned)
	return st, d, requestRoutes(t, h)[before:]
}

// TestCreateStopsAtAProbeThatFindsTheFormInactive: the probe before a write asks the
// host whether the exact FormRef is installed and active in the space. A host that
// answers it inactive (hostsim's forms.unavailable) is not sent the write: the create
// ends at the probe with its report, and nothing is written.
func TestCreateStopsAtAProbeThatFindsTheFormInactive(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	cfg := values{aName: s("orders"), "message_retention_seconds": i64(3600)}
	pr := h.plan(queueType, cfg, nil)
	mustNoError(t, "plan", pr.diags)
	if err := h.sim.Admin.ArmFault("forms.unavailable"); err != nil {
		t.Fatal(err)
	}
	st, d, routes := applyRoutes(t, h, queueType, cfg, nil, pr.planned)
	wantDiags(t, d, errorDiag("Failed to create AtLeastOnceQueue orders",
		"The host refused the create; nothing was written to state.",
		"",
		"Cause: the host reports the Form as not known, installed, executable, activated or available to this credential",
		"",
		"Resource: takoform_at_least_once_queue (dev/orders)",
		"Form: edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue@0.2.0 schema=<sha256-1>",
		"Pointer: /spec",
		"Code: takoform.provider/host-does-not-support-form",
		"Retryable: no",
		"",
		"Use a host that offers this Form and operation, or remove the resource."))
	if st != nil {
		t.Errorf("a create stopped at the probe wrote state")
	}
	if c, _ := h.sim.Admin.Counters(); c.Fired["forms.unavailable"] == 0 {
		t.Errorf("forms.unavailable never fired (%v): the probe was not answered by the fault", c.Fired)
	}
	if got, want := routes, []string{"GET forms"}; !slices.Equal(got, want) {
		t.Errorf("the apply sent %q, want %q: the probe alone, no prepare or write", got, want)
	}
}

// TestCreateWithTheSpaceStillUnknownSendsNothing: a create handed a plan whose space is
// still unknown (as a plan made before the provider was configured leaves it, for the
// next round to fill) by a provider with no default space cannot address the resource:
// it reports that, names the resource, and sends nothing.
func TestCreateWithTheSpaceStillUnknownSendsNothing(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	cfg := values{aName: s("orders"), "message_retention_seconds": i64(3600)}
	pr := h.plan(queueType, cfg, nil)
	mustNoError(t, "plan", pr.diags)
	mustNoError(t, "configure", h.configure(map[string]string{"endpoint": h.sim.URL, "token": "sim-primary"}))
	planned := pr.planned.clone()
	planned[aSpace] = types.StringUnknown()
	st, d := h.applyHandMade(queueType, cfg, nil, planned)
	wantDiags(t, d, errorDiag("Could not resolve the name or space of AtLeastOnceQueue",
		"The name or space was still unknown at apply; nothing was sent.",
		"",
		"Resource: takoform_at_least_once_queue (orders)",
		"Code: takoform.provider/revision-name-unresolved",
		"Retryable: no",
		"",
		"Set name (or revision_owner with known content) and space, or the provider's default space."))
	if st != nil {
		t.Errorf("a create with no space wrote state")
	}
}

// TestCreateWithAnUnknownElementSendsNothing: a create handed a plan in which an element
// of a spec value is still unknown (OpenTofu plans again at apply, so only a plan made
// by hand has one) refuses to encode it: nothing is sent, rather than an empty string
// in the unknown element's place.
func TestCreateWithAnUnknownElementSendsNothing(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	cfg := capVersion(h, "fetch")
	pr := h.plan(capVersionType, cfg, nil)
	mustNoError(t, "plan", pr.diags)
	planned := pr.planned.clone()
	planned["handlers"] = types.SetValueMust(types.StringType, []attr.Value{s("fetch"), types.StringUnknown()})
	st, d := h.applyHandMade(capVersionType, cfg, nil, planned)
	wantDiags(t, d, errorDiag("Failed to create WorkerVersion version-f5258df1e916-14c2529eb449",
		"The desired values could not be encoded; nothing was sent.",
		"",
		"Cause: WorkerVersion field handlers is not known yet: the plan left it, or a value inside it, unknown",
		"",
		"Resource: takoform_worker_version (dev/version-f5258df1e916-14c2529eb449)",
		"Form: edge.forms.takokit.dev/v1beta1 WorkerVersion@0.1.0 schema=<sha256-1>",
		"Pointer: /spec",
		"Code: takoform.provider/internal",
		"Retryable: no",
		"",
		"Run tofu apply again, so the plan it applies is made with every value known; if this repeats, report it as a provider fault."))
	if st != nil {
		t.Errorf("a create with an unknown element wrote state")
	}
}

// TestUpdateWithAnUnknownValueSendsNothing: as above for an update, whose state keeps
// the prior values.
func TestUpdateWithAnUnknownValueSendsNothing(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	st := h.create(queueType, values{aName: s("orders"), "message_retention_seconds": i64(3600)})
	cfg := values{aName: s("orders"), "message_retention_seconds": i64(7200)}
	pr := h.plan(queueType, cfg, st)
	mustNoError(t, "plan", pr.diags)
	planned := pr.planned.clone()
	planned["message_retention_seconds"] = types.Int64Unknown()
	kept, d := h.applyHandMade(queueType, cfg, st, planned)
	wantDiags(t, d, errorDiag("Failed to update AtLeastOnceQueue orders",
		"The desired values could not be encoded; nothing was sent and the state keeps the prior values.",
		"",
		"Cause: AtLeastOnceQueue field message_retention_seconds is not known yet: the plan left it, or a value inside it, unknown",
		"",
		"Resource: takoform_at_least_once_queue (dev/orders)",
		"Form: edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue@0.2.0 schema=<sha256-1>",
		"Pointer: /spec",
		"Expected UID: <uid-1>",
		"Expected generation: 1",
		"Expected revision: 1",
		"Code: takoform.provider/internal",
		"Retryable: no",
		"",
		"Run tofu apply again, so the plan it applies is made with every value known; if this repeats, report it as a provider fault."))
	wantKept(t, st, kept)
}

// TestTransitionWithAnUnknownValueSendsNothing: as above for a Form transition.
func TestTransitionWithAnUnknownValueSendsNothing(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	requireTransitions(t, h)
	st, cfg := oldQueue(t, h)
	pr := h.plan(queueType, cfg, st)
	mustNoError(t, "plan", pr.diags)
	planned := pr.planned.clone()
	planned["message_retention_seconds"] = types.Int64Unknown()
	kept, d := h.applyHandMade(queueType, cfg, st, planned)
	wantDiags(t, d, errorDiag("Could not build the Form transition of AtLeastOnceQueue orders",
		"Nothing was sent; the state keeps the prior values.",
		"",
		"Cause: AtLeastOnceQueue field message_retention_seconds is not known yet: the plan left it, or a value inside it, unknown",
		"",
		"Resource: takoform_at_least_once_queue (dev/orders)",
		"Form: edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue@0.1.0 schema=<sha256-1>",
		"Expected UID: <uid-1>",
		"Expected generation: 1",
		"Expected revision: 1",
		"Code: takoform.provider/internal",
		"Retryable: no",
		"",
		"Run tofu apply again, so the plan it applies is made with every value known; if this repeats, report it as a provider fault."))
	wantKept(t, st, kept)
}

// TestUpdateOfAFormWithoutUpdateSendsNothing: a spec change of a Form that declares
// no update is planned as a replacement; a plan that hands it to Update anyway (made
// by hand: the provider never plans one) is refused as a provider fault, and nothing
// is sent.
func TestUpdateOfAFormWithoutUpdateSendsNothing(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	const typ = "takoform_worker_bundle"
	cfg := values{aRevisionOwner: s("api"), "manifest_digest": s("sha256:" + strings.Repeat("a", 64))}
	pr := h.plan(typ, cfg, nil)
	mustNoError(t, "plan", pr.diags)
	prior := h.settled(typ, pr.planned)
	prior[aUID], prior[aGeneration], prior[aRevision] = s("u-0123456789abcdef0123"), s("1"), s("1")
	planned := prior.clone()
	planned["manifest_digest"] = s("sha256:" + strings.Repeat("b", 64))
	kept, d := h.applyHandMade(typ, cfg, prior, planned)
	wantDiags(t, d, errorDiag("Failed to update WorkerBundle bundle-aaaaaaaaaaaa-14c2529eb449",
		"A desired change reached Update on a Form that does not declare update; it should have planned a replacement. Nothing was sent; the state keeps the prior values.",
		"",
		"Resource: takoform_worker_bundle (dev/bundle-aaaaaaaaaaaa-14c2529eb449)",
		"Form: edge.forms.takokit.dev/v1beta1 WorkerBundle@0.1.0 schema=<sha256-1>",
		"Pointer: /spec",
		"Expected UID: <uid-1>",
		"Expected generation: 1",
		"Expected revision: 1",
		"Code: takoform.provider/internal",
		"Retryable: no",
		"",
		"Report this provider bug; as a workaround, taint the resource (tofu taint <address>) so the next apply replaces it."))
	wantKept(t, prior, kept)
}

// TestCreateRefusedForAnotherReasonLooksNothingUp: only two refusals of a create
// may mean its name is taken, an invalid_argument at the prepare and a
// generation_conflict at the PUT, and only after those does the provider look the
// name up. A prepare refused with another code, or a PUT refused invalid_argument,
// is reported as the host answered it (the armed fault's own message), with no
// lookup of the name.
func TestCreateRefusedForAnotherReasonLooksNothingUp(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, fault  string
		want         []string // the routes of the apply
		code, repair string   // the report's last lines
	}{
		{"prepare refused permission_denied", "error=permission_denied,route=prepare",
			[]string{"GET forms", "POST prepare"}, "permission_denied (host, HTTP 403)",
			"The credential may not do this. Use a token that is allowed to."},
		{"PUT refused invalid_argument", "error=invalid_argument,route=apply",
			[]string{"GET forms", "POST prepare", "PUT apply"}, "invalid_argument (host, HTTP 400)",
			"The host refused the request as written. Fix the value at the pointer its message names, then apply again."},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, hostsim.Config{})
			pr := h.plan(queueType, queueOrders, nil)
			mustNoError(t, "plan", pr.diags)
			if err := h.sim.Admin.ArmFault(c.fault); err != nil {
				t.Fatal(err)
			}
			st, d, routes := applyRoutes(t, h, queueType, queueOrders, nil, pr.planned)
			code, _, _ := strings.Cut(c.code, " ")
			wantDiags(t, d, errorDiag("Failed to create AtLeastOnceQueue orders",
				"The host refused the create; nothing was written to state.",
				"",
				"Host: error "+code+" injected by an armed hostsim fault (error="+code+")",
				"",
				"Resource: takoform_at_least_once_queue (dev/orders)",
				"Form: edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue@0.2.0 schema=<sha256-1>",
				"Pointer: /spec",
				"Request: <req-1>",
				"Code: "+c.code,
				"Retryable: no",
				"",
				c.repair))
			if st != nil {
				t.Errorf("a refused create wrote state")
			}
			if !slices.Equal(routes, c.want) {
				t.Errorf("the apply sent %q, want %q: the refusal reported, no lookup of the name", routes, c.want)
			}
		})
	}
}
