package hostsim_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/takokit/takokit/hostsim"
)

// adminAnswer is one answer of the admin API: its status and its JSON body.
type adminAnswer struct {
	status int
	body   string
	doc    map[string]any
}

// adminCall sends one admin request from loopback straight to h's handler.
func adminCall(t *testing.T, h *hostsim.Host, method, path, body string) adminAnswer {
	t.Helper()
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	req.RemoteAddr = "127.0.0.1:4000"
	rec := httptest.NewRecorder()
	h.Handler().ServeHTTP(rec, req)
	a := adminAnswer{status: rec.Code, body: rec.Body.String()}
	if err := json.Unmarshal(rec.Body.Bytes(), &a.doc); err != nil {
		t.Fatalf("%s %s: not a JSON object: %d %s", method, path, rec.Code, rec.Body)
	}
	return a
}

// refused fails t unless the answer is a 400 invalid_argument whose message holds want.
func (a adminAnswer) refused(t *testing.T, what, want string) {
	t.Helper()
	e, _ := a.doc["error"].(map[string]any)
	if a.status != http.StatusBadRequest || e == nil || e["code"] != "invalid_argument" || !strings.Contains(e["message"].(string), want) {
		t.Errorf("%s: %d %s; want 400 invalid_argument saying %q", what, a.status, a.body, want)
	}
}

// TestAdminAnswersEmptyListsAndRefusesBadQueries: with no admin token configured the
// admin API needs none; on an empty host every list it answers is [] (never null);
// the journal's since must be a non-negative number and bounds what it answers; a
// completion's body is {} (or blank) or names one of the error codes; an asset
// lookup takes exactly one path; a fault that does not parse arms nothing and says
// so; arming answers 201 and disarming leaves no runtime fault.
func TestAdminAnswersEmptyListsAndRefusesBadQueries(t *testing.T) {
	t.Parallel()
	h, err := hostsim.New(hostsim.Config{Catalog: testCatalog(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()

	st := adminCall(t, h, "GET", "/_sim/state", "")
	if st.status != 200 || !strings.Contains(st.body, `"resources":[]`) || !strings.Contains(st.body, `"operations":[]`) {
		t.Errorf("state of an empty host (no admin token): %d %s", st.status, st.body)
	}
	if r := adminCall(t, h, "GET", "/_sim/refusals", ""); r.status != 200 || !strings.Contains(r.body, `"refuses":[]`) {
		t.Errorf("refusals of the full profile: %d %s", r.status, r.body)
	}
	if d := adminCall(t, h, "GET", "/_sim/databases", ""); d.status != 200 || !strings.Contains(d.body, `"databases":[]`) {
		t.Errorf("databases of an empty host: %d %s", d.status, d.body)
	}
	if d := adminCall(t, h, "GET", "/_sim/databases/u-nothing", ""); d.status != 404 || !strings.Contains(d.body, `no SQLiteDatabase resource has uid \"u-nothing\"`) {
		t.Errorf("database of an unknown uid: %d %s", d.status, d.body)
	}

	// the journal: three requests make three events at least
	for range 3 {
		adminCall(t, h, "GET", "/.well-known/takoform/v1beta1", "")
	}
	all := adminCall(t, h, "GET", "/_sim/events", "")
	evs, _ := all.doc["events"].([]any)
	if all.status != 200 || len(evs) < 3 {
		t.Fatalf("events: %d %s", all.status, all.body)
	}
	last := evs[len(evs)-1].(map[string]any)["seq"].(float64)
	if all.doc["next"] != last {
		t.Errorf("next = %v, want the last event's seq %v", all.doc["next"], last)
	}
	first := evs[0].(map[string]any)["seq"].(float64)
	after := adminCall(t, h, "GET", "/_sim/events?since="+strconv.FormatFloat(first, 'f', -1, 64), "")
	if got, _ := after.doc["events"].([]any); len(got) != len(evs)-1 {
		t.Errorf("events since the first: %d of %d", len(got), len(evs))
	}
	none := adminCall(t, h, "GET", "/_sim/events?since="+strconv.FormatFloat(last, 'f', -1, 64), "")
	if none.status != 200 || !strings.Contains(none.body, `"events":[]`) || none.doc["next"] != last {
		t.Errorf("events since the last: %d %s; want [] and next %v", none.status, none.body, last)
	}
	adminCall(t, h, "GET", "/_sim/events?since=-1", "").refused(t, "since=-1", "since=-1 is not a non-negative event number")
	adminCall(t, h, "GET", "/_sim/events?since=abc", "").refused(t, "since=abc", "since=abc is not a non-negative event number")

	// completions: the body is checked before the operation is looked for
	adminCall(t, h, "POST", "/_sim/operations/op_nothing/complete", `{"error":"nope"}`).
		refused(t, "an unknown error code", "error nope is not one of the 26 error codes")
	adminCall(t, h, "POST", "/_sim/operations/op_nothing/complete", `{"code":"x"}`).
		refused(t, "an unknown member", `the body is {} or {"error": "<code>"}`)
	if a := adminCall(t, h, "POST", "/_sim/operations/op_nothing/complete", " \n "); a.status != 404 ||
		!strings.Contains(a.body, `"operation op_nothing is unknown; GET /_sim/state lists the host's operations"`) {
		t.Errorf("a blank body is {}: the unknown operation is then not found, saying where the operations are; got %d %s", a.status, a.body)
	}

	// asset lookups take exactly one query key, path, once
	adminCall(t, h, "GET", "/_sim/assets/u-1?path=%2Fa&x=1", "").refused(t, "another key", `GET /_sim/assets/{id} takes only the query parameter path; remove "x"`)
	adminCall(t, h, "GET", "/_sim/assets/u-1?path=%2Fa&path=%2Fb", "").refused(t, "path twice", "takes exactly one query key, path")
	adminCall(t, h, "GET", "/_sim/assets/u-1", "").refused(t, "no path", "takes exactly one query key, path")

	// faults
	adminCall(t, h, "POST", "/_sim/faults", `{"fault":"no.such-fault"}`).refused(t, "an unknown fault", "nothing armed: ")
	if a := adminCall(t, h, "POST", "/_sim/faults", `{"fault":"latency","value":"1ms"}`); a.status != 201 || !strings.Contains(a.body, `"latency"`) {
		t.Errorf("arming: %d %s; want 201 listing it", a.status, a.body)
	}
	if a := adminCall(t, h, "DELETE", "/_sim/faults", ""); a.status != 200 || strings.Contains(a.body, `"latency"`) {
		t.Errorf("disarming: %d %s; want 200 without it", a.status, a.body)
	}
	if a := adminCall(t, h, "GET", "/_sim/faults", ""); strings.Contains(a.body, `"latency"`) {
		t.Errorf("after disarming the faults list %s", a.body)
	}
}
