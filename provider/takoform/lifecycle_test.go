package takoform

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/takokit/takokit/hostsim"
)

const queueType = "takoform_at_least_once_queue"

func TestQueueCreateReadUpdateDelete(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	cfg := values{aName: s("orders"), "message_retention_seconds": i64(3600)}
	st := h.create(queueType, cfg)
	if st.str(aUID) == "" || st.str(aGeneration) != "1" || st.str(aFormDefVersion) != "0.2.0" {
		t.Fatalf("state after create: uid=%q gen=%q version=%q", st.str(aUID), st.str(aGeneration), st.str(aFormDefVersion))
	}
	if got := st["max_message_bytes"]; !got.Equal(types.Int64Value(127000)) {
		t.Errorf("max_message_bytes = %v, want the default 127000 (edge.queue 0.2.0 in v1beta1)", got)
	}
	if st.str(aOutputsJSON) != "{}" || st.str(aSpace) != "dev" {
		t.Errorf("outputs_json=%q space=%q", st.str(aOutputsJSON), st.str(aSpace))
	}
	// refresh + re-plan without changes: planned equals state
	rd, d := h.read(queueType, st)
	mustNoError(t, "read", d)
	pr := h.plan(queueType, cfg, rd)
	mustNoError(t, "replan", pr.diags)
	for k, v := range rd {
		if !pr.planned[k].Equal(v) {
			t.Errorf("no-change plan moves %s: %v -> %v", k, v, pr.planned[k])
		}
	}
	// in-place update
	cfg2 := values{aName: s("orders"), "message_retention_seconds": i64(7200)}
	pr = h.plan(queueType, cfg2, rd)
	mustNoError(t, "plan update", pr.diags)
	if len(pr.replace) != 0 {
		t.Fatalf("update plans replacement of %v", pr.replace)
	}
	up, d := h.apply(queueType, cfg2, rd, pr.planned)
	mustNoError(t, "apply update", d)
	if up.str(aGeneration) != "2" || up.str(aUID) != st.str(aUID) {
		t.Errorf("after update gen=%q uid=%q (was %q)", up.str(aGeneration), up.str(aUID), st.str(aUID))
	}
	// delete
	gone, d := h.apply(queueType, nil, up, nil)
	mustNoError(t, "delete", d)
	if gone != nil {
		t.Errorf("state after delete = %v", gone)
	}
	after, d := h.read(queueType, up)
	mustNoError(t, "read after delete", d)
	if after != nil {
		t.Errorf("read after delete keeps the resource")
	}
}
