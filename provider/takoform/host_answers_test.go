package takoform

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim"
)

// createStopped is the report of a create of queue orders that wrote no state: what
// happened, the cause, the code and the repair.
func createStopped(what, cause, code, repair string) diagnostic {
	return createStoppedUnder("<sha256-1>", what, cause, code, repair)
}

// createStoppedUnder is createStopped whose Form line names the schema digest as schema (the
// placeholders number digests in the order the diagnostic names them, the cause's first).
func createStoppedUnder(schema, what, cause, code, repair string) diagnostic {
	return errorDiag("Failed to create AtLeastOnceQueue orders", what, "", "Cause: "+cause, "",
		"Resource: takoform_at_least_once_queue (dev/orders)",
		"Form: edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue@0.2.0 schema="+schema,
		"Pointer: /spec",
		"Code: "+code,
		"Retryable: no",
		"",
		repair)
}

// createThrough plans the create of queue orders and applies it through the host front in
// front of hostsim. It returns the state and diagnostics of the apply, and the routes hostsim
// was sent during it.
func createThrough(t *testing.T, front otherHook) (values, []*tfprotov6.Diagnostic, []string) {
	t.Helper()
	h := newHarness(t, hostsim.Config{})
	cfg := values{aName: s("orders"), "message_retention_seconds": i64(3600)}
	pr := h.plan(queueType, cfg, nil)
	mustNoError(t, "plan", pr.diags)
	hostInFront(t, h, front)
	return applyRoutes(t, h, queueType, cfg, nil, pr.planned)
}

// createThroughBent is createThrough a host that bends, with bend, its answer to the requests
// of method whose path ends with suffix.
func createThroughBent(t *testing.T, method, suffix string, bend func(doc map[string]any)) (values, []*tfprotov6.Diagnostic, []string) {
	t.Helper()
	return createThrough(t, func(r *http.Request, fwd func() reply) (reply, bool) {
		if r.Method != method || !strings.HasSuffix(r.URL.Path, suffix) {
			return reply{}, false
		}
		rep := fwd()
		rep.body = editJSON(t, rep.body, bend)
		return rep, true
	})
}

// TestCreateStopsAtAFormsProbeAnswerThatDoesNotHold: before a write the provider asks the host
// about the exact FormRef (docs/provider-design.md#lifecycle). An answer that is not exactly
// one entry for that ref breaks the protocol; an entry that is not known, installed,
// executable, activated and available to the credential, or that does not offer create, is
// the host not offering the Form. Either way the create ends at the probe: nothing is
// prepared or written, and no state is.
// createBrokeTheProtocol is createStoppedUnder for an answer that breaks the protocol.
func createBrokeTheProtocol(schema, cause string) diagnostic {
	return createStoppedUnder(schema, "The host's answer to the create breaks the protocol; nothing was written to state.", cause,
		"protocol-invalid host response (HTTP 200)",
		"The host's answer breaks the protocol, so the provider will not guess a remedy. Check the host (and any proxy in front of it).")
}

func TestCreateStopsAtAFormsProbeAnswerThatDoesNotHold(t *testing.T) {
	t.Parallel()
	entry := func(doc map[string]any) map[string]any { return doc["forms"].([]any)[0].(map[string]any) }
	protocol := createBrokeTheProtocol("<sha256-1>", "forms probe must answer exactly one entry for edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue@0.2.0 (<sha256-1>)")
	unavailable := func(cause string) diagnostic {
		return createStopped("The host refused the create; nothing was written to state.", cause,
			"takoform.provider/host-does-not-support-form", "Use a host that offers this Form and operation, or remove the resource.")
	}
	inactive := unavailable("the host reports the Form as not known, installed, executable, activated or available to this credential")
	for _, c := range []struct {
		name string
		bend func(doc map[string]any)
		want diagnostic
	}{
		{"no entry", func(doc map[string]any) { doc["forms"] = []any{} }, protocol},
		{"two entries", func(doc map[string]any) { doc["forms"] = append(doc["forms"].([]any), entry(doc)) }, protocol},
		{"another ref", func(doc map[string]any) {
			entry(doc)["identity"].(map[string]any)["formRef"].(map[string]any)["definitionVersion"] = "0.1.0"
		}, protocol},
		{"not known", func(doc map[string]any) { entry(doc)["definitionKnown"] = false }, inactive},
		{"not installed", func(doc map[string]any) { entry(doc)["installed"] = false }, inactive},
		{"not executable", func(doc map[string]any) { entry(doc)["executable"] = false }, inactive},
		{"not activated", func(doc map[string]any) { entry(doc)["activated"] = false }, inactive},
		{"not available to the principal", func(doc map[string]any) { entry(doc)["availableToPrincipal"] = false }, inactive},
		{"no create operation", func(doc map[string]any) { entry(doc)["operations"] = []any{"read", "update", "delete"} },
			unavailable(`the host does not offer the "create" operation for it (offers [read update delete])`)},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			st, d, routes := createThroughBent(t, http.MethodGet, "/forms", c.bend)
			wantDiags(t, d, c.want)
			if st != nil {
				t.Errorf("a create stopped at the probe wrote state: %v", st)
			}
			if want := []string{"GET discovery", "GET forms"}; !slices.Equal(routes, want) {
				t.Errorf("the apply sent %q, want %q: the probe alone, no prepare or write", routes, want)
			}
		})
	}
}

