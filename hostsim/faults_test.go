package hostsim_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim"
	"github.com/takokit/takokit/hostsim/hostsimtest"
)

func TestErrorAndLatencyFaults(t *testing.T) {
	cat := testCatalog(t)
	f := updatable(t, cat)
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat})
	c := newClient(t, sim.URL, "sim-primary")
	c.create(f, "orders", "prod", fixture(t, f)).status(201)
	if err := sim.Admin.ArmFault("error=resource_busy,kind=" + f.Ref.Kind + ",resource=orders,count=2"); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		r := c.read(f, "orders", "prod").refused("resource_busy", 409)
		if !contains(r.body, `"retryable":true`) {
			t.Fatalf("resource_busy must be retryable: %s", r.body)
		}
	}
	c.read(f, "orders", "prod").status(200)
	if err := sim.Admin.ArmFault("latency=20ms,resource=orders"); err != nil {
		t.Fatal(err)
	}
	c.read(f, "orders", "prod").status(200)
	if err := sim.Admin.DisarmFaults(); err != nil {
		t.Fatal(err)
	}
	var list struct {
		Faults []map[string]any `json:"faults"`
	}
	resp, _ := http.Get(sim.URL + "/_sim/faults")
	_ = json.NewDecoder(resp.Body).Decode(&list)
	resp.Body.Close()
	if len(list.Faults) != 0 {
		t.Fatalf("faults left after DELETE /_sim/faults: %v", list.Faults)
	}
}

// dropArmed serves a host with response.drop-after-commit armed once and
// returns the body of a reviewed create of "orders" in prod.
func dropArmed(t *testing.T) (*hostsimtest.Sim, *catalog.Form, *client, []byte) {
	t.Helper()
	cat := testCatalog(t)
	f := updatable(t, cat)
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat})
	c := newClient(t, sim.URL, "sim-primary")
	spec := fixture(t, f)
	pd := c.prepare(f, "orders", "prod", spec, 0)
	if err := sim.Admin.ArmFault("response.drop-after-commit,count=1"); err != nil {
		t.Fatal(err)
	}
	b := body(f, "orders", "prod", spec, map[string]any{"review": map[string]any{"prepareDigest": pd}})
	return sim, f, c, b
}

func TestDropAfterCommitThenReplay(t *testing.T) {
	sim, f, c, b := dropArmed(t)
	putDropped(t, sim, f, b)
	r := c.do("PUT", resPath(f, "orders"), map[string]string{"If-None-Match": "*", "Idempotency-Key": "lost"}, b).status(201)
	if _, g, _ := meta(t, r); g != "1" {
		t.Fatal("the resend did not get the recorded create")
	}
	if n, _ := sim.Admin.Counters(); n.Mutations != 1 {
		t.Fatalf("mutations = %d, want 1 (the resend is a replay)", n.Mutations)
	}
}

// TestDropReplayLosesTheResend: with response.drop-replay armed as well, the
// resend finds the recorded create and its connection is dropped too; only a
// third send hears the 201. The write happened once.
func TestDropReplayLosesTheResend(t *testing.T) {
	sim, f, c, b := dropArmed(t)
	if err := sim.Admin.ArmFault("response.drop-replay,count=1"); err != nil {
		t.Fatal(err)
	}
	putDropped(t, sim, f, b)
	putDropped(t, sim, f, b)
	r := c.do("PUT", resPath(f, "orders"), map[string]string{"If-None-Match": "*", "Idempotency-Key": "lost"}, b).status(201)
	if _, g, _ := meta(t, r); g != "1" {
		t.Fatal("the third send did not get the recorded create")
	}
	n, _ := sim.Admin.Counters()
	if n.Mutations != 1 || n.Fired["response.drop-after-commit"] != 1 || n.Fired["response.drop-replay"] != 1 {
		t.Fatalf("mutations = %d, fired %v; want one mutation, each drop fired once", n.Mutations, n.Fired)
	}
}

// putDropped sends the keyed create b and fails the test unless the host
// drops the connection without an answer.
func putDropped(t *testing.T, sim *hostsimtest.Sim, f *catalog.Form, b []byte) {
	t.Helper()
	req, _ := http.NewRequest("PUT", sim.URL+resPath(f, "orders"), bytes.NewReader(b))
	req.Header.Set("Authorization", "Bearer sim-primary")
	req.Header.Set("If-None-Match", "*")
	req.Header.Set("Idempotency-Key", "lost")
	req.GetBody = nil // Go's transport would otherwise resend a keyed request by itself
	// A deadline: a connection the host takes and never closes must fail the
	// test as one that is not dropped, not hang it.
	tr := &http.Transport{DisableKeepAlives: true}
	defer tr.CloseIdleConnections()
	resp, err := (&http.Client{Transport: tr, Timeout: 4 * time.Second}).Do(req)
	if err == nil {
		resp.Body.Close()
		t.Fatalf("the connection was not dropped: HTTP %d", resp.StatusCode)
	}
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Fatalf("the create was neither answered nor dropped: the connection stayed open (%v)", err)
	}
}

