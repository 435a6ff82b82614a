package takoform

import (
	"net/http"
	"strings"
	"testing"
)

// TestRefreshOfAnOperationWhoseResultIsNotTheResourceKeepsTheState: a refresh that finds
// the recorded operation done takes its result only when the result verifies as every
// representation does: this resource's name and space, under the recorded ref, with a
// uid of the grammar. A host whose finished operation names anything else fails the
// refresh, naming the member, and the state keeps its marker.
func TestRefreshOfAnOperationWhoseResultIsNotTheResourceKeepsTheState(t *testing.T) {
	t.Parallel()
	resource := func(doc map[string]any) map[string]any {
		return doc["result"].(map[string]any)["resource"].(map[string]any)
	}
	meta := func(doc map[string]any) map[string]any { return resource(doc)["metadata"].(map[string]any) }
	for _, c := range []struct {
		name           string
		bend           func(doc map[string]any)
		cause, pointer string
	}{
		{"name", func(doc map[string]any) { meta(doc)["name"] = "other-edge" },
			`the answer names resource "other-edge", not "api-edge"`, "/metadata/name"},
		{"space", func(doc map[string]any) { meta(doc)["space"] = "prod" },
			`the answer is in space "prod", not "dev"`, "/metadata/space"},
		{"uid", func(doc map[string]any) { meta(doc)["uid"] = "" },
			`metadata.uid "" does not match the uid grammar`, "/metadata/uid"},
		{"Form", func(doc map[string]any) {
			resource(doc)["form"].(map[string]any)["formRef"].(map[string]any)["definitionVersion"] = "0.1.0"
		}, "the answer is under Form edge.forms.takokit.dev/v1beta1 WorkerEndpoint@0.1.0 (<sha256-1>), not the requested edge.forms.takokit.dev/v1beta1 WorkerEndpoint@0.2.0 (<sha256-1>)", "/form/formRef"},
		{"no resource", func(doc map[string]any) { doc["result"] = map[string]any{} },
			"operation <pending> result has no resource", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			h, st := unfinishedEndpoint(t)
			if _, err := h.sim.Admin.Complete(st.str(aPendingOp)); err != nil {
				t.Fatal(err)
			}
			hostInFront(t, h, func(r *http.Request, fwd func() reply) (reply, bool) {
				if r.Method != http.MethodGet || !strings.Contains(r.URL.Path, "/operations/") {
					return reply{}, false
				}
				rep := fwd()
				rep.body = editJSON(t, rep.body, c.bend)
				return rep, true
			})
			rd, d := h.read(endpointType, st)
			lines := []string{"The state was kept.",
				"",
				"Cause: " + c.cause,
				"",
				"Resource: takoform_worker_endpoint (dev/api-edge)",
				"Form: edge.forms.takokit.dev/v1beta1 WorkerEndpoint@0.2.0 schema=<sha256-1>"}
			if c.pointer != "" {
				lines = append(lines, "Pointer: "+c.pointer)
			}
			lines = append(lines, "Operation: <pending>",
				"Code: takoform.provider/operation-resume-failed",
				"Retryable: no",
				"",
				"The host's answer breaks the protocol, so the provider will not guess a remedy. Check the host (and any proxy in front of it).")
			wantDiags(t, named(d, "<pending>", st.str(aPendingOp)), errorDiag("Operation <pending> ended without a usable result", lines...))
			wantKept(t, st, rd)
		})
	}
}
