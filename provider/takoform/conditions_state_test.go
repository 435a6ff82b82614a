package takoform

import (
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// TestReadRecordsTheHostsConditionsAsAnswered: a refresh writes the host's conditions
// into state one for one (a message or host reason the host leaves out is null, not
// ""), ready is true only for a Ready condition of status True (another condition
// type that is True does not make the resource ready), and drift is the reason of a
// Ready condition of status False when that reason is a relation drift
// (ExternalChange or DependencyMissing), else null (docs/provider-design.md#relation-drift).
func TestReadRecordsTheHostsConditionsAsAnswered(t *testing.T) {
	t.Parallel()
	type cond struct{ typ, status, reason, message, hostReason string }
	for _, c := range []struct {
		name  string
		conds []cond
		ready bool
		drift string // "" for null
	}{
		{"ready, with a message", []cond{{"Ready", "True", "Available", "serving", ""}}, true, ""},
		{"a dependency missing, with a host reason",
			[]cond{{"Ready", "False", "DependencyMissing", "relation dead_letter_queue: its target is gone", "target-deleted"}}, false, "DependencyMissing"},
		{"an external change", []cond{{"Ready", "False", "ExternalChange", "", ""}}, false, "ExternalChange"},
		{"an external change not yet decided", []cond{{"Ready", "Unknown", "ExternalChange", "", ""}}, false, ""},
		{"not ready, another condition true",
			[]cond{{"Reconciling", "True", "Reconciling", "", "step 2 of 3"}, {"Ready", "False", "Provisioning", "", ""}}, false, ""},
		{"not ready, failed", []cond{{"Ready", "False", "Failed", "backend refused", ""}}, false, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			_, rd, d := readBent(t, func(doc map[string]any, _ http.Header) {
				var list []any
				for _, x := range c.conds {
					m := map[string]any{"type": x.typ, "status": x.status, "reason": x.reason,
						"lastTransitionTime": "2026-12-06T00:00:00Z"}
					if x.message != "" {
						m["message"] = x.message
					}
					if x.hostReason != "" {
						m["hostReason"] = x.hostReason
					}
					list = append(list, m)
				}
				doc["status"].(map[string]any)["conditions"] = list
			})
			mustNoError(t, "read", d)
			if rd == nil {
				t.Fatal("the refresh wrote no state")
			}
			gen := rd.str(aGeneration)
			var want, got []map[string]string
			for _, x := range c.conds {
				want = append(want, map[string]string{"type": x.typ, "status": x.status, "reason": x.reason,
					"message": x.message, "host_reason": x.hostReason, "observed_generation": gen,
					"last_transition_time": "2026-12-06T00:00:00Z"})
			}
			for _, e := range rd[aConditions].(types.List).Elements() {
				row := map[string]string{}
				for k, v := range e.(types.Object).Attributes() {
					sv := v.(types.String)
					if sv.IsNull() {
						row[k] = "" // null; a known "" would show as <known "">
					} else if sv.ValueString() == "" {
						row[k] = `<known "">`
					} else {
						row[k] = sv.ValueString()
					}
				}
				got = append(got, row)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("conditions in state (-want +got):\n%s", diff)
			}
			if !rd[aReady].Equal(types.BoolValue(c.ready)) {
				t.Errorf("ready = %v, want %v", rd[aReady], c.ready)
			}
			wantDrift := types.StringNull()
			if c.drift != "" {
				wantDrift = types.StringValue(c.drift)
			}
			if !rd[aDrift].Equal(wantDrift) {
				t.Errorf("drift = %v, want %v", rd[aDrift], wantDrift)
			}
		})
	}
}