func TestAdminFaultArming(t *testing.T) {
	cat := testCatalog(t)
	p, _ := hostsim.LoadProfile("full")
	p.Faults = []hostsim.FaultSpec{{Fault: "latency", Value: "1ms", Kind: "Nothing"}}
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat, ProfileDoc: p})
	post := func(b string) *http.Response {
		resp, err := http.Post(sim.URL+"/_sim/faults", "application/json", bytes.NewReader([]byte(b)))
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	for _, bad := range []string{`{"fault":"nope"}`, `{"fault":"latency"}`, `{"fault":"error","value":"not_a_code"}`,
		`{"fault":"outputs.omit","extra":1}`, `[{"fault":"latency","value":"1s"}]`, `{"fault":"latency","value":"1s","count":-1}`} {
		resp := post(bad)
		resp.Body.Close()
		if resp.StatusCode != 400 {
			t.Errorf("arming %s: HTTP %d, want 400", bad, resp.StatusCode)
		}
	}
	resp := post(`{"fault":"error","value":"rate_limited","resource":"x"}`)
	var list struct {
		Faults []struct {
			Fault, Source string
		} `json:"faults"`
	}
	_ = json.NewDecoder(resp.Body).Decode(&list)
	resp.Body.Close()
	if resp.StatusCode != 201 || len(list.Faults) != 2 || list.Faults[0].Source != "profile" || list.Faults[1].Fault != "error" {
		t.Fatalf("armed list: HTTP %d %+v", resp.StatusCode, list)
	}
	req, _ := http.NewRequest("DELETE", sim.URL+"/_sim/faults", nil)
	resp, _ = http.DefaultClient.Do(req)
	_ = json.NewDecoder(resp.Body).Decode(&list)
	resp.Body.Close()
	if len(list.Faults) != 1 || list.Faults[0].Source != "profile" {
		t.Fatalf("after disarm: %+v", list)
	}
	for _, text := range []string{"transition.nope", "latency", "outputs.omit,kind=lower", "error=x", "latency=1s,count=0", "latency=1s,foo=bar"} {
		if err := sim.Admin.ArmFault(text); err == nil {
			t.Errorf("text fault %q armed", text)
		}
	}
}

func TestProbeHeader(t *testing.T) {
	cat := testCatalog(t)
	f := updatable(t, cat)
	probes := hostsimtest.Start(t, hostsim.Config{Catalog: cat, ConformanceProbes: true})
	c := newClient(t, probes.URL, "sim-primary")
	for _, code := range wire.Codes() {
		status, retry, _ := wire.CodeInfo(code)
		r := c.do("GET", api+"/forms", map[string]string{"Takoform-Conformance-Probe": "error:" + string(code)}, nil).refused(string(code), status)
		if contains(r.body, `"retryable":true`) != retry {
			t.Fatalf("%s: retryable must be %v: %s", code, retry, r.body)
		}
	}
	c.do("GET", api+"/forms", map[string]string{"Takoform-Conformance-Probe": "error:nope"}, nil).refused("invalid_argument", 400)
	c.do("GET", api+"/forms", map[string]string{"Takoform-Conformance-Probe": "bogus"}, nil).refused("invalid_argument", 400)
	newClient(t, probes.URL, "").do("GET", api+"/forms", map[string]string{"Takoform-Conformance-Probe": "error:internal_error"}, nil).refused("unauthenticated", 401)
	// touch-status: revision + 1, generation unchanged, message changed.
	c.create(f, "orders", "prod", fixture(t, f)).status(201)
	obs := c.do("POST", resPath(f, "orders")+"/observe"+exactQuery(f, "prod"), map[string]string{"Takoform-Expected-Generation": "1",
		"Idempotency-Key": newKey(), "Takoform-Conformance-Probe": "touch-status"}, nil).status(200)
	var env struct {
		Resource json.RawMessage `json:"resource"`
	}
	_ = json.Unmarshal(obs.body, &env)
	if !contains(env.Resource, `"revision":"2"`) || !contains(env.Resource, `"generation":"1"`) || !contains(env.Resource, "host-side status change 1") || obs.header.Get("ETag") != `"2"` {
		t.Fatalf("touch-status: %s", obs.body)
	}
	// Without the flag the header is ignored.
	plain := hostsimtest.Start(t, hostsim.Config{Catalog: cat})
	newClient(t, plain.URL, "sim-primary").do("GET", discovery, map[string]string{"Takoform-Conformance-Probe": "error:internal_error"}, nil).status(200)
}

