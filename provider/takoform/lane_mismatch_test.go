package takoform

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim"
)

// A provider planning against a host of another lane gets one error naming both lanes
// (docs/protocol.md#lanes), not a warning about an unreadable support surface: the
// host answered, and it can serve nothing this provider sends.
func TestPlanAgainstAHostOfAnotherLaneIsOneErrorNamingBoth(t *testing.T) {
	h := newHarness(t, hostsim.Config{Lane: wire.V1alpha3})
	res := h.plan("takoform_edge_kv_namespace", values{"name": s("cache")}, nil)
	var errs []*tfprotov6.Diagnostic
	for _, d := range res.diags {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			errs = append(errs, d)
		}
	}
	if len(errs) != 1 {
		t.Fatalf("want exactly one error, got %s", dump(res.diags))
	}
	d := errs[0]
	for _, part := range []string{"the host speaks another lane"} {
		if !strings.Contains(d.Summary, part) {
			t.Errorf("summary %q lacks %q", d.Summary, part)
		}
	}
	for _, part := range []string{"speaks forms.takoform.com/v1alpha3 (withdrawn upstream); this provider speaks forms.takoform.com/v1beta1 (current)",
		"Code: takoform.provider/lane-mismatch", "the provider of the host's lane"} {
		if !strings.Contains(d.Detail, part) {
			t.Errorf("detail lacks %q:\n%s", part, d.Detail)
		}
	}
	if strings.Contains(d.Detail, "resource_not_found") || strings.Contains(d.Detail, "host-support-unreadable") {
		t.Errorf("the 404 the mismatch showed through is not the error:\n%s", d.Detail)
	}
}
