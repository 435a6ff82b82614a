package takoform

import (
	"testing"

	"github.com/takokit/takokit/hostsim"
)

// planQueue plans a create of the queue "orders" with the given retention.
func planQueue(h *harness, retention int64) planResult {
	return h.plan(queueType, values{aName: s("orders"), "message_retention_seconds": i64(retention)}, nil)
}

// mustRefuseRetention asserts the plan-time range refusal of message_retention_seconds.
func mustRefuseRetention(t *testing.T, pr planResult, value, accepted, use string) {
	t.Helper()
	wantDiags(t, pr.diags, errorDiag("Host does not accept message_retention_seconds = "+value,
		"The value is valid for the Form; this host accepts "+accepted+". This is a fact about this host, not about the configuration: the same configuration applies unchanged on a host that implements it.",
		"",
		"Resource: takoform_at_least_once_queue (dev/orders)",
		"Form: edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue@0.2.0 schema=<sha256-1>",
		"Pointer: /spec/messageRetentionSeconds",
		"Code: takoform.provider/host-does-not-support-value",
		"Retryable: no",
		"",
		"Use "+use+", or another host.").at("message_retention_seconds"))
	if pr.planned != nil {
		t.Errorf("a refused plan must not be returned: %v", pr.planned)
	}
}

// TestSupportRangeBoundsAreInclusive: a host accepting messageRetentionSeconds from
// 120 to 86400 (the Form allows 60 to 1209600) plans both ends cleanly and refuses one
// past either end at plan.
func TestSupportRangeBoundsAreInclusive(t *testing.T) {
	h := newHarness(t, hostsim.Config{Profile: capProfile(t, `{"name":"narrow","extends":"full",
		"supportedRanges":{"AtLeastOnceQueue":{"messageRetentionSeconds":{"minimum":120,"maximum":86400}}}}`)})
	for _, ok := range []int64{120, 86400} {
		mustNoError(t, "at the bound", planQueue(h, ok).diags)
	}
	mustRefuseRetention(t, planQueue(h, 119), "119", "120 to 86400", "a value from 120 to 86400")
	mustRefuseRetention(t, planQueue(h, 86401), "86401", "120 to 86400", "a value from 120 to 86400")
}

// TestSupportRangeWithOneBound: a range that states only a minimum (or only a
// maximum) refuses only on that side and says so.
func TestSupportRangeWithOneBound(t *testing.T) {
	h := newHarness(t, hostsim.Config{Profile: capProfile(t, `{"name":"min-only","extends":"full",
		"supportedRanges":{"AtLeastOnceQueue":{"messageRetentionSeconds":{"minimum":600}}}}`)})
	mustRefuseRetention(t, planQueue(h, 599), "599", "600 or more", "600 or more")
	mustNoError(t, "the largest retention the Form allows", planQueue(h, 1209600).diags)

	h = newHarness(t, hostsim.Config{Profile: capProfile(t, `{"name":"max-only","extends":"full",
		"supportedRanges":{"AtLeastOnceQueue":{"messageRetentionSeconds":{"maximum":600}}}}`)})
	mustRefuseRetention(t, planQueue(h, 601), "601", "600 or less", "600 or less")
	mustNoError(t, "the smallest retention the Form allows", planQueue(h, 60).diags)
}

// TestSupportRangeStringBoundsDecideNothingForAnInteger: a range bound written as a
// string is not an integer bound, so it refuses no integer value.
func TestSupportRangeStringBoundsDecideNothingForAnInteger(t *testing.T) {
	h := newHarness(t, hostsim.Config{Profile: capProfile(t, `{"name":"string-bounds","extends":"full",
		"supportedRanges":{"AtLeastOnceQueue":{"messageRetentionSeconds":{"minimum":"600","maximum":"900"}}}}`)})
	pr := planQueue(h, 3600)
	mustNoError(t, "string bounds", pr.diags)
	if len(pr.diags) != 0 {
		t.Errorf("string bounds must neither refuse nor warn:\n%s", dump(pr.diags))
	}
}
