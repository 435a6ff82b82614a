package selftest

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/takokit/takokit/conformance"
)

// TestChecksFailOnAnswersThatBreakTheirRule: failures no negative and no
// recorded lie reached. Each case runs one check through a proxy in front of
// hostsim that edits the answers the rule is about, and the check must fail
// naming the rule (err naming it, when the edited answer is one of the check's
// setup steps); the proxy must have made the edit, or the case measured
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
		{"an endpoints.api on another origin", "discovery-exact", "full", `endpoints.api "http://elsewhere.invalid`,
			func(_ *http.Request, doc map[string]any) bool {
				ep, ok := doc["endpoints"].(map[string]any)
				if ok {
					ep["api"] = "http://elsewhere.invalid/apis/forms.takoform.com/v1beta1"
				}
				return ok
			}},
		{"a PUT answer echoing the caller's packageDigest", "package-digest-not-identity", "full", "echoes the caller's",
			func(req *http.Request, doc map[string]any) bool {
				form, _ := doc["form"].(map[string]any)
				d, ok := form["packageDigest"].(string)
				if req.Method != http.MethodPut || !ok || d == "" {
					return false
				}
				form["packageDigest"] = flipped(d) // the foreign digest the check sends: the installed one, its last hex digit changed
				return true
			}},
		{"the other tenant's delete settling with an error", "each-tenant-mutates-its-own-plane", "async", "the other tenant's delete ended with internal_error",
			func(req *http.Request, doc map[string]any) bool {
				result, _ := doc["result"].(map[string]any)
				_, deleted := result["deleted"] // a delete's result; its create settles as ever
				return deleted && req.Header.Get("Authorization") == "Bearer "+TokenOtherTenant && failSettledOperations(req, doc)
			}},
		{"a delete's operation whose result is not deleted", "delete-generation-fence", "async", `result must be {"deleted": true}`,
			func(req *http.Request, doc map[string]any) bool {
				result, _ := doc["result"].(map[string]any)
				if req.Method != http.MethodGet || doc["done"] != true || result["deleted"] != true {
					return false
				}
				result["deleted"] = false
				return true
			}},
		{"a listed support profile with a member of its own", "support-profiles-present", "full", "not the closed support profile shape",
			func(_ *http.Request, doc map[string]any) bool {
				profiles, _ := doc["profiles"].([]any)
				for _, pr := range profiles {
					pr.(map[string]any)["takokitExtra"] = true
				}
				return len(profiles) > 0
			}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			brokenAnswer(t, bin, c.check, c.profile, conformance.StatusFail, c.want, c.edit)
		})
	}
	// a broken answer to one of a check's setup steps: the check errs, naming it
	t.Run("a create's operation whose result is not a resource", func(t *testing.T) {
		t.Parallel()
		brokenAnswer(t, bin, "apply-create-uid-minted", "async", conformance.StatusError, "result is not a resource",
			func(req *http.Request, doc map[string]any) bool {
				result, _ := doc["result"].(map[string]any)
				res, _ := result["resource"].(map[string]any)
				if req.Method != http.MethodGet || doc["done"] != true || res == nil {
					return false
				}
				res["takokitNotAResource"] = true // a member no resource has
				return true
			})
	})
}

// brokenAnswer runs check against hostsim profile through a proxy making edit,
// and fails unless the proxy edited an answer and the check ended want, its
// message naming what.
func brokenAnswer(t *testing.T, bin, check, profile string, want conformance.Status, what string, edit func(*http.Request, map[string]any) bool) {
	t.Helper()
	checks := narrowedTo(t, check)
	ctx, sim, cat := startSim(t, bin, profile)
	proxy, edited := countedRewrite(t, sim.URL, edit)
	r := runChecks(t, ctx, proxy, cat, checks)[check]
	if edited.Load() == 0 {
		t.Fatalf("the proxy edited no answer: %s", r.Line())
	}
	if r.Status != want || !strings.Contains(r.Message, what) {
		t.Errorf("%s: %s, want %s naming %q", check, r.Line(), want, what)
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

// flipped is d with its last hex digit changed, as the runner makes a foreign
// packageDigest of the installed one.
func flipped(d string) string {
	if strings.HasSuffix(d, "0") {
		return d[:len(d)-1] + "1"
	}
	return d[:len(d)-1] + "0"
}
