package takoform

import (
	"net/http"
	"strings"
	"testing"

	"github.com/takokit/takokit/hostsim"
)

// wrongGeneration rewrites a committed transition answer so its proof claims
// generation 3 (the request moves 1 to 2): a receipt that does not verify.
func wrongGeneration(t *testing.T, rep reply) reply {
	if rep.status != http.StatusOK {
		return rep
	}
	rep.body = editJSON(t, rep.body, func(doc map[string]any) {
		doc["transitionProof"].(map[string]any)["generation"] = "3"
	})
	return rep
}

// TestTransitionReceiptThatDoesNotVerifyIsNeverAdopted: a committed answer whose proof
// does not match the request leaves the apply indeterminate, and a refresh whose
// readback carries such a receipt keeps the state and says why; once the host's
// readback verifies, refresh adopts the commit under 0.2.0.
func TestTransitionReceiptThatDoesNotVerifyIsNeverAdopted(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	st, cfg := oldQueue(t, h)
	corrupt := true
	transitionHost(t, h, func(method string, n int, fwd func() reply) reply {
		if corrupt {
			return wrongGeneration(t, fwd())
		}
		return fwd()
	})
	up, d := applyTransition(t, h, cfg, st)
	mustBeIndeterminate(t, up, d, transitionIndeterminate("Cause: the commit receipt does not verify: the proof's generation is 3, not 2 (the one after 1)", "", false))

	rd, d := h.read(queueType, up)
	wantDiags(t, named(d, "<pending>", up.str(aPendingOp)), errorDiag("Could not check the Form transition of AtLeastOnceQueue orders",
		"The commit receipt does not verify; the state was kept.",
		"",
		"Cause: the proof's generation is 3, not 2 (the one after 1)",
		"",
		"Resource: takoform_at_least_once_queue (dev/orders)",
		"Form: edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue@0.1.0 schema=<sha256-1>",
		"Operation: <pending>",
		"Code: takoform.provider/host-response-invalid",
		"Retryable: no",
		"",
		"The host's proof does not match the transition that was sent, so the provider adopts nothing. Report it to the host operator; once the host's readback verifies, the next refresh or apply adopts the commit."))
	if rd != nil && (rd.str(aFormDefVersion) != "0.1.0" || rd.str(aPendingOp) != up.str(aPendingOp)) {
		t.Fatalf("a receipt that does not verify moved the state: version=%q pending=%q", rd.str(aFormDefVersion), rd.str(aPendingOp))
	}

	corrupt = false
	mustKeepTransition(t, h, true)
	rd, d = h.read(queueType, up)
	mustNoError(t, "refresh with a receipt that verifies", d)
	mustKeepTransition(t, h, false)
	if rd.str(aFormDefVersion) != "0.2.0" || rd.str(aGeneration) != "2" || rd.str(aUID) != st.str(aUID) || rd.str(aPendingOp) != "" {
		t.Fatalf("refresh after the commit: version=%q gen=%q uid=%q pending=%q", rd.str(aFormDefVersion), rd.str(aGeneration), rd.str(aUID), rd.str(aPendingOp))
	}
	pr := h.plan(queueType, cfg, rd)
	mustNoError(t, "plan after adoption", pr.diags)
	if len(pr.replace) != 0 || pr.planned.str(aFormDefVersion) != "0.2.0" || pr.planned.str(aUID) != st.str(aUID) {
		t.Errorf("plan after adoption: replace=%v version=%q uid=%q; want 0.2.0 in place", pr.replace, pr.planned.str(aFormDefVersion), pr.planned.str(aUID))
	}
}

// accepted turns a committed transition answer into the 202 a host gives while the
// transition is still running: the operation prepared, no resource, no proof.
func accepted(t *testing.T, rep reply) reply {
	if rep.status != http.StatusOK {
		return rep
	}
	rep.status = http.StatusAccepted
	rep.body = editJSON(t, rep.body, func(doc map[string]any) {
		delete(doc, "resource")
		delete(doc, "transitionProof")
		doc["operation"].(map[string]any)["status"] = "prepared"
	})
	rep.header.Del("ETag")
	return rep
}

