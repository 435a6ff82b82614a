package takoform

import (
	"testing"

	"github.com/takokit/takokit/hostsim"
)

// TestVersionChangeNeedsATransitionAndNamesTheMarker: editing form_definition_version
// of an existing resource never moves it: the plan is refused at the attribute,
// naming the declared marker for that pair, or saying that none is declared.
func TestVersionChangeNeedsATransitionAndNamesTheMarker(t *testing.T) {
	h := newHarness(t, hostsim.Config{})
	old, _ := oldQueue(t, h)
	newer := h.create(queueType, values{aName: s("fresh"), "message_retention_seconds": i64(60)})
	before := capCounters(t, h).requests
	for _, c := range []struct {
		st                  values
		name, to            string
		from, about, repair string
	}{
		{old, "orders", "0.2.0", "0.1.0", "Declared marker(s) for this change: " + marker + ".",
			`Set form_transition = "` + marker + `", or set form_definition_version back to "0.1.0" (or remove it).`},
		{newer, "fresh", "0.1.0", "0.2.0", "No Form transition is declared for this pair.",
			`No Form transition moves this resource there: set form_definition_version back to "0.2.0" (or remove it), or replace the resource under a new name.`},
	} {
		cfg := values{aName: s(c.name), "message_retention_seconds": c.st["message_retention_seconds"], aFormDefVersion: s(c.to)}
		pr := h.plan(queueType, cfg, c.st)
		wantDiags(t, pr.diags, errorDiag("Changing the definition version of AtLeastOnceQueue "+c.name+" needs a Form transition",
			"The resource is recorded under AtLeastOnceQueue@"+c.from+"; moving it to "+c.to+" never happens by editing this attribute alone. "+c.about,
			"",
			"Resource: takoform_at_least_once_queue (dev/"+c.name+")",
			"Form: edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue@"+c.from+" schema=<sha256-1>",
			"Code: takoform.provider/definition-version-change-needs-transition",
			"Retryable: no",
			"",
			c.repair).at("form_definition_version"))
	}
	if got := capCounters(t, h).requests - before; got != 0 {
		t.Errorf("refused plans made %d requests", got)
	}
}
