package takoform

import (
	"testing"

	"github.com/takokit/takokit/hostsim"
)

// TestImportWithoutAnySpaceAsksNothing: an import ID that names no space, into a provider
// with no default space, cannot address a resource: it is refused and nothing is sent.
func TestImportWithoutAnySpaceAsksNothing(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	mustNoError(t, "configure", h.configure(map[string]string{"endpoint": h.sim.URL, "token": "sim-primary"}))
	before := len(requestRoutes(t, h))
	_, d := h.importID(queueType, "orders")
	wantDiags(t, d, errorDiag("No space for the import of AtLeastOnceQueue orders",
		"The import ID names no space and the provider has no default space.",
		"",
		"Resource: takoform_at_least_once_queue (orders)",
		"Code: takoform.provider/space-missing",
		"Retryable: no",
		"",
		"Import with SPACE/NAME, or set space in the provider block or TAKOFORM_SPACE."))
	if sent := requestRoutes(t, h)[before:]; len(sent) != 0 {
		t.Errorf("an import with no space sent %q", sent)
	}
}

// TestImportNamingAFormOfAnotherKindIsRefused: a JSON import ID naming the exact ref of a Form
// the catalog carries, but of another kind than the resource type's, is refused before any
// request, listing the refs the type carries.
func TestImportNamingAFormOfAnotherKindIsRefused(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	kv := h.kind(capKVType).model.newest.Ref
	_, d := h.importID(queueType, `{"space":"dev","name":"orders","apiVersion":"`+kv.APIVersion+`","kind":"`+kv.Kind+`","definitionVersion":"`+kv.DefinitionVersion+`","schemaDigest":"`+kv.SchemaDigest+`"}`)
	wantDiags(t, d, errorDiag("Import names a Form identity that takoform_at_least_once_queue does not carry",
		"No request was sent. This type carries: AtLeastOnceQueue@0.2.0 schema=<sha256-1>; AtLeastOnceQueue@0.1.0 schema=<sha256-2>.",
		"",
		"Resource: takoform_at_least_once_queue (dev/orders)",
		"Form: edge.forms.takokit.dev/v1beta1 EdgeKVNamespace@0.1.0 schema=<sha256-3>",
		"Pointer: /metadata/name",
		"Code: takoform.provider/import-id-invalid",
		"Retryable: no",
		"",
		"Name one of the carried refs, or leave the Form members out so the provider probes them."))
}

// TestImportNamingAVersionTheTypeDoesNotCarryIsRefused: a JSON import ID with the
// type's own kind and group but a definition version the provider does not carry is
// refused like another kind's, before any request.
func TestImportNamingAVersionTheTypeDoesNotCarryIsRefused(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	q := h.kind(queueType).model.newest.Ref
	_, d := h.importID(queueType, `{"space":"dev","name":"orders","apiVersion":"`+q.APIVersion+`","kind":"`+q.Kind+`","definitionVersion":"0.9.0","schemaDigest":"`+q.SchemaDigest+`"}`)
	wantDiags(t, d, errorDiag("Import names a Form identity that takoform_at_least_once_queue does not carry",
		"No request was sent. This type carries: AtLeastOnceQueue@0.2.0 schema=<sha256-1>; AtLeastOnceQueue@0.1.0 schema=<sha256-2>.",
		"",
		"Resource: takoform_at_least_once_queue (dev/orders)",
		"Form: edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue@0.9.0 schema=<sha256-1>",
		"Pointer: /metadata/name",
		"Code: takoform.provider/import-id-invalid",
		"Retryable: no",
		"",
		"Name one of the carried refs, or leave the Form members out so the provider probes them."))
	if got := requestRoutes(t, h); len(got) != 0 {
		t.Errorf("the refused import sent %q", got)
	}
}

// TestImportIDSpaceWinsOverTheProviderDefault: SPACE/NAME (and a JSON ID's space)
// imports from that space even when the provider block names another default.
func TestImportIDSpaceWinsOverTheProviderDefault(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	mustNoError(t, "configure space other", h.configure(map[string]string{"endpoint": h.sim.URL, "token": "sim-primary", "space": "other"}))
	st := h.create(queueType, values{aName: s("orders"), "message_retention_seconds": i64(3600)})
	mustNoError(t, "configure space dev", h.configure(map[string]string{"endpoint": h.sim.URL, "token": "sim-primary", "space": "dev"}))
	for _, id := range []string{"other/orders", `{"space":"other","name":"orders"}`} {
		imp, d := h.importID(queueType, id)
		mustNoError(t, "import "+id, d)
		if imp == nil || imp.str(aSpace) != "other" {
			t.Fatalf("import %s: space %q, want other", id, imp.str(aSpace))
		}
		rd, d := h.read(queueType, imp)
		mustNoError(t, "read after import "+id, d)
		if rd == nil || rd.str(aUID) != st.str(aUID) {
			t.Errorf("import %s adopted %v, want the queue %s of space other", id, rd, st.str(aUID))
		}
	}
}

// TestImportOnAHostWithoutTheNewestVersionFindsTheOlder: the import probes newest first; a
// host that does not install 0.2.0 answers that read form_unknown, and the probe goes on to
// 0.1.0, where the queue lives.
func TestImportOnAHostWithoutTheNewestVersionFindsTheOlder(t *testing.T) {
	t.Parallel()
	h := newHarness(t, queuesOldOnly(t))
	st := createOldQueue(h)
	imp := importOldQueue(t, h)
	rd, d := h.read(queueType, imp)
	mustNoError(t, "read after import", d)
	if rd == nil || rd.str(aUID) != st.str(aUID) {
		t.Fatalf("the import did not adopt the queue %s: %v", st.str(aUID), rd)
	}
}

// queuesOldOnly is a host that installs AtLeastOnceQueue 0.1.0 and not 0.2.0.
func queuesOldOnly(t *testing.T) hostsim.Config {
	return hostsim.Config{Profile: capProfile(t, `{"name":"queues-0.1-only","extends":"full","forms":{"exclude":["AtLeastOnceQueue@0.2.0"]}}`)}
}

// createOldQueue creates queue orders under 0.1.0, the older ref.
func createOldQueue(h *harness) values {
	return h.create(queueType, values{aName: s("orders"), "message_retention_seconds": i64(3600), aFormDefVersion: s("0.1.0")})
}

// importOldQueue imports orders by name and requires the probe to record 0.1.0, the ref it
// lives under.
func importOldQueue(t *testing.T, h *harness) values {
	t.Helper()
	imp, d := h.importID(queueType, "orders")
	mustNoError(t, "import", d)
	if imp.str(aFormDefVersion) != "0.1.0" {
		t.Fatalf("import recorded %q, want the 0.1.0 ref the resource lives under", imp.str(aFormDefVersion))
	}
	return imp
}