// TestTransitionAcceptedButNotFinishedIsIndeterminate: a host that answers the POST
// 202 (still running) leaves the apply indeterminate; so does one whose POST answer is
// lost and whose readback says the operation is still running. No second POST either
// way, and the next refresh adopts the commit.
func TestTransitionAcceptedButNotFinishedIsIndeterminate(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name  string
		hook  func(t *testing.T, method string, fwd func() reply) reply
		cause string
	}{
		{"202 to the POST", func(t *testing.T, method string, fwd func() reply) reply {
			if method == "POST" {
				return accepted(t, fwd())
			}
			return fwd()
		}, "Cause: the host answered the transition prepared"},
		{"answer lost, readback running", func(t *testing.T, method string, fwd func() reply) reply {
			if method == "POST" {
				fwd()
				return dropped
			}
			return accepted(t, fwd())
		}, postLost},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, hostsim.Config{})
			st, cfg := oldQueue(t, h)
			running := true
			seen := transitionHost(t, h, func(method string, n int, fwd func() reply) reply {
				if running {
					return c.hook(t, method, fwd)
				}
				return fwd()
			})
			up, d := applyTransition(t, h, cfg, st)
			mustBeIndeterminate(t, up, d, transitionIndeterminate(c.cause, "", false))
			if seen("POST") != 1 {
				t.Errorf("%d POSTs, want exactly one", seen("POST"))
			}
			running = false
			rd, d := h.read(queueType, up)
			mustNoError(t, "refresh once the host finished", d)
			if rd.str(aFormDefVersion) != "0.2.0" || rd.str(aPendingOp) != "" {
				t.Errorf("refresh after the commit: version=%q pending=%q", rd.str(aFormDefVersion), rd.str(aPendingOp))
			}
		})
	}
}

