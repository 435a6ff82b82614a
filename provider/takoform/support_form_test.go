package takoform

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/takokit/takokit/hostsim"
)

// TestSupportFormRefusalWhenNoVersionIsOffered: a host that installs no version of
// the kind refuses the plan and says so, with the host's own refusal (message,
// request id) under it.
func TestSupportFormRefusalWhenNoVersionIsOffered(t *testing.T) {
	h := newHarness(t, hostsim.Config{Profile: capProfile(t, `{"name":"no-queues","extends":"full",
		"forms":{"exclude":["AtLeastOnceQueue@0.1.0","AtLeastOnceQueue@0.2.0"]}}`)})
	pr := planQueue(h, 3600)
	d := diagWith(pr.diags, "Host does not offer AtLeastOnceQueue 0.2.0", "refused this exact FormRef (form_unknown)",
		"The host offers no version of AtLeastOnceQueue.", codeHostNoForm, "Pointer: /form/formRef", "\nHost: ", "\nRequest: req_",
		"Resource: takoform_at_least_once_queue (dev/orders)")
	if d == nil || d.Severity != tfprotov6.DiagnosticSeverityError {
		t.Fatalf("want the Form refusal saying no version is offered:\n%s", dump(pr.diags))
	}
	if diagWith(pr.diags, "form_definition_version selects one") != nil {
		t.Errorf("no version to select, yet the refusal suggests one:\n%s", dump(pr.diags))
	}
}

// TestPlanBeforeTheProviderIsConfiguredAsksNothing: a resource planned by a provider
// whose block has not been configured (no host known) plans without a support check
// or an error, and leaves its space to the next round.
func TestPlanBeforeTheProviderIsConfiguredAsksNothing(t *testing.T) {
	h := newHarness(t, hostsim.Config{})
	srv, err := providerserver.NewProtocol6WithError(testProvider(t))()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := srv.GetProviderSchema(h.ctx, &tfprotov6.GetProviderSchemaRequest{}); err != nil {
		t.Fatal(err)
	}
	h.srv = srv // never configured
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
