package takoform

import (
	"strings"
	"testing"

	"github.com/takokit/takokit/hostsim"
)

// TestSpaceChangeIsPlannedUnderTheConfiguredRef: a 0.1.0 queue whose configuration
// names its own space explicitly plans no change under its recorded ref; naming
// another space is a new resource, planned under the ref the configuration asks for
// (the newest) and replaced on space.
func TestSpaceChangeIsPlannedUnderTheConfiguredRef(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	st, _ := oldQueue(t, h)
	same := values{aName: s("orders"), "message_retention_seconds": i64(3600), aSpace: s("dev")}
	pr := h.plan(queueType, same, st)
	mustNoError(t, "the same space, explicitly", pr.diags)
	if len(pr.replace) != 0 || pr.planned.str(aFormDefVersion) != "0.1.0" {
		t.Errorf("explicit same space: replace=%v version=%q; want no change under 0.1.0", pr.replace, pr.planned.str(aFormDefVersion))
	}
	for k, v := range st {
		if !pr.planned[k].Equal(v) {
			t.Errorf("explicit same space plans a change of %s: %v -> %v", k, v, pr.planned[k])
		}
	}
	moved := values{aName: s("orders"), "message_retention_seconds": i64(3600), aSpace: s("prod")}
	pr = h.plan(queueType, moved, st)
	mustNoError(t, "another space", pr.diags)
	if !strings.Contains(strings.Join(pr.replace, " "), `AttributeName("space")`) || pr.planned.str(aFormDefVersion) != "0.2.0" {
		t.Errorf("another space: replace=%v version=%q; want a replacement on space under 0.2.0", pr.replace, pr.planned.str(aFormDefVersion))
	}
}
