package takoform

import (
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/provider/internal/client"
)

func TestReportLayout(t *testing.T) {
	ref := wire.FormRef{APIVersion: "g.example/v1", Kind: "Queue", DefinitionVersion: "0.1.0", SchemaDigest: "sha256:ab"}
	r := &report{summary: "Failed to update Queue orders", what: "The host refused the update.", typeName: "takoform_queue",
		space: "dev", name: "orders", ref: &ref, pointer: "/spec"}
	r.fence("Expected UID", "u-1").fence("Expected generation", "2").fence("Expected revision", "")
	r.withErr(&client.HostError{Status: 503, Env: &wire.Error{Code: wire.CodeBackendUnavailable, Message: "backend down",
		RequestID: "req_1", Retryable: true, HostCode: "db"}})
	want := strings.Join([]string{
		"The host refused the update.",
		"",
		"Host: backend down",
		"",
		"Resource: takoform_queue (dev/orders)",
		"Form: g.example/v1 Queue@0.1.0 schema=sha256:ab",
		"Pointer: /spec",
		"Expected UID: u-1",
		"Expected generation: 2",
		"Request: req_1",
		"Host reason: db",
		"Code: backend_unavailable (host, HTTP 503)",
		"Retryable: yes",
		"",
		"This is transient and the provider already retried. Apply again later.",
	}, "\n")
	if got := r.detail(); got != want {
		t.Errorf("detail:\n%s\n--- want ---\n%s", got, want)
	}
	p := &report{summary: "x"}
	p.withErr(&client.ProtocolError{Status: 502, Reason: "not an envelope"})
	want = strings.Join([]string{
		"Cause: not an envelope",
		"",
		"Code: protocol-invalid host response (HTTP 502)",
		"Retryable: no",
		"",
		"The host's answer breaks the protocol, so the provider will not guess a remedy. Check the host (and any proxy in front of it).",
	}, "\n")
	if got := p.detail(); got != want {
		t.Errorf("protocol-invalid detail:\n%s\n--- want ---\n%s", got, want)
	}
}

func TestRepairRefinedByHostCode(t *testing.T) {
	if repairFor(wire.CodeResourceBusy, "form_transition_in_progress") == repairFor(wire.CodeResourceBusy, "") {
		t.Error("resource_busy with form_transition_in_progress needs its own repair")
	}
	for _, hc := range []string{"form_transition_from_mismatch", "form_transition_request_mismatch", "backend_rejected", ""} {
		if repairFor(wire.CodeFormIdentityConflict, hc) == "" {
			t.Errorf("no repair for form_identity_conflict/%s", hc)
		}
	}
}
