package takoform

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/takokit/takokit/hostsim"
)

// TestHostCallsBeforeTheProviderIsConfigured: every operation that needs the host
// (create, read, update, delete, import) on a provider whose block was never
// configured (a Form transition among them) ends in the one "not configured" error, naming the resource, and
// sends nothing.
func TestHostCallsBeforeTheProviderIsConfigured(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	cfg := values{aName: s("orders"), "message_retention_seconds": i64(3600)}
	st := h.create(queueType, cfg)
	planned := planQueue(h, 3600).planned
	changed := cfg.clone()
	changed["message_retention_seconds"] = i64(7200)
	upd := h.plan(queueType, changed, st)
	mustNoError(t, "plan the update", upd.diags)
	legacy := h.create(queueType, values{aName: s("legacy"), "message_retention_seconds": i64(3600), aFormDefVersion: s("0.1.0")})
	moved := values{aName: s("legacy"), "message_retention_seconds": i64(3600), aFormTransition: s(marker)}
	tx := h.plan(queueType, moved, legacy)
	mustNoError(t, "plan the transition", tx.diags)
	h.unconfigure()
	before := capCounters(t, h).requests
	notConfigured := func(name string) diagnostic {
		return errorDiag("The takoform provider is not configured",
			"A host call was needed but the provider block has not been configured.",
			"",
			"Resource: takoform_at_least_once_queue ("+name+")",
			"Code: takoform.provider/not-configured",
			"Retryable: no",
			"",
			"Configure the takoform provider (endpoint and token, or TAKOFORM_ENDPOINT and TAKOFORM_TOKEN).")
	}
	for _, op := range []struct {
		name, resource string
		run            func() []*tfprotov6.Diagnostic
	}{
		{"create", "orders", func() []*tfprotov6.Diagnostic { _, d := h.apply(queueType, cfg, nil, planned); return d }},
		{"read", "orders", func() []*tfprotov6.Diagnostic { _, d := h.read(queueType, st); return d }},
		{"update", "orders", func() []*tfprotov6.Diagnostic { _, d := h.apply(queueType, changed, st, upd.planned); return d }},
		{"transition", "legacy", func() []*tfprotov6.Diagnostic { _, d := h.apply(queueType, moved, legacy, tx.planned); return d }},
		{"delete", "orders", func() []*tfprotov6.Diagnostic { _, d := h.apply(queueType, nil, st, nil); return d }},
		{"import", "orders", func() []*tfprotov6.Diagnostic { _, d := h.importID(queueType, "dev/orders"); return d }},
	} {
		t.Run(op.name, func(t *testing.T) { wantDiags(t, op.run(), notConfigured(op.resource)) })
	}
	if after := capCounters(t, h).requests; after != before {
		t.Errorf("%d requests reached the host", after-before)
	}
}