func TestObserveAndImport(t *testing.T) {
	cat := testCatalog(t)
	f := updatable(t, cat)
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat})
	c := newClient(t, sim.URL, "sim-primary")
	spec := fixture(t, f)
	imp := func(name, native string, h map[string]string, extra map[string]any) *reply {
		h["Idempotency-Key"] = newKey()
		m := map[string]any{"nativeId": native}
		for k, v := range extra {
			m[k] = v
		}
		return c.do("POST", resPath(f, name)+"/import", h, body(f, name, "prod", spec, m))
	}
	imp("adopted", "native-1", map[string]string{"If-None-Match": "*"}, nil).status(201)
	imp("second", "native-1", map[string]string{"If-None-Match": "*"}, nil).refused("import_conflict", 409)
	imp("adopted", "native-2", map[string]string{"Takoform-Expected-Generation": "1"}, nil).refused("import_conflict", 409)
	imp("adopted", "native-1", map[string]string{"Takoform-Expected-Generation": "1"}, nil).status(200)
	imp("adopted", " native-1", map[string]string{"Takoform-Expected-Generation": "1"}, nil).refused("invalid_argument", 400)
	imp("adopted", "native-1", map[string]string{"Takoform-Expected-Generation": "2"}, nil).refused("generation_conflict", 412)
	imp("nothing", "native-3", map[string]string{"Takoform-Expected-Generation": "1"}, nil).refused("resource_not_found", 404)
	// Another tenant's claims are invisible.
	other := newClient(t, sim.URL, "sim-other-tenant")
	other.do("POST", resPath(f, "second")+"/import", map[string]string{"If-None-Match": "*", "Idempotency-Key": newKey()},
		body(f, "second", "prod", spec, map[string]any{"nativeId": "native-1"})).status(201)
	// A resource created by apply records its claim on first import; the nativeId never appears.
	c.create(f, "applied", "prod", spec).status(201)
	r := imp("applied", "native-4", map[string]string{}, map[string]any{"metadata": map[string]any{"name": "applied", "space": "prod", "generation": "1"}}).status(200)
	if contains(r.body, "native-4") {
		t.Fatal("nativeId appeared in a response")
	}
	// Deleting the holder releases the claim.
	c.del(f, "adopted", "prod", 1).status(204)
	imp("second", "native-1", map[string]string{"If-None-Match": "*"}, nil).status(201)
	// Observe needs the fence and an empty body.
	obsPath := resPath(f, "second") + "/observe" + exactQuery(f, "prod")
	c.do("POST", obsPath, map[string]string{"Idempotency-Key": newKey()}, nil).refused("invalid_argument", 400)
	c.do("POST", obsPath, map[string]string{"Idempotency-Key": newKey(), "Takoform-Expected-Generation": "1"}, []byte("{}")).refused("invalid_argument", 400)
	c.do("POST", obsPath, map[string]string{"Idempotency-Key": newKey(), "Takoform-Expected-Generation": "2"}, nil).refused("generation_conflict", 412)
	c.do("POST", obsPath, map[string]string{"Idempotency-Key": newKey(), "Takoform-Expected-Generation": "1", "If-Match": `"5"`}, nil).refused("revision_conflict", 412)
	o := c.do("POST", obsPath, map[string]string{"Idempotency-Key": newKey(), "Takoform-Expected-Generation": "1"}, nil).status(200)
	if o.header.Get("ETag") != `"1"` || !contains(o.body, `"resource":`) {
		t.Fatalf("observe: %s", o.body)
	}
}

