package takoform

import (
	"net/http"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/takokit/takokit/hostsim"
)

// TestReadOfARepresentationThatBreaksTheProtocolKeepsTheState: every representation
// is verified before anything of it is taken (docs/provider-design.md#lifecycle). A
// host whose read answer breaks one rule (the kind it names, the uid grammar, the
// canonical decimals, the spec object, the status and its condition vocabularies, the
// ETag) fails the refresh naming that rule and the member that breaks it (a header
// names none), and the state is kept as it was.
func TestReadOfARepresentationThatBreaksTheProtocolKeepsTheState(t *testing.T) {
	t.Parallel()
	meta := func(doc map[string]any) map[string]any { return doc["metadata"].(map[string]any) }
	status := func(doc map[string]any) map[string]any { return doc["status"].(map[string]any) }
	condition := func(doc map[string]any) map[string]any {
		return status(doc)["conditions"].([]any)[0].(map[string]any)
	}
	for _, c := range []struct {
		name           string
		bend           func(doc map[string]any, header http.Header)
		cause, pointer string
	}{
		{"apiVersion", func(doc map[string]any, _ http.Header) { doc["apiVersion"] = "edge.forms.takokit.dev/v2" },
			"the answer names edge.forms.takokit.dev/v2 AtLeastOnceQueue, not edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue", "/apiVersion"},
		{"kind", func(doc map[string]any, _ http.Header) { doc["kind"] = "QueueConsumer" },
			"the answer names edge.forms.takokit.dev/v1beta1 QueueConsumer, not edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue", "/kind"},
		{"uid grammar", func(doc map[string]any, _ http.Header) { meta(doc)["uid"] = "-u" },
			`metadata.uid "-u" does not match the uid grammar`, "/metadata/uid"},
		{"generation", func(doc map[string]any, _ http.Header) { meta(doc)["generation"] = "01" },
			`metadata.generation "01" is not a canonical positive decimal`, "/metadata/generation"},
		{"revision", func(doc map[string]any, _ http.Header) { meta(doc)["revision"] = "0" },
			`metadata.revision "0" is not a canonical positive decimal`, "/metadata/revision"},
		{"spec", func(doc map[string]any, _ http.Header) { doc["spec"] = []any{} },
			"spec is missing or not an object", "/spec"},
		{"observedGeneration", func(doc map[string]any, _ http.Header) { status(doc)["observedGeneration"] = "one" },
			`status.observedGeneration "one" is not a canonical positive decimal`, "/status/observedGeneration"},
		{"conditions", func(doc map[string]any, _ http.Header) { status(doc)["conditions"] = nil },
			"status.conditions is missing or null", "/status/conditions"},
		{"condition type", func(doc map[string]any, _ http.Header) { condition(doc)["type"] = "Exploded" },
			"status.conditions[0] (Exploded/True/Available) is outside the published vocabularies", "/status/conditions/0"},
		{"condition status", func(doc map[string]any, _ http.Header) { condition(doc)["status"] = "Maybe" },
			"status.conditions[0] (Ready/Maybe/Available) is outside the published vocabularies", "/status/conditions/0"},
		{"condition reason", func(doc map[string]any, _ http.Header) { condition(doc)["reason"] = "Whatever" },
			"status.conditions[0] (Ready/True/Whatever) is outside the published vocabularies", "/status/conditions/0"},
		{"ETag", func(_ map[string]any, header http.Header) { header.Set("ETag", `"2"`) },
			`ETag ["\"2\""] is not exactly the quoted revision "1"`, ""},
		{"two ETags", func(_ map[string]any, header http.Header) { header.Add("ETag", `"1"`) },
			`ETag ["\"1\"" "\"1\""] is not exactly the quoted revision "1"`, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			st, rd, d := readBent(t, c.bend)
			lines := []string{"The host could not be read; the state was left unchanged.",
				"",
				"Cause: " + c.cause,
				"",
				"Resource: takoform_at_least_once_queue (dev/orders)",
				"Form: edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue@0.2.0 schema=<sha256-1>"}
			if c.pointer != "" {
				lines = append(lines, "Pointer: "+c.pointer)
			}
			lines = append(lines, "Expected UID: <uid-1>",
				"Code: takoform.provider/host-response-invalid",
				"Retryable: no",
				"",
				"The host's answer breaks the protocol, so the provider will not guess a remedy. Check the host (and any proxy in front of it).")
			wantDiags(t, d, errorDiag("Host response for AtLeastOnceQueue orders is not usable", lines...))
			wantKept(t, st, rd)
		})
	}
}

// TestReadOfASpecThatDoesNotFitTheSchemaKeepsTheState: a read answer that passes
// verification but whose spec member has another JSON type than its field (here
// messageRetentionSeconds as a string) fails the refresh, naming the member as its
// Pointer, and the state is kept: nothing of the spec is taken as a zero value.
func TestReadOfASpecThatDoesNotFitTheSchemaKeepsTheState(t *testing.T) {
	t.Parallel()
	st, rd, d := readBent(t, func(doc map[string]any, _ http.Header) {
		doc["spec"].(map[string]any)["messageRetentionSeconds"] = "lots"
	})
	wantDiags(t, d, errorDiag("Host response for AtLeastOnceQueue orders is not usable",
		"The host's spec does not fit the resource's schema; the state was left unchanged.",
		"",
		"Cause: member messageRetentionSeconds has an unexpected JSON type string",
		"",
		"Resource: takoform_at_least_once_queue (dev/orders)",
		"Form: edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue@0.2.0 schema=<sha256-1>",
		"Pointer: /spec/messageRetentionSeconds",
		"Code: takoform.provider/host-response-invalid",
		"Retryable: no",
		"",
		"The host's answer breaks the protocol, so the provider will not guess a remedy. Check the host (and any proxy in front of it)."))
	wantKept(t, st, rd)
}

// readBent creates the queue orders, then refreshes it through a host in front of
// hostsim that bends the read's answer (its body and headers): the state created, the
// state the refresh returned and its diagnostics.
func readBent(t *testing.T, bend func(doc map[string]any, header http.Header)) (st, rd values, d []*tfprotov6.Diagnostic) {
	t.Helper()
	h := newHarness(t, hostsim.Config{})
	st = h.create(queueType, queueOrders)
	hostInFront(t, h, func(r *http.Request, fwd func() reply) (reply, bool) {
		if r.Method != http.MethodGet || !strings.HasSuffix(r.URL.Path, "/AtLeastOnceQueue/orders") {
			return reply{}, false
		}
		rep := fwd()
		rep.header = rep.header.Clone()
		rep.body = editJSON(t, rep.body, func(doc map[string]any) { bend(doc, rep.header) })
		return rep, true
	})
	rd, d = h.read(queueType, st)
	return st, rd, d
}
