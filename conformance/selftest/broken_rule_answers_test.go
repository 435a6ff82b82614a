package selftest

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/takokit/takokit/conformance"
)

// TestChecksFailOnAnswersThatBreakTheirRule: failures no negative and no
// recorded lie reached. Each case runs one check through a proxy in front of
// hostsim that edits the answers the rule is about, and the check must fail
// naming the rule; the proxy must have made the edit, or the case measured
// nothing.
func TestChecksFailOnAnswersThatBreakTheirRule(t *testing.T) {
	t.Parallel() // its own hostsim processes
	bin := hostsimBinary(t)
	for _, c := range []struct {
		name, check, profile, want string
		edit                       func(req *http.Request, doc map[string]any) bool
	}{
		{"an oidc_issuer over http", "discovery-exact", "full", "must start with https://",
			func(_ *http.Request, doc map[string]any) bool {
				ep, ok := doc["endpoints"].(map[string]any)
				if ok {
					ep["oidc_issuer"] = "http://issuer.example"
				}
				return ok
			}},
		{"an availability whose packageDigest is no digest", "forms-exact-availability", "full", "is not a digest",
			func(_ *http.Request, doc map[string]any) bool {
				forms, _ := doc["forms"].([]any)
				n := 0
				for _, f := range forms {
					if id, ok := f.(map[string]any)["identity"].(map[string]any); ok {
						id["packageDigest"] = "sha256:not-a-digest"
						n++
					}
				}
				return n > 0
			}},
		{"a validate answer without diagnostics", "validate-accepts-canonical", "full", "diagnostics must be present",
			func(req *http.Request, doc map[string]any) bool {
				_, ok := doc["diagnostics"]
				if ok && strings.HasSuffix(req.URL.Path, "/validate") {
					doc["diagnostics"] = nil
					return true
				}
				return false
			}},
		{"a prepareDigest that is no digest", "prepare-binds-exact-spec", "full", "carries no valid review.prepareDigest",
			func(_ *http.Request, doc map[string]any) bool {
				rev, ok := doc["review"].(map[string]any)
				if ok {
					rev["prepareDigest"] = "not-a-digest"
				}
				return ok
			}},
		{"a 202 whose Operation is already done", "async-operation-flow", "async", "is already done",
			func(req *http.Request, doc map[string]any) bool {
				op, _ := doc["operation"].(map[string]any) // the 202's {"operation": …}
				if req.Method != http.MethodPut || op == nil || op["done"] != false {
					return false
				}
				op["done"], op["result"] = true, map[string]any{} // done, with a result: a well-formed Operation
				return true
			}},
		{"a committed transition left Reconciling", "form-transition-commits-with-exact-proof", "full", "left a Reconciling condition",
			func(req *http.Request, doc map[string]any) bool {
				form, _ := doc["form"].(map[string]any)
				ref, _ := form["formRef"].(map[string]any)
				status, _ := doc["status"].(map[string]any)
				conds, _ := status["conditions"].([]any)
				if req.Method != http.MethodGet || ref["kind"] != "AtLeastOnceQueue" || ref["definitionVersion"] != "0.2.0" || len(conds) == 0 {
					return false
				}
				rec := map[string]any{}
				for k, v := range conds[0].(map[string]any) {
					rec[k] = v
				}
				rec["type"] = "Reconciling"
				status["conditions"] = append(conds, rec)
				return true
			}},
		{"an operation that settles with an error", "operation-resumable-after-settlement", "async", "the first operation ended with internal_error",
			failSettledOperations},
		{"an operation that settles with an error after strangers", "operation-bound-to-its-creating-principal", "async", "ended with internal_error after strangers were refused",
			failSettledOperations},
		{"another tenant's claim answered the first claim's uid", "custom-domain-hostname-claim-stops-at-the-tenant", "full", "answered one uid",
			func() func(*http.Request, map[string]any) bool {
				var mu sync.Mutex
				var firstAuth, firstUID string
				return func(req *http.Request, doc map[string]any) bool {
					md, _ := doc["metadata"].(map[string]any)
					if req.Method != http.MethodPut || doc["kind"] != "WorkerCustomDomain" || md == nil {
						return false
					}
					mu.Lock()
					defer mu.Unlock()
					if firstUID == "" {
						firstAuth, firstUID = req.Header.Get("Authorization"), md["uid"].(string)
						return false
					}
					if req.Header.Get("Authorization") == firstAuth {
						return false
					}
					md["uid"] = firstUID
					return true
				}
			}()},
		{"a refusal inside one tenant naming the other's holder", "custom-domain-hostname-claim-stops-at-the-tenant", "full", "names the other tenant's holder",
			func() func(*http.Request, map[string]any) bool {
				var mu sync.Mutex
				var firstName string
				return func(req *http.Request, doc map[string]any) bool {
					mu.Lock()
					defer mu.Unlock()
					if md, _ := doc["metadata"].(map[string]any); req.Method == http.MethodPut && doc["kind"] == "WorkerCustomDomain" && md != nil && firstName == "" {
						firstName = md["name"].(string)
						return false
					}
					e, _ := doc["error"].(map[string]any)
					if e == nil || firstName == "" || e["code"] != "invalid_argument" {
						return false
					}
					e["message"] = fmt.Sprintf("%v (held by %q)", e["message"], firstName)
					return true
				}
			}()},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			checks := narrowedTo(t, c.check)
			ctx, sim, cat := startSim(t, bin, c.profile)
			var edited atomic.Int32
			proxy := rewriteJSON(t, sim.URL, func(req *http.Request, doc map[string]any) bool {
				if !c.edit(req, doc) {
					return false
				}
				edited.Add(1)
				return true
			})
			r := runChecks(t, ctx, proxy, cat, checks)[c.check]
			if edited.Load() == 0 {
				t.Fatalf("the proxy edited no answer: %s", r.Line())
			}
			if r.Status != conformance.StatusFail || !strings.Contains(r.Message, c.want) {
				t.Errorf("%s: %s, want a failure naming %q", c.name, r.Line(), c.want)
			}
		})
	}
}

// failSettledOperations makes every Operation a poll finds done end with an error
// instead of its result.
func failSettledOperations(req *http.Request, doc map[string]any) bool {
	if req.Method != http.MethodGet || !strings.Contains(req.URL.Path, "/operations/") || doc["done"] != true || doc["result"] == nil {
		return false
	}
	delete(doc, "result")
	doc["error"] = map[string]any{"code": "internal_error", "message": "the self-test's proxy failed this operation", "retryable": false}
	return true
}
