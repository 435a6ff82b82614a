package transition_test

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim"
	"github.com/takokit/takokit/hostsim/internal/transition"
)

// api is the root of the default lane, which the built-in catalog speaks.
var api = wire.DefaultLane.APIRoot

// clock is a settable test clock (the ack deadline is measured on it).
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// env is one hostsim with a resource under a declared transition's from-Form.
// It owns its server so a test can restart the Host on the same database file.
type env struct {
	t        *testing.T
	cfg      hostsim.Config
	host     *hostsim.Host
	srv      *httptest.Server
	url      string
	clock    *clock
	tr       *catalog.Transition
	from, to *catalog.Form
	space    string
	name     string
	uid      string
	gen, rev int64
	spec     map[string]any
}

// pair picks a declared transition whose from-Form stands alone (no relations)
// and has a fixture: everything derives from catalog data.
func pair(t testing.TB) (*catalog.Transition, *catalog.Form, *catalog.Form) {
	cat, err := catalog.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range cat.Transitions() {
		from, ok1 := cat.Form(tr.From)
		to, ok2 := cat.Form(tr.To)
		if ok1 && ok2 && len(from.Relations) == 0 && len(from.Fixtures) > 0 {
			return tr, from, to
		}
	}
	t.Skip("the built-in catalog declares no transition between standalone Forms")
	return nil, nil, nil
}

func newEnv(t *testing.T, cfg hostsim.Config) *env {
	t.Helper()
	tr, from, to := pair(t)
	return newEnvWith(t, cfg, tr, from, to)
}

