package takoform

import (
	"bytes"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/takokit/takokit/hostsim"
)

// hostInFront puts a host in front of hostsim that answers the requests other takes
// (see otherHook) and forwards the rest, and configures the provider against it.
func hostInFront(t *testing.T, h *harness, other otherHook) {
	t.Helper()
	transitionHostWith(t, h, nil, other)
}

// queueCreateUnfinished is the warning of the create of queue orders that the host
// accepted under an operation naming its uid (<target uid>) and that ended, unfinished,
// for cause.
func queueCreateUnfinished(cause string) diagnostic {
	return warningDiag("AtLeastOnceQueue orders was accepted by the host but has not finished",
		"The host accepted the create but its outcome was not known before the create finished ("+cause+"). The state records the operation in pending_operation_id with every output null; the next plan or apply picks it up and finishes the resource in place.",
		"",
		"Resource: takoform_at_least_once_queue (dev/orders)",
		"Form: edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue@0.2.0 schema=<sha256-1>",
		"Current UID: <target uid>",
		"Operation: <op-1>",
		"Code: accepted-without-representation (host)",
		"Retryable: no",
		"",
		"Run tofu apply again (or tofu refresh) once the host has finished; the resource is not re-created.")
}

// TestCreateWhosePutAndResendLoseTheirAnswersIsUnfinished: the answers to a create's
// PUT and to its one resend both break off. The create cannot know the outcome and no
// answer named an operation: it is recorded accepted-unfinished by name (a warning,
// no uid, no operation), and the next refresh reads what the host holds: the resource
// when the host committed the PUT, nothing when the PUT never reached it.
func TestCreateWhosePutAndResendLoseTheirAnswersIsUnfinished(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name      string
		committed bool
	}{{"committed", true}, {"never reached the host", false}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, hostsim.Config{})
			var lost atomic.Int32
			var lose atomic.Bool
			lose.Store(true)
			hostInFront(t, h, func(r *http.Request, fwd func() reply) (reply, bool) {
				if !lose.Load() || r.Method != http.MethodPut || !strings.HasSuffix(r.URL.Path, "/orders") {
					return reply{}, false
				}
				lost.Add(1)
				if tc.committed {
					fwd()
				}
				return dropped, true
			})
			cfg := values{aName: s("orders"), "message_retention_seconds": i64(3600)}
			pr := h.plan(queueType, cfg, nil)
			mustNoError(t, "plan", pr.diags)
			st, d := h.apply(queueType, cfg, nil, pr.planned)
			wantDiags(t, d, warningDiag("AtLeastOnceQueue orders may or may not have been created: the host's answers were lost",
				"The create was sent, and resent once, but no complete answer came back (put: PUT http://127.0.0.1:<port-1>/apis/forms.takoform.com/v1beta1/resources/edge.forms.takokit.dev/v1beta1/AtLeastOnceQueue/orders: no complete answer from the host: unexpected EOF), so whether the host created the resource is not known. No answer named an operation, so the state records the resource by its name with every output null; the next refresh reads it from the host and finishes it in place (or drops it, if the host has no such resource).",
				"",
				"Resource: takoform_at_least_once_queue (dev/orders)",
				"Form: edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue@0.2.0 schema=<sha256-1>",
				"Code: answer-lost (transport)",
				"Retryable: no",
				"",
				"Run tofu apply again (or tofu refresh) once the host answers; the refresh decides from what the host holds, and the resource is never created twice."))
			if lost.Load() != 2 {
				t.Errorf("the host lost %d answers, want 2 (the PUT and its one resend)", lost.Load())
			}
			if st == nil || st.known(aUID) || st.known(aPendingOp) || st.known(aGeneration) || st.str(aName) != "orders" {
				t.Fatalf("the unfinished state: %v; want the resource by name, without uid, operation or generation", st)
			}
			lose.Store(false)
			rd, d := h.read(queueType, st)
			mustNoError(t, "refresh", d)
			if !tc.committed {
				if rd != nil {
					t.Errorf("the refresh kept a resource the host never made: %v", rd)
				}
				return
			}
			if rd == nil || !strings.HasPrefix(rd.str(aUID), "u-") || rd.str(aGeneration) != "1" || !rd.known(aReady) {
				t.Fatalf("the refresh did not finish the resource the host made: %v", rd)
			}
		})
	}
}