// TestCreateStopsAtAPrepareAnswerThatDoesNotEchoTheRequest: the prepare answer must echo the
// identity sent (apiVersion, kind, exact FormRef, name, space) and the spec sent, with its
// digest in review.specDigest and a sha256 review.prepareDigest. A bent member stops the create
// before its write, and the cause names the member, what it echoes and what was sent.
func TestCreateStopsAtAPrepareAnswerThatDoesNotEchoTheRequest(t *testing.T) {
	t.Parallel()
	res := func(doc map[string]any) map[string]any { return doc["resource"].(map[string]any) }
	meta := func(doc map[string]any) map[string]any { return res(doc)["metadata"].(map[string]any) }
	review := func(doc map[string]any) map[string]any { return doc["review"].(map[string]any) }
	ref := func(version string) string {
		return "edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue@" + version + " (<sha256-1>)"
	}
	for _, c := range []struct {
		name   string
		bend   func(doc map[string]any)
		cause  string
		schema string // the placeholder of the Form line's schema digest
	}{
		{"apiVersion", func(doc map[string]any) { res(doc)["apiVersion"] = "edge.forms.takokit.dev/v1alpha3" },
			`resource.apiVersion echoes "edge.forms.takokit.dev/v1alpha3", not the "edge.forms.takokit.dev/v1beta1" sent`, "<sha256-1>"},
		{"kind", func(doc map[string]any) { res(doc)["kind"] = "KVNamespace" },
			`resource.kind echoes "KVNamespace", not the "AtLeastOnceQueue" sent`, "<sha256-1>"},
		{"Form", func(doc map[string]any) {
			res(doc)["form"].(map[string]any)["formRef"].(map[string]any)["definitionVersion"] = "0.1.0"
		}, `resource.form.formRef echoes "` + ref("0.1.0") + `", not the "` + ref("0.2.0") + `" sent`, "<sha256-1>"},
		{"name", func(doc map[string]any) { meta(doc)["name"] = "payments" },
			`resource.metadata.name echoes "payments", not the "orders" sent`, "<sha256-1>"},
		{"space", func(doc map[string]any) { meta(doc)["space"] = "prod" },
			`resource.metadata.space echoes "prod", not the "dev" sent`, "<sha256-1>"},
		{"spec", func(doc map[string]any) { res(doc)["spec"].(map[string]any)["messageRetentionSeconds"] = 60 },
			"spec digests disagree: sent <sha256-1>, echoed <sha256-2>, review.specDigest <sha256-1>", "<sha256-3>"},
		{"spec and its digest", func(doc map[string]any) {
			spec := res(doc)["spec"].(map[string]any)
			spec["messageRetentionSeconds"] = 60
			raw, err := json.Marshal(spec)
			digest, derr := wire.Digest(raw)
			if err != nil || derr != nil {
				t.Errorf("the bent spec has no digest: %v %v", err, derr) // a host's goroutine: no Fatal
			}
			review(doc)["specDigest"] = digest
		}, "spec digests disagree: sent <sha256-1>, echoed <sha256-2>, review.specDigest <sha256-2>", "<sha256-3>"},
		{"specDigest", func(doc map[string]any) { review(doc)["specDigest"] = "sha256:" + strings.Repeat("0", 64) },
			"spec digests disagree: sent <sha256-1>, echoed <sha256-1>, review.specDigest <sha256-2>", "<sha256-3>"},
		{"no spec", func(doc map[string]any) { delete(res(doc), "spec") },
			"resource.spec is missing", "<sha256-1>"},
		{"prepareDigest", func(doc map[string]any) { review(doc)["prepareDigest"] = "sha256:x" },
			"review.prepareDigest is not a sha256 digest", "<sha256-1>"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			st, d, routes := createThroughBent(t, http.MethodPost, "/resources/prepare", c.bend)
			wantDiags(t, d, createBrokeTheProtocol(c.schema, "prepare answer: "+c.cause))
			if st != nil {
				t.Errorf("a create stopped at its prepare wrote state: %v", st)
			}
			if want := []string{"GET discovery", "GET forms", "POST prepare"}; !slices.Equal(routes, want) {
				t.Errorf("the apply sent %q, want %q: no write after a prepare answer that does not hold", routes, want)
			}
		})
	}
}

