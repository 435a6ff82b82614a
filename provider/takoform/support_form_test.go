package takoform

import (
	"testing"

	"github.com/takokit/takokit/hostsim"
)

// TestSupportFormRefusalWhenNoVersionIsOffered: a host that installs no version of
// the kind refuses the plan and says so, with the host's own refusal (message,
// request id) under it.
func TestSupportFormRefusalWhenNoVersionIsOffered(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{Profile: capProfile(t, `{"name":"no-queues","extends":"full",
		"forms":{"exclude":["AtLeastOnceQueue@0.1.0","AtLeastOnceQueue@0.2.0"]}}`)})
	pr := planQueue(h, 3600)
	// no version to select, so none is suggested
	wantDiags(t, pr.diags, errorDiag("Host does not offer AtLeastOnceQueue 0.2.0",
		"The host's support surface refused this exact FormRef (form_unknown). The host offers no version of AtLeastOnceQueue. This is a fact about this host; the same configuration works on a host that offers it.",
		"",
		`Host: this host (profile "no-queues") installs no edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue 0.2.0`,
		"",
		"Resource: takoform_at_least_once_queue (dev/orders)",
		"Form: edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue@0.2.0 schema=<sha256-1>",
		"Pointer: /form/formRef",
		"Request: <req-1>",
		"Code: takoform.provider/host-does-not-support-form",
		"Retryable: no",
		"",
		"Point the provider at a host that offers it, or remove these resources."))
}

// TestPlanBeforeTheProviderIsConfiguredAsksNothing: a resource planned by a provider
// whose block has not been configured (no host known) plans without a support check
// or an error, and leaves its space to the next round.
func TestPlanBeforeTheProviderIsConfiguredAsksNothing(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	h.unconfigure()
	before := capCounters(t, h).requests
	pr := planQueue(h, 3600)
	mustNoError(t, "plan", pr.diags)
	if len(pr.diags) != 0 {
		t.Errorf("want no diagnostic:\n%s", dump(pr.diags))
	}
	if !pr.planned[aSpace].IsUnknown() || pr.planned.str(aFormDefVersion) != "0.2.0" {
		t.Errorf("planned space %v, version %v; want unknown and the default create ref", pr.planned[aSpace], pr.planned[aFormDefVersion])
	}
	if after := capCounters(t, h).requests; after != before {
		t.Errorf("%d requests reached the host", after-before)
	}
}

// TestRenameBeforeTheProviderIsConfiguredLeavesTheSpaceUnknown: a renamed resource is
// a new one, and one that sets no space takes the provider's: while the provider is not
// configured yet that space is unknown, not the old resource's.
func TestRenameBeforeTheProviderIsConfiguredLeavesTheSpaceUnknown(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	st := h.create(queueType, values{aName: s("orders"), "message_retention_seconds": i64(3600)})
	h.unconfigure()
	pr := h.plan(queueType, values{aName: s("orders2"), "message_retention_seconds": i64(3600)}, st)
	mustNoError(t, "plan", pr.diags)
	if !st.known(aSpace) || !pr.planned[aSpace].IsUnknown() {
		t.Errorf("planned space %v (recorded %v), want unknown", pr.planned[aSpace], st[aSpace])
	}
}