// TestCreateAcceptedUnfinishedNamesTheUIDTheHostGave: a host may name the incarnation
// of a create it accepted but has not finished (the operation's target.uid). The
// create that ends unfinished records that uid and names it in its warning, also when only
// the 202 named it and the operation reads that followed did not.
func TestCreateAcceptedUnfinishedNamesTheUIDTheHostGave(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name      string
		pollNames bool
	}{
		{"every answer names it", true},
		{"only the 202 names it: the polls keep it", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, hostsim.Config{})
			if err := h.sim.Admin.ArmFault("apply.accept-unfinished,kind=AtLeastOnceQueue,count=1"); err != nil {
				t.Fatal(err)
			}
			const uid = "u-0123456789abcdef0123"
			var operations atomic.Int32
			hostInFront(t, h, func(r *http.Request, fwd func() reply) (reply, bool) {
				if !(r.Method == http.MethodPut && strings.HasSuffix(r.URL.Path, "/orders")) && !strings.Contains(r.URL.Path, "/operations/") {
					return reply{}, false
				}
				rep := fwd()
				if rep.status/100 == 2 && strings.Contains(string(rep.body), `"kind":"Operation"`) {
					operations.Add(1)
					rep.body = editJSON(t, rep.body, func(doc map[string]any) {
						op, _ := doc["operation"].(map[string]any) // a 202 answer's envelope
						if op == nil && !c.pollNames {
							delete(doc, "target") // an operation read that names nothing
							return
						}
						if op == nil {
							op = doc // an operation read
						}
						op["target"] = map[string]any{"uid": uid}
					})
				}
				return rep, true
			})
			cfg := values{aName: s("orders"), "message_retention_seconds": i64(3600), aCreateTimeout: s("300ms")}
			pr := h.plan(queueType, cfg, nil)
			mustNoError(t, "plan", pr.diags)
			st, d := h.apply(queueType, cfg, nil, pr.planned)
			if operations.Load() == 0 {
				t.Fatal("no answer of the host was an Operation: the fault did not fire")
			}
			wantDiags(t, named(d, "<target uid>", uid), queueCreateUnfinished("create_timeout ran out while polling"))
			if st == nil || st.str(aUID) != uid || !strings.HasPrefix(st.str(aPendingOp), "op_") {
				t.Fatalf("the unfinished state: %v; want uid %s and the operation", st, uid)
			}
			// The host then finishes the create under a uid of its own. A destroy of that state
			// (no generation yet) reads the resource to learn one, finds another incarnation
			// than the one the host named, and deletes nothing.
			if _, err := h.sim.Admin.Complete(st.str(aPendingOp)); err != nil {
				t.Fatal(err)
			}
			sent := len(requestRoutes(t, h))
			kept, d := h.apply(queueType, nil, st, nil)
			wantDiags(t, named(d, "<target uid>", uid), queueUIDMismatch(sameNameOtherUID, "0.2.0", "<target uid>", "<uid-1>", "1", "1"))
			wantKept(t, st, kept)
			if got, want := requestRoutes(t, h)[sent:], []string{"GET read"}; !slices.Equal(got, want) {
				t.Errorf("the refused delete sent %q, want %q", got, want)
			}
		})
	}
}

// TestCreateWhoseNameIsTakenAfterPrepareSuggestsImport: another client creates the
// same name between the create's prepare and its PUT (a host in front of hostsim
// sends that other create first). The PUT is refused generation_conflict; the provider
// looks the name up, finds the other resource and suggests importing it.
// putFirstFromAnotherClient is a hook for hostInFront: the provider's first PUT of orders is
// sent first, byte for byte, by another client (another Idempotency-Key), whose answer must
// have status want; then the provider's own PUT goes on to hostsim.
func putFirstFromAnotherClient(t *testing.T, h *harness, want int) otherHook {
	var raced atomic.Int32
	return func(r *http.Request, fwd func() reply) (reply, bool) {
		if r.Method != http.MethodPut || !strings.HasSuffix(r.URL.Path, "/orders") || raced.Add(1) != 1 {
			return reply{}, false
		}
		other := r.Clone(r.Context())
		other.Header.Set("Idempotency-Key", "another-client-0001")
		body, _ := io.ReadAll(r.Body)
		other.Body, other.RequestURI = io.NopCloser(bytes.NewReader(body)), ""
		other.URL.Scheme, other.URL.Host = "http", strings.TrimPrefix(h.sim.URL, "http://")
		resp, err := http.DefaultClient.Do(other)
		if err != nil {
			t.Error(err)
			return reply{}, false
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("the other client's PUT answered %d, want %d", resp.StatusCode, want)
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		return fwd(), true
	}
}

func TestCreateWhoseNameIsTakenAfterPrepareSuggestsImport(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	hostInFront(t, h, putFirstFromAnotherClient(t, h, http.StatusCreated))
	cfg := values{aName: s("orders"), "message_retention_seconds": i64(3600)}
	pr := h.plan(queueType, cfg, nil)
	mustNoError(t, "plan", pr.diags)
	st, d := h.apply(queueType, cfg, nil, pr.planned)
	wantDiags(t, d, errorDiag("Failed to create AtLeastOnceQueue orders",
		`The name "orders" is already taken on the host in space "dev" (uid <uid-1>, under AtLeastOnceQueue@0.2.0); nothing was written to state.`,
		"",
		`Host: AtLeastOnceQueue "orders" in space "dev" already exists (uid <uid-1>, AtLeastOnceQueue 0.2.0, generation 1); import or update it instead of creating`,
		"",
		"Resource: takoform_at_least_once_queue (dev/orders)",
		"Form: edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue@0.2.0 schema=<sha256-1>",
		"Pointer: /spec",
		"Request: <req-1>",
		"Code: generation_conflict (host, HTTP 412)",
		"Retryable: no",
		"",
		"Adopt it with: tofu import <address> dev/orders — or choose another name."))
	if st != nil {
		t.Errorf("a refused create wrote state")
	}
}