// TestAnswersWithAStatusTheRouteNeverGivesKeepTheState: a read answered 201 (a read answers
// 200 only) and a delete answered 200 (a delete answers 204, or 202 with an operation) break
// the protocol. The provider uses neither: the refresh and the destroy fail, and the state is
// kept.
func TestAnswersWithAStatusTheRouteNeverGivesKeepTheState(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	st := h.create(queueType, values{aName: s("orders"), "message_retention_seconds": i64(3600)})
	hostInFront(t, h, func(r *http.Request, fwd func() reply) (reply, bool) {
		if !strings.HasSuffix(r.URL.Path, "/orders") {
			return reply{}, false
		}
		rep := fwd()
		switch r.Method {
		case http.MethodGet:
			rep.status = http.StatusCreated
		case http.MethodDelete:
			rep.status, rep.body = http.StatusOK, []byte(`{"deleted":true}`)
		}
		return rep, true
	})
	broke := func(summary, what, cause string, status int, fences ...string) diagnostic {
		lines := append([]string{what, "", "Cause: " + cause, "",
			"Resource: takoform_at_least_once_queue (dev/orders)",
			"Form: edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue@0.2.0 schema=<sha256-1>",
			"Pointer: /metadata"}, fences...)
		return errorDiag(summary, append(lines, fmt.Sprintf("Code: protocol-invalid host response (HTTP %d)", status), "Retryable: no", "",
			"The host's answer breaks the protocol, so the provider will not guess a remedy. Check the host (and any proxy in front of it).")...)
	}
	rd, d := h.read(queueType, st)
	wantDiags(t, named(d, "<uid>", st.str(aUID)), broke("Failed to read AtLeastOnceQueue orders", "The host could not be read; the state was left unchanged.",
		"answered 201; this request is answered only with 200", 201, "Expected UID: <uid>"))
	wantKept(t, st, rd)
	kept, d := h.apply(queueType, nil, st, nil)
	wantDiags(t, named(d, "<uid>", st.str(aUID)), broke("Failed to delete AtLeastOnceQueue orders", "The host's answer to the delete breaks the protocol; the resource stays in state.",
		"answered 200; this request is answered only with 204 or 202", 200, "Expected UID: <uid>", "Expected generation: 1"))
	wantKept(t, st, kept)
}