// newEnvWith serves a Host and creates the resource under from, after the
// targets its fixture references (each from its own first fixture).
func newEnvWith(t *testing.T, cfg hostsim.Config, tr *catalog.Transition, from, to *catalog.Form) *env {
	t.Helper()
	c := &clock{t: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	if cfg.Clock == nil {
		cfg.Clock = c.now
	}
	e := &env{t: t, cfg: cfg, clock: c, space: "prod", name: "orders", tr: tr, from: from, to: to}
	e.start()
	t.Cleanup(e.stop)
	e.createTargets()
	e.create()
	return e
}

// createTargets creates every resource the from-Form's fixture references.
func (e *env) createTargets() {
	e.t.Helper()
	var spec map[string]any
	_ = json.Unmarshal(e.from.Fixtures[0].Desired, &spec)
	cat, _ := catalog.Embedded()
	for _, rel := range e.from.Relations {
		node, ok := spec[strings.TrimPrefix(rel.Pointer, "/")].(map[string]any)
		if !ok {
			continue
		}
		k, ok := cat.Kind(rel.TargetAPIVersion, rel.TargetKind)
		if !ok {
			e.t.Skipf("relation target %s is not in the catalog", rel.TargetKind)
		}
		target := k.DefaultCreate()
		if len(target.Relations) > 0 || len(target.Fixtures) == 0 {
			e.t.Skipf("relation target %s needs its own relations", rel.TargetKind)
		}
		var ts map[string]any
		_ = json.Unmarshal(target.Fixtures[0].Desired, &ts)
		name := e.name
		e.name = fmt.Sprint(node["name"])
		if r := e.apply(target, ts, 0); r.status != 201 {
			e.t.Fatalf("create relation target %s %s: %d %s", target.Ref.Kind, e.name, r.status, r.body)
		}
		e.name = name
	}
}

// start serves a new Host built from e.cfg on a loopback port.
func (e *env) start() {
	e.t.Helper()
	h, err := hostsim.New(e.cfg)
	if err != nil {
		e.t.Fatalf("start hostsim: %v", err)
	}
	e.host, e.srv = h, httptest.NewServer(h.Handler())
	e.url = e.srv.URL
}

// stop closes the server and the Host. httptest's Close waits for every
// request in flight; a handler that never returns fails the test instead of
// hanging it.
func (e *env) stop() {
	if e.host == nil {
		return
	}
	done := make(chan struct{})
	go func() { e.srv.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(3 * time.Second):
		e.t.Errorf("a request was still in flight 3 s after the server closed: its handler never returned")
	}
	_ = e.host.Close()
	e.host = nil
}

// restart stops the Host and starts another on the same configuration (and
// so on the same database file when cfg.DBPath is set).
func (e *env) restart() {
	e.t.Helper()
	e.stop()
	e.start()
}

func (e *env) resPath() string { return resPathOf(e.from, e.name) }

func resPathOf(f *catalog.Form, name string) string {
	return api + "/resources/" + f.Ref.APIVersion + "/" + f.Ref.Kind + "/" + name
}

func spaceQ(space string) string {
	return "?space=" + strings.ReplaceAll(url.QueryEscape(space), "+", "%20")
}

func resourceBody(f *catalog.Form, name, space string, spec map[string]any, extra map[string]any) []byte {
	doc := map[string]any{"apiVersion": f.Ref.APIVersion, "kind": f.Ref.Kind,
		"form": map[string]any{"formRef": f.Ref}, "metadata": map[string]any{"name": name, "space": space}, "spec": spec}
	for k, v := range extra {
		doc[k] = v
	}
	b, _ := json.Marshal(doc)
	return b
}

var keySeq int

// apply prepares and PUTs spec under f (fence 0 = create).
func (e *env) apply(f *catalog.Form, spec map[string]any, fence int64) *reply {
	e.t.Helper()
	h := map[string]string{}
	if fence > 0 {
		h["Takoform-Expected-Generation"] = fmt.Sprint(fence)
	}
	pr := e.do("POST", api+"/resources/prepare", h, resourceBody(f, e.name, e.space, spec, nil))
	if pr.status != 200 {
		return pr
	}
	var out struct {
		Review struct{ PrepareDigest string } `json:"review"`
	}
	_ = json.Unmarshal(pr.body, &out)
	keySeq++
	h["Idempotency-Key"] = fmt.Sprintf("k-%d", keySeq)
	if fence == 0 {
		h["If-None-Match"] = "*"
	}
	return e.do("PUT", resPathOf(f, e.name), h, resourceBody(f, e.name, e.space, spec,
		map[string]any{"review": map[string]any{"prepareDigest": out.Review.PrepareDigest}}))
}

func (e *env) create() {
	e.t.Helper()
	if err := json.Unmarshal(e.from.Fixtures[0].Desired, &e.spec); err != nil {
		e.t.Fatal(err)
	}
	r := e.apply(e.from, e.spec, 0)
	if r.status == 422 && len(e.from.Relations) > 0 {
		// The host asks more of the referenced world than the fixtures build
		// (an aggregate rule such as an active deployment): nothing to test here.
		e.t.Skipf("create %s from its fixture needs more than its references' fixtures: %s", e.from.Ref, r.body)
	}
	if r.status != 201 {
		e.t.Fatalf("create %s: %d %s", e.from.Ref, r.status, r.body)
	}
	e.adopt(r)
}

// adopt records uid, generation and revision of a representation.
func (e *env) adopt(r *reply) {
	m := r.json()
	md, _ := m["metadata"].(map[string]any)
	e.uid = fmt.Sprint(md["uid"])
	fmt.Sscan(fmt.Sprint(md["generation"]), &e.gen)
	fmt.Sscan(fmt.Sprint(md["revision"]), &e.rev)
}

// read GETs the resource under f.
func (e *env) read(f *catalog.Form) *reply {
	return e.do("GET", e.resPath()+"?"+strings.ReplaceAll(wire.ExactQuery(e.space, f.Ref).Encode(), "+", "%20"), nil, nil)
}

// request builds the sealed transition request from the env's current fences.
func (e *env) request() *transition.Request {
	e.t.Helper()
	r, err := transition.NewRequest(e.tr, e.from, e.to, e.space, e.name, e.uid, e.gen, e.rev, e.spec)
	if err != nil {
		e.t.Fatal(err)
	}
	return r
}

func headersOf(r *transition.Request) map[string]string {
	return map[string]string{"Idempotency-Key": r.OperationID, "Takoform-Expected-Generation": r.Expected.Generation,
		"If-Match": `"` + r.Expected.Revision + `"`}
}

// post sends r with its headers (h overrides; "" removes one).
func (e *env) post(r *transition.Request, h map[string]string) *reply {
	e.t.Helper()
	b, _ := json.Marshal(r)
	return e.postRaw(b, r, h)
}

func (e *env) postRaw(body []byte, r *transition.Request, h map[string]string) *reply {
	hs := headersOf(r)
	for k, v := range h {
		hs[k] = v
	}
	return e.do("POST", e.resPath()+"/form-transitions"+spaceQ(e.space), hs, body)
}

func (e *env) readback(op string) *reply {
	return e.do("GET", e.resPath()+"/form-transitions/"+op+spaceQ(e.space), nil, nil)
}