func TestAdminStateEventsResetProfile(t *testing.T) {
	cat := testCatalog(t)
	f := updatable(t, cat)
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat, Profile: "tight-limits"})
	c := newClient(t, sim.URL, "sim-primary")
	spec := fixture(t, f)
	if _, ok := spec["messageRetentionSeconds"]; ok {
		spec["messageRetentionSeconds"] = 3600 // within tight-limits' 86400
	}
	c.create(f, "orders", "prod", spec).status(201)
	st, err := sim.Admin.State()
	if err != nil || !contains(st, `"resources"`) || !contains(st, `"operations"`) || !contains(st, `"claim":null`) {
		t.Fatalf("state (a resource no transition claims has claim null): %v %s", err, st)
	}
	ev, _ := sim.Admin.Events(0)
	if !contains(ev, `"route":"apply"`) || !contains(ev, `"tenant":"tenant-a"`) || contains(ev, "sim-primary") {
		t.Fatalf("events must journal each request without secrets: %s", ev)
	}
	resp, _ := http.Get(sim.URL + "/_sim/profile")
	var p map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&p)
	resp.Body.Close()
	if p["name"] != "tight-limits" {
		t.Fatalf("profile: %v", p)
	}
	if err := sim.Admin.Reset(); err != nil {
		t.Fatal(err)
	}
	n, _ := sim.Admin.Counters()
	if n.Requests != 0 || n.Mutations != 0 {
		t.Fatalf("counters after reset: %+v", n)
	}
	c.read(f, "orders", "prod").refused("resource_not_found", 404)
	if n, _ := sim.Admin.Counters(); n.Requests != 1 {
		t.Fatalf("requests = %d, want 1 (admin routes are not counted)", n.Requests)
	}
}

func TestBodyCapAndCancelRules(t *testing.T) {
	cat := testCatalog(t)
	f := updatable(t, cat)
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat, ConformanceProbes: true})
	c := newClient(t, sim.URL, "sim-primary")
	big := append([]byte(`{"x":"`), bytes.Repeat([]byte("a"), 8<<20)...)
	big = append(big, `"}`...)
	c.do("POST", api+"/resources/validate", nil, big).refused("invalid_argument", 400)
	spec := fixture(t, f)
	pd := c.prepare(f, "orders", "prod", spec, 0)
	acc := c.do("PUT", resPath(f, "orders"), map[string]string{"If-None-Match": "*", "Idempotency-Key": newKey(), "Takoform-Conformance-Probe": "async"},
		body(f, "orders", "prod", spec, map[string]any{"review": map[string]any{"prepareDigest": pd}})).status(202)
	var env struct{ Operation struct{ ID string } }
	_ = json.Unmarshal(acc.body, &env)
	cancel := api + "/operations/" + env.Operation.ID + "/cancel"
	c.do("POST", cancel, nil, nil).refused("invalid_argument", 400)
	c.do("POST", cancel, map[string]string{"Idempotency-Key": newKey()}, []byte("{}")).refused("invalid_argument", 400)
	newClient(t, sim.URL, "sim-alternate").do("POST", cancel, map[string]string{"Idempotency-Key": newKey()}, nil).refused("operation_not_found", 404)
	newClient(t, sim.URL, "sim-other-tenant").do("GET", api+"/operations/"+env.Operation.ID, nil, nil).refused("operation_not_found", 404)
	c.do("POST", cancel, map[string]string{"Idempotency-Key": newKey()}, nil).status(200)
	c.do("GET", api+"/operations/"+env.Operation.ID+"?x=1", nil, nil).refused("invalid_argument", 400)
}

// TestStoreFailFailsTheNamedStatementAndStoresNothing: a create whose n-th
// data statement fails answers internal_error 500 saying the fault asked for
// it, stores nothing (the write rolled back: the name is still free, no
// mutation counted), and the same create with the same key then succeeds as
// a first create — for every statement of the create, until n passes its last.
// store.read-fail does the same with the create's SQL reads inside its writes.
// storeFaults are the two store faults a sweep arms, each with how its 500 names
// the statement it failed (a format of its number).
var storeFaults = []struct{ fault, says string }{
	{"store.fail", "data statement %d of this request failed"},
	{"store.read-fail", "read %d inside this request's writes failed"},
}

func TestStoreFailFailsTheNamedStatementAndStoresNothing(t *testing.T) {
	for _, k := range storeFaults {
		t.Run(k.fault, func(t *testing.T) { sweepStoreFault(t, k.fault, k.says) })
	}
}

