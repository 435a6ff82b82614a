package takoform

import (
	"testing"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim"
)

// A provider planning against a host of another lane gets one error naming both lanes
// (docs/protocol.md#lanes), not a warning about an unreadable support surface: the
// host answered, and it can serve nothing this provider sends.
func TestPlanAgainstAHostOfAnotherLaneIsOneErrorNamingBoth(t *testing.T) {
	h := newHarness(t, hostsim.Config{Lane: wire.V1alpha3})
	res := h.plan("takoform_edge_kv_namespace", values{"name": s("cache")}, nil)
	// one error, not the 404 the mismatch showed through nor an unreadable support surface
	wantDiags(t, res.diags, errorDiag("Cannot plan Form EdgeKVNamespace 0.1.0: the host speaks another lane",
		"The host at http://127.0.0.1:<port-1> speaks forms.takoform.com/v1alpha3 (withdrawn upstream); this provider speaks forms.takoform.com/v1beta1 (current). Nothing this provider sends can reach it.",
		"",
		"Cause: GET /.well-known/takoform/v1beta1 found no discovery document: the host speaks forms.takoform.com/v1alpha3 (withdrawn upstream), but this provider speaks forms.takoform.com/v1beta1 (current)",
		"",
		"Resource: takoform_edge_kv_namespace (dev/cache)",
		"Form: edge.forms.takokit.dev/v1beta1 EdgeKVNamespace@0.1.0 schema=<sha256-1>",
		"Code: takoform.provider/lane-mismatch",
		"Retryable: no",
		"",
		"Point endpoint at a host of this provider's lane, or use the provider of the host's lane (bin/<lane>/terraform-provider-takoform, or go tool mage provider:family DIR over a catalog of that lane; docs/protocol.md#lanes)."))
}