// TestCreateAcceptedUnderAnOperationThatBreaksTheProtocolWritesNothing: a 202 answer to the
// create whose operation is not an Operation of the lane is not followed: nothing is polled
// and nothing is written to state.
func TestCreateAcceptedUnderAnOperationThatBreaksTheProtocolWritesNothing(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	// a create that polled the operation anyway ends in seconds, not in the default 20 minutes
	cfg := values{aName: s("orders"), "message_retention_seconds": i64(3600), aCreateTimeout: s("2s")}
	pr := h.plan(queueType, cfg, nil)
	mustNoError(t, "plan", pr.diags)
	if err := h.sim.Admin.ArmFault("apply.accept-unfinished,kind=AtLeastOnceQueue,count=1"); err != nil {
		t.Fatal(err)
	}
	hostInFront(t, h, func(r *http.Request, fwd func() reply) (reply, bool) {
		if r.Method != http.MethodPut {
			return reply{}, false
		}
		rep := fwd()
		rep.body = editJSON(t, rep.body, func(doc map[string]any) { doc["operation"].(map[string]any)["kind"] = "Job" })
		return rep, true
	})
	st, d, routes := applyRoutes(t, h, queueType, cfg, nil, pr.planned)
	d202 := createStoppedUnder("<sha256-1>", "The host's answer to the create breaks the protocol; nothing was written to state.",
		"operation is operations.takoform.com/v1alpha1 Job, not operations.takoform.com/v1alpha1 Operation",
		"protocol-invalid host response (HTTP 202)",
		"The host's answer breaks the protocol, so the provider will not guess a remedy. Check the host (and any proxy in front of it).")
	wantDiags(t, d, d202)
	if st != nil {
		t.Errorf("a create accepted under a broken operation wrote state: %v", st)
	}
	if want := []string{"GET discovery", "GET forms", "POST prepare", "PUT apply"}; !slices.Equal(routes, want) {
		t.Errorf("the apply sent %q, want %q: no poll of an operation that breaks the protocol", routes, want)
	}
}

// TestCreateStopsAtAFormsProbeThatFails: a probe answered with a server error, or with a body
// that is no forms document, ends the create there: nothing is prepared or written.
func TestCreateStopsAtAFormsProbeThatFails(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name   string
		answer func(t *testing.T) reply
		want   diagnostic
	}{
		{"server error", serverError, serverErrorDiag("Failed to create AtLeastOnceQueue orders", "The host refused the create; nothing was written to state.",
			"Resource: takoform_at_least_once_queue (dev/orders)",
			"Form: edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue@0.2.0 schema=<sha256-1>",
			"Pointer: /spec")},
		{"not a forms document", func(t *testing.T) reply {
			return reply{status: http.StatusOK, header: http.Header{"Content-Type": {"application/json"}}, body: []byte(`{"entries":[]}`)}
		}, createBrokeTheProtocol("<sha256-1>", `forms probe answer: /entries: unknown member "entries"; this object is closed, so remove it or check its spelling`)},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			st, d, routes := createThrough(t, func(r *http.Request, fwd func() reply) (reply, bool) {
				if r.Method != http.MethodGet || !strings.HasSuffix(r.URL.Path, "/forms") {
					return reply{}, false
				}
				return c.answer(t), true
			})
			wantDiags(t, d, c.want)
			if st != nil {
				t.Errorf("a create stopped at the probe wrote state: %v", st)
			}
			// the host in front answered the probe, so hostsim saw nothing after the discovery
			if want := []string{"GET discovery"}; !slices.Equal(routes, want) {
				t.Errorf("hostsim was sent %q, want %q: no prepare or write after the probe", routes, want)
			}
		})
	}
}

// TestPollingWithoutRetryAfterBacksOff: a host whose operation reads carry no Retry-After
// leaves the pace to the provider, which backs off (full jitter from 250 ms, doubling). Over a
// 1.5 s create_timeout that is a handful of reads; a provider that polled again at once would
// send hundreds. The bound (20) is far from both.
func TestPollingWithoutRetryAfterBacksOff(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	if err := h.sim.Admin.ArmFault("apply.accept-unfinished,kind=AtLeastOnceQueue,count=1"); err != nil {
		t.Fatal(err)
	}
	var reads atomic.Int32
	hostInFront(t, h, func(r *http.Request, fwd func() reply) (reply, bool) {
		if !strings.Contains(r.URL.Path, "/operations/") {
			return reply{}, false
		}
		reads.Add(1)
		rep := fwd()
		rep.header.Del("Retry-After")
		return rep, true
	})
	cfg := values{aName: s("orders"), "message_retention_seconds": i64(3600), aCreateTimeout: s("1500ms")}
	pr := h.plan(queueType, cfg, nil)
	mustNoError(t, "plan", pr.diags)
	st, _ := h.apply(queueType, cfg, nil, pr.planned)
	if st == nil || st.str(aPendingOp) == "" {
		t.Fatalf("want the create accepted unfinished, with its operation: %v", st)
	}
	if n := reads.Load(); n == 0 || n > 20 {
		t.Errorf("the provider read the operation %d times in 1.5 s; want between 1 and 20", n)
	}
}