// TestTransitionReceiptBentAnywhereIsNeverAdopted: every member of a committed answer
// that binds it to the request sent is checked, each on its own. A host whose
// answers (the POST's and every readback's) differ from what was sent in just that
// member leaves the apply indeterminate, keeps 0.1.0, and the cause names the member
// with what the answer says (<bent>) and what the request sent (<sent>, the value the
// host answered before the test bent it).
func TestTransitionReceiptBentAnywhereIsNeverAdopted(t *testing.T) {
	t.Parallel()
	digest := func(c byte) string { return "sha256:" + strings.Repeat(string(c), 64) }
	uid, other := "u-"+strings.Repeat("0", 20), "formtx_"+strings.Repeat("a", 64)
	proof := func(doc map[string]any) map[string]any { return doc["transitionProof"].(map[string]any) }
	op := func(doc map[string]any) map[string]any { return doc["operation"].(map[string]any) }
	meta := func(doc map[string]any) map[string]any {
		return doc["resource"].(map[string]any)["metadata"].(map[string]any)
	}
	formRef := func(m map[string]any) map[string]any { return m["formRef"].(map[string]any) }
	// set sets m[key] to bent and returns what it held
	set := func(m map[string]any, key string, bent any) string {
		was, _ := m[key].(string)
		m[key] = bent
		return was
	}
	const queue = "edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue"
	for _, c := range []struct {
		name string
		// bend bends one member; it returns the bent value and the one sent when the
		// cause names them as <bent> and <sent> ("" when it names them otherwise: the
		// operation id and uid sent are <formtx-1> and <uid-1>, as every line names them)
		bend  func(doc map[string]any, header http.Header) (bent, sent string)
		cause string
	}{
		{"operation id of the answer", func(doc map[string]any, _ http.Header) (string, string) {
			set(op(doc), "operationId", other)
			return other, ""
		}, "the answer's operation is <bent>, not <formtx-1>"},
		{"operation id of the proof", func(doc map[string]any, _ http.Header) (string, string) {
			set(proof(doc), "operationId", other)
			return other, ""
		}, "the proof is for operation <bent>, not <formtx-1>"},
		{"request digest", func(doc map[string]any, _ http.Header) (string, string) {
			return digest('b'), set(op(doc), "requestDigest", digest('b'))
		}, "the receipt binds request <bent>, not <sent>"},
		{"fromForm", func(doc map[string]any, _ http.Header) (string, string) {
			set(proof(doc)["fromForm"].(map[string]any), "packageDigest", digest('c'))
			return digest('c'), ""
		}, "the proof's fromForm is " + queue + "@0.1.0 (<sha256-1>) package <bent>, not " + queue + "@0.1.0 (<sha256-1>) package <package-0.1.0>"},
		{"toForm", func(doc map[string]any, _ http.Header) (string, string) {
			set(formRef(proof(doc)["toForm"].(map[string]any)), "definitionVersion", "0.3.0")
			return "", ""
		}, "the proof's toForm is " + queue + "@0.3.0 (<schema-0.2.0>) package <package-0.2.0>, not " + queue + "@0.2.0 (<schema-0.2.0>) package <package-0.2.0>"},
		{"transition evidence digest", func(doc map[string]any, _ http.Header) (string, string) {
			return digest('d'), set(proof(doc), "transitionEvidenceDigest", digest('d'))
		}, "the proof's transition evidence digest is <bent>, not the request's <sent>"},
		{"observed spec", func(doc map[string]any, _ http.Header) (string, string) {
			return digest('e'), set(proof(doc), "observedSpecDigest", digest('e'))
		}, "the backend observed spec <bent>, not the requested <sent>"},
		{"not committed", func(doc map[string]any, _ http.Header) (string, string) {
			proof(doc)["committed"] = false
			return "", ""
		}, "the proof is not committed"},
		{"uid of the proof", func(doc map[string]any, _ http.Header) (string, string) {
			set(proof(doc), "uid", uid)
			return uid, ""
		}, "the proof names uid <bent>, not the expected <uid-1>"},
		{"uid of the resource", func(doc map[string]any, _ http.Header) (string, string) {
			set(meta(doc), "uid", uid)
			return uid, ""
		}, "the resource has uid <bent>, not the expected <uid-1>"},
		{"generation of the resource", func(doc map[string]any, _ http.Header) (string, string) {
			set(meta(doc), "generation", "3")
			return "", ""
		}, "the resource's generation is 3, not 2 (the one after 1)"},
		{"name of the resource", func(doc map[string]any, _ http.Header) (string, string) {
			set(meta(doc), "name", "invoices")
			return "", ""
		}, `the answer names resource "invoices", not "orders"`},
		{"space of the resource", func(doc map[string]any, _ http.Header) (string, string) {
			set(meta(doc), "space", "prod")
			return "", ""
		}, `the answer is in space "prod", not "dev"`},
		{"Form of the resource", func(doc map[string]any, _ http.Header) (string, string) {
			set(formRef(doc["resource"].(map[string]any)["form"].(map[string]any)), "definitionVersion", "0.1.0")
			return "", ""
		}, "the answer is under Form " + queue + "@0.1.0 (<schema-0.2.0>), not the requested " + queue + "@0.2.0 (<schema-0.2.0>)"},
		{"ETag", func(_ map[string]any, header http.Header) (string, string) {
			header.Set("ETag", `"7"`)
			return "", ""
		}, `ETag ["\"7\""] is not exactly the quoted revision "3"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, hostsim.Config{})
			st, cfg := oldQueue(t, h)
			var bent, sent string
			transitionHost(t, h, func(method string, n int, fwd func() reply) reply {
				rep := fwd()
				if rep.status != http.StatusOK {
					return rep
				}
				rep.header = rep.header.Clone()
				rep.body = editJSON(t, rep.body, func(doc map[string]any) { bent, sent = c.bend(doc, rep.header) })
				return rep
			})
			up, d := applyTransition(t, h, cfg, st)
			to := h.kind(queueType).model.newest
			names := []string{"<schema-0.2.0>", to.Ref.SchemaDigest, "<package-0.2.0>", to.PackageDigest, "<package-0.1.0>", st.str(aFormPackageDigest)}
			for _, nv := range [][2]string{{"<bent>", bent}, {"<sent>", sent}} {
				if nv[1] != "" {
					names = append(names, nv[0], nv[1])
				}
			}
			mustBeIndeterminate(t, up, named(d, names...), transitionIndeterminate("Cause: the commit receipt does not verify: "+c.cause, "", false))
		})
	}
}