func sweepStoreFault(t *testing.T, name, says string) {
	cat := testCatalog(t)
	f := updatable(t, cat)
	failed := 0
	for n := 1; ; n++ {
		sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat})
		c := newClient(t, sim.URL, "sim-primary")
		spec := fixture(t, f)
		pd := c.prepare(f, "orders", "prod", spec, 0)
		before, _ := sim.Admin.Counters()
		if err := sim.Admin.ArmFault(fmt.Sprintf("%s=%d,count=1", name, n)); err != nil {
			t.Fatal(err)
		}
		b := body(f, "orders", "prod", spec, map[string]any{"review": map[string]any{"prepareDigest": pd}})
		h := map[string]string{"If-None-Match": "*", "Idempotency-Key": fmt.Sprintf("k%d", n)}
		r := c.do("PUT", resPath(f, "orders"), h, b)
		if r.code == 201 { // the create has fewer than n data statements: nothing failed
			if failed == 0 {
				t.Fatalf("%s=1 did not fail the create's first statement of its kind", name)
			}
			if got := fired(t, sim, fmt.Sprintf("%s=%d", name, n)); got != 0 {
				t.Fatalf("%s=%d: the create passed, yet the fault counted %d firings", name, n, got)
			}
			break
		}
		failed++
		r.refused("internal_error", 500)
		if msg := string(r.body); !strings.Contains(msg, fmt.Sprintf(says, n)) || !strings.Contains(msg, name+" fault") || strings.Contains(msg, "hostsim bug") {
			t.Fatalf("%s=%d: the 500 must name the injected statement and not call it a bug: %s", name, n, msg)
		}
		if got := fired(t, sim, fmt.Sprintf("%s=%d", name, n)); got != 1 {
			t.Fatalf("%s=%d: the fault counted %d firings, want 1", name, n, got)
		}
		if after, _ := sim.Admin.Counters(); after.Mutations != before.Mutations {
			t.Fatalf("%s=%d: a failed create counted a mutation (%d -> %d)", name, n, before.Mutations, after.Mutations)
		}
		c.read(f, "orders", "prod").refused("resource_not_found", 404) // nothing of the write is stored
		if _, g, _ := meta(t, c.do("PUT", resPath(f, "orders"), h, b).status(201)); g != "1" {
			t.Fatalf("%s=%d: the retried create is not a first create (generation %s)", name, n, g)
		}
		if n > 200 {
			t.Fatalf("%s: a create of more than 200 statements of its kind; the sweep does not end", name)
		}
	}
	t.Logf("%s failed each of the create's %d statements of its kind in turn", name, failed)
}

// response.drop-after-commit needs a connection to take: through a
// ResponseWriter that cannot be hijacked the create is answered as ever and the
// fault stays armed, unfired.
func TestDropAfterCommitNeedsAConnection(t *testing.T) {
	sim, f, _, b := dropArmed(t)
	if rec := unhijackedPut(sim, f, b); rec.Code != 201 {
		t.Fatalf("the create through a writer that cannot be hijacked: HTTP %d %s, want 201", rec.Code, rec.Body)
	}
	if n := fired(t, sim, "response.drop-after-commit"); n != 0 {
		t.Fatalf("response.drop-after-commit fired %d times with no connection to drop; want 0 (it stays armed)", n)
	}
}

// So does response.drop-replay: a keyed resend through a ResponseWriter that
// cannot be hijacked gets its replay, and the fault stays armed, unfired.
func TestDropReplayNeedsAConnection(t *testing.T) {
	sim, f, _, b := dropArmed(t)
	disarm(t, sim)
	if rec := unhijackedPut(sim, f, b); rec.Code != 201 {
		t.Fatalf("the create: HTTP %d %s, want 201", rec.Code, rec.Body)
	}
	arm(t, sim, "response.drop-replay,count=1")
	if rec := unhijackedPut(sim, f, b); rec.Code != 201 || !strings.Contains(rec.Body.String(), `"generation":"1"`) {
		t.Fatalf("the resend through a writer that cannot be hijacked: HTTP %d %s, want the replayed 201", rec.Code, rec.Body)
	}
	if n := fired(t, sim, "response.drop-replay"); n != 0 {
		t.Fatalf("response.drop-replay fired %d times with no connection to drop; want 0 (it stays armed)", n)
	}
}

// unhijackedPut sends the create b of orders, keyed "no-conn", through a
// ResponseRecorder, which is not an http.Hijacker.
func unhijackedPut(sim *hostsimtest.Sim, f *catalog.Form, b []byte) *httptest.ResponseRecorder {
	req := httptest.NewRequest("PUT", resPath(f, "orders"), bytes.NewReader(b))
	req.Header.Set("Authorization", "Bearer sim-primary")
	req.Header.Set("If-None-Match", "*")
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Idempotency-Key", "no-conn")
	rec := httptest.NewRecorder()
	sim.Host.Handler().ServeHTTP(rec, req)
	return rec
}
