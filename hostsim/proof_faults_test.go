package hostsim_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/catalogtest"
	"github.com/takokit/takokit/hostsim"
	"github.com/takokit/takokit/hostsim/hostsimtest"
	"github.com/takokit/takokit/hostsim/internal/fault"
	"github.com/takokit/takokit/hostsim/internal/transition"
)

// fired reads how often a fault (NAME or NAME=VALUE) fired, from the durable counters.
func fired(t *testing.T, sim *hostsimtest.Sim, name string) int64 {
	t.Helper()
	c, err := sim.Admin.Counters()
	if err != nil {
		t.Fatal(err)
	}
	return c.Fired[name]
}

// outputWorld creates what f references and returns f's spec.
func outputWorld(t *testing.T, c *client, cat *catalog.Catalog, f *catalog.Form, space string) map[string]any {
	t.Helper()
	spec := fixture(t, f)
	for _, rel := range f.Relations {
		for _, n := range nodesIn(spec, rel.Pointer) {
			k, _ := cat.Kind(rel.TargetAPIVersion, rel.TargetKind)
			target := k.DefaultCreate()
			c.create(target, n, space, fixture(t, target)).status(201)
		}
	}
	servedTargets(t, c, cat, f, spec, space)
	return spec
}

// The output-contract faults (decision 0025): each breaks one rule of the
// served outputs while armed, fires, and the rule holds again once disarmed.
func TestOutputContractFaults(t *testing.T) {
	cat := testCatalog(t)
	f := pickForm(t, cat, "Form with a patterned string and a bounded integer output", func(f *catalog.Form) bool {
		var str, num bool
		for _, o := range f.Outputs {
			str = str || o.Type == "string" && o.Pattern != ""
			num = num || o.Type == "integer" && o.Max != nil
		}
		return str && num
	})
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat})
	c := newClient(t, sim.URL, "sim-primary")
	spec := outputWorld(t, c, cat, f, "prod")
	c.create(f, "edge", "prod", spec).status(201)
	read := func() map[string]any { return c.read(f, "edge", "prod").status(200).json() }
	outputs := func(doc map[string]any) (map[string]any, bool) {
		st, ok := doc["status"].(map[string]any)
		if !ok {
			return nil, false
		}
		out, ok := st["outputs"].(map[string]any)
		return out, ok
	}
	honest := func() {
		out, ok := outputs(read())
		if !ok || len(out) != len(f.Outputs) || f.ValidateOutputs(out) != nil {
			t.Fatalf("honest outputs %v (present %v) do not validate against the outputSchema", out, ok)
		}
	}
	var str, num string
	for _, o := range f.Outputs {
		if o.Type == "string" && o.Pattern != "" && str == "" {
			str = o.Wire
		}
		if o.Type == "integer" && o.Max != nil && num == "" {
			num = o.Wire
		}
	}
	first := f.Outputs[0].Wire
	cases := []struct {
		fault string
		want  func(doc map[string]any) bool
	}{
		{"outputs.drop-status", func(doc map[string]any) bool { _, ok := doc["status"]; return !ok && doc["metadata"] != nil }},
		{"outputs.drop-all", func(doc map[string]any) bool {
			_, has := outputs(doc)
			st, _ := doc["status"].(map[string]any)
			return !has && st != nil && st["conditions"] != nil
		}},
		{"outputs.null-member", func(doc map[string]any) bool {
			out, _ := outputs(doc)
			v, present := out[first]
			return present && v == nil && len(out) == len(f.Outputs)
		}},
		{"outputs.null-member=" + num, func(doc map[string]any) bool { out, _ := outputs(doc); v, ok := out[num]; return ok && v == nil }},
		{"outputs.pattern-violation", func(doc map[string]any) bool {
			out, _ := outputs(doc)
			s, isString := out[str].(string)
			o, _ := f.Output(str)
			return isString && !o.Regexp().MatchString(s) && f.ValidateOutputs(out) != nil
		}},
		{"outputs.out-of-range", func(doc map[string]any) bool {
			out, _ := outputs(doc)
			o, _ := f.Output(num)
			n, isNumber := out[num].(float64)
			return isNumber && n == float64(*o.Max+1) && f.ValidateOutputs(out) != nil
		}},
	}
	for _, tc := range cases {
		broken(t, sim, tc.fault+",kind="+f.Ref.Kind, honest, func() {
			before := fired(t, sim, tc.fault)
			if doc := read(); !tc.want(doc) {
				t.Fatalf("%s did not break the outputs: %v", tc.fault, doc)
			}
			if after := fired(t, sim, tc.fault); after != before+1 {
				t.Fatalf("%s: fired %d → %d, want one firing per answer", tc.fault, before, after)
			}
		})
	}
	// Scoped to the apply route, a fault breaks the write's answer and no read.
	arm(t, sim, "outputs.drop-all,kind="+f.Ref.Kind+",route=apply")
	honest()
	_, gen, _ := meta(t, c.read(f, "edge", "prod").status(200))
	fence, _ := strconv.ParseInt(gen, 10, 64)
	c.del(f, "edge", "prod", fence).status(204)
	created := c.create(f, "edge", "prod", spec).status(201).json()
	if _, has := outputs(created); has || fired(t, sim, "outputs.drop-all") != 2 {
		t.Fatalf("outputs.drop-all,route=apply: the create answered %v (fired %d)", created["status"], fired(t, sim, "outputs.drop-all"))
	}
	honest()
	disarm(t, sim)
	// A Form that declares no outputs is served as before under every output fault.
	g := updatable(t, cat)
	c.create(g, "plain", "prod", fixture(t, g)).status(201)
	arm(t, sim, "outputs.drop-status")
	arm(t, sim, "outputs.drop-all")
	if doc := c.read(g, "plain", "prod").status(200).json(); doc["status"] == nil {
		t.Fatalf("outputs.drop-status dropped the status of a Form without outputs: %v", doc)
	}
	disarm(t, sim)
	// A value that names no output of that sort never fires.
	arm(t, sim, "outputs.out-of-range="+str)
	honest()
	disarm(t, sim)
}

// The support faults answer a support route wrongly and nothing else.
func TestSupportFaults(t *testing.T) {
	cat := testCatalog(t)
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat})
	c := newClient(t, sim.URL, "sim-primary")
	get := func(path string) *reply { return c.do("GET", api+"/support"+path, nil, nil) }
	digestOf := func(r *reply, member string) string {
		return r.status(200).json()[member].(map[string]any)["schemaDigest"].(string)
	}
	bs, is := cat.Bindings(), cat.Interfaces()
	if len(bs) < 2 || len(is) < 2 {
		t.Skip("the catalog needs two bindings and two interfaces")
	}
	b, other := bs[0].Ref, bs[1].Ref
	broken(t, sim, "support.binding-digest="+b.Name, func() {
		if d := digestOf(get("/bindings/"+b.Name+"/"+b.Version), "bindingRef"); d != b.SchemaDigest {
			t.Fatalf("binding %s answered at %s, want %s", b.Name, d, b.SchemaDigest)
		}
	}, func() {
		d := digestOf(get("/bindings/"+b.Name+"/"+b.Version), "bindingRef")
		if d == b.SchemaDigest || !strings.HasPrefix(d, "sha256:") || len(d) != 71 {
			t.Fatalf("support.binding-digest answered %s (installed %s): want another well-formed digest", d, b.SchemaDigest)
		}
		if d := digestOf(get("/bindings/"+other.Name+"/"+other.Version), "bindingRef"); d != other.SchemaDigest {
			t.Fatalf("support.binding-digest=%s changed binding %s too", b.Name, other.Name)
		}
	})
	i := is[0].Ref
	broken(t, sim, "support.interface-digest", func() {
		if d := digestOf(get("/interfaces/"+i.Name+"/"+i.Version), "interfaceRef"); d != i.SchemaDigest {
			t.Fatalf("interface %s answered at %s", i.Name, d)
		}
	}, func() {
		if d := digestOf(get("/interfaces/"+i.Name+"/"+i.Version), "interfaceRef"); d == i.SchemaDigest {
			t.Fatal("support.interface-digest (every interface) kept the installed digest")
		}
	})
	unknownForm, unknownContract := "/forms/nothing.example.test/v1/Nothing/1.0.0", "/bindings/nothing-here/1.0.0"
	broken(t, sim, "support.refuse-code", func() {
		get(unknownForm).refused("form_unknown", 404)
		get(unknownContract).refused("resource_not_found", 404)
	}, func() {
		get(unknownForm).refused("resource_not_found", 404)
		get(unknownContract).refused("form_unknown", 404)
	})
	all := sim.Host.State().Host.Forms()
	forms := []*catalog.Form{all[0]}
	for _, f := range all {
		if f.Ref.Kind != all[0].Ref.Kind && len(forms) == 1 {
			forms = append(forms, f)
		}
	}
	route := func(f *catalog.Form) string {
		return "/forms/" + f.Ref.APIVersion + "/" + f.Ref.Kind + "/" + f.Ref.DefinitionVersion
	}
	listed := func() int { return len(get("/forms").status(200).json()["profiles"].([]any)) }
	n := listed()
	broken(t, sim, "support.omit-profile", func() { get(route(forms[0])).status(200) }, func() {
		get(route(forms[0])).refused("form_unknown", 404)
		get(route(forms[1])).status(200)
		if listed() != n {
			t.Fatal("support.omit-profile dropped the Form from the listing: it must stay installed and listed")
		}
	})
	broken(t, sim, "support.omit-profile="+forms[1].Ref.Kind, func() { get(route(forms[1])).status(200) }, func() {
		get(route(forms[1])).refused("form_unknown", 404)
		get(route(forms[0])).status(200)
	})
	// a runtime compatibility statement in the named Form's profile only, on its route and in the list
	for _, c := range []struct{ fault, member, key string }{
		{"support.compatibility-date", "supportedRanges", "compatibilityDate"},
		{"support.compatibility-flags", "supportedEnums", "compatibilityFlags"},
	} {
		states := func(p map[string]any) bool { m, _ := p[c.member].(map[string]any); return m[c.key] != nil }
		stated := func(f *catalog.Form) (onRoute, listed bool) {
			for _, p := range get("/forms").status(200).json()["profiles"].([]any) {
				if ref := p.(map[string]any)["formRef"].(map[string]any); ref["kind"] == f.Ref.Kind && ref["definitionVersion"] == f.Ref.DefinitionVersion {
					listed = states(p.(map[string]any))
				}
			}
			return states(get(route(f)).status(200).json()), listed
		}
		broken(t, sim, c.fault+"="+forms[1].Ref.Kind, func() {
			for _, f := range forms {
				if r, l := stated(f); r || l {
					t.Fatalf("%s: the profile of %s states %s.%s unarmed", c.fault, f.Ref.Kind, c.member, c.key)
				}
			}
		}, func() {
			if r, l := stated(forms[1]); !r || !l {
				t.Fatalf("%s: the profile of %s states %s.%s on its route %v, in the list %v; want both", c.fault, forms[1].Ref.Kind, c.member, c.key, r, l)
			}
			if r, l := stated(forms[0]); r || l {
				t.Fatalf("%s=%s: the profile of %s states it too", c.fault, forms[1].Ref.Kind, forms[0].Ref.Kind)
			}
		})
	}
	paths := []string{"/forms", route(forms[0]), "/bindings/" + b.Name + "/" + b.Version, "/interfaces/" + i.Name + "/" + i.Version}
	broken(t, sim, "support.commercial", func() {
		for _, p := range paths {
			if contains(get(p).status(200).body, `"price"`) {
				t.Fatalf("%s carries a price", p)
			}
		}
	}, func() {
		for _, p := range paths {
			if !contains(get(p).status(200).body, `"price"`) {
				t.Fatalf("support.commercial: %s carries no price", p)
			}
		}
	})
}

// transition.proof-wrong: the transition commits and its proof disagrees
// with the resource in exactly the member the value names.
func TestTransitionProofWrong(t *testing.T) {
	cat := testCatalog(t)
	tr, from, to := standalonePair(t, cat)
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat})
	c := newClient(t, sim.URL, "sim-primary")
	spec := fixture(t, from)
	n := 0
	// transit creates a fresh resource and transitions it: the proof, and
	// what each member must be (nativeIdentityDigest: "" = not known here).
	transit := func() (proof, want map[string]any) {
		n++
		name := fmt.Sprintf("proof-%d", n)
		uid, _, _ := meta(t, c.create(from, name, "prod", spec).status(201))
		req, err := transition.NewRequest(tr, from, to, "prod", name, uid, 1, 1, spec)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(req)
		h := map[string]string{"Idempotency-Key": req.OperationID, "Takoform-Expected-Generation": "1", "If-Match": `"1"`}
		doc := c.do("POST", resPath(from, name)+"/form-transitions?space=prod", h, b).status(200).json()
		if g := doc["resource"].(map[string]any)["metadata"].(map[string]any)["generation"]; g != "2" {
			t.Fatalf("the transition did not commit (generation %v)", g)
		}
		return doc["transitionProof"].(map[string]any), map[string]any{"uid": uid, "generation": "2",
			"transitionEvidenceDigest": req.TransitionEvidence.Digest}
	}
	honest, want := transit()
	for m, v := range want {
		if honest[m] != v {
			t.Fatalf("an honest proof has %s %v, want %v", m, honest[m], v)
		}
	}
	want["observedSpecDigest"] = honest["observedSpecDigest"] // the same spec every time
	for _, member := range fault.ProofMembers {
		name := "transition.proof-wrong=" + member
		arm(t, sim, name+",count=1")
		p, w := transit()
		w["observedSpecDigest"] = want["observedSpecDigest"]
		for m, v := range w {
			if (p[m] == v) == (m == member) {
				t.Fatalf("%s: proof member %s is %v, honest %v", name, m, p[m], v)
			}
		}
		if d, _ := p["nativeIdentityDigest"].(string); !strings.HasPrefix(d, "sha256:") || len(d) != 71 {
			t.Fatalf("%s: nativeIdentityDigest %q is not a well-formed digest", name, d)
		}
		if fired(t, sim, name) != 1 {
			t.Fatalf("%s did not fire exactly once", name)
		}
	}
	arm(t, sim, "transition.proof-wrong,count=1") // default: observedSpecDigest
	if p, _ := transit(); p["observedSpecDigest"] == want["observedSpecDigest"] {
		t.Fatal("transition.proof-wrong without a value kept observedSpecDigest")
	}
}

// transition.hang: the firing and the step's write are durable before the
// request holds, the client gets no answer, and once it gives up the
// readback repairs forward with one dispatch.
func TestTransitionHangHoldsAfterTheDurableWrite(t *testing.T) {
	cat := testCatalog(t)
	tr, from, to := standalonePair(t, cat)
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat})
	c := newClient(t, sim.URL, "sim-primary")
	arm(t, sim, "transition.hang=C,count=1")
	spec := fixture(t, from)
	uid, _, _ := meta(t, c.create(from, "held", "prod", spec).status(201))
	req, err := transition.NewRequest(tr, from, to, "prod", "held", uid, 1, 1, spec)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(req)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	hr, _ := http.NewRequestWithContext(ctx, "POST", sim.URL+resPath(from, "held")+"/form-transitions?space=prod", bytes.NewReader(b))
	for k, v := range map[string]string{"Authorization": "Bearer sim-primary", "Idempotency-Key": req.OperationID,
		"Takoform-Expected-Generation": "1", "If-Match": `"1"`} {
		hr.Header.Set(k, v)
	}
	answered := make(chan error, 1)
	go func() {
		resp, err := http.DefaultClient.Do(hr)
		if err == nil {
			resp.Body.Close()
			err = fmt.Errorf("transition.hang=C answered HTTP %d; it must hold until the client goes away", resp.StatusCode)
		} else if ctx.Err() == nil {
			err = fmt.Errorf("the held request ended before the client went away: %v", err)
		} else {
			err = nil
		}
		answered <- err
	}()
	// the firing and the backend call are committed while the request is still held
	// (polled, not a fixed wait: a slow machine takes longer to get there)
	var cs hostsimtest.Counters
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		var err error
		if cs, err = sim.Admin.Counters(); err != nil {
			t.Fatal(err)
		}
		if cs.Fired["transition.hang=C"] == 1 && cs.Dispatch[req.OperationID] == 1 || time.Now().After(deadline) {
			break
		}
	}
	if cs.Fired["transition.hang=C"] != 1 || cs.Dispatch[req.OperationID] != 1 {
		t.Fatalf("while held at C: fired %v, dispatch %v; want the firing and the backend call committed", cs.Fired, cs.Dispatch)
	}
	// and it stays held: no answer for half a second after them, until the client gives up
	select {
	case err := <-answered:
		t.Fatalf("the request at C did not hold: %v", err)
	case <-time.After(500 * time.Millisecond):
	}
	cancel()
	if err := <-answered; err != nil {
		t.Fatal(err)
	}
	rb := c.do("GET", resPath(from, "held")+"/form-transitions/"+req.OperationID+"?space=prod", nil, nil).status(200)
	if !contains(rb.body, `"committed"`) {
		t.Fatalf("the readback after a hang at C did not repair forward: %s", rb.body)
	}
	if cs, _ := sim.Admin.Counters(); cs.Dispatch[req.OperationID] != 1 {
		t.Fatalf("dispatch %v after the readback, want exactly one", cs.Dispatch)
	}
}

// identity.kind-only: on a catalog with one kind name in two groups, the
// same name is two resources, until the fault addresses them by kind alone.
func TestIdentityKindOnly(t *testing.T) {
	cat, kind, err := catalogtest.TwoGroups(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var a, b *catalog.Form
	for _, f := range cat.Forms() {
		switch {
		case f.Ref.Kind == kind && f.Ref.APIVersion == catalogtest.SecondGroup:
			b = f
		case f.Ref.Kind == kind && a == nil:
			a = f
		}
	}
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat})
	c := newClient(t, sim.URL, "sim-primary")
	n := 0
	pair := func() (*reply, *reply) {
		n++
		name := fmt.Sprintf("same-%d", n)
		return c.create(a, name, "prod", fixture(t, a)), c.create(b, name, "prod", fixture(t, b))
	}
	broken(t, sim, "identity.kind-only", func() {
		x, y := pair()
		ux, _, _ := meta(t, x.status(201))
		uy, _, _ := meta(t, y.status(201))
		if ux == uy {
			t.Fatalf("two kinds of two groups share uid %s", ux)
		}
	}, func() {
		x, y := pair()
		x.status(201)
		y.refused("generation_conflict", 412)
	})
}

// The fault panic: the recover middleware answers internal_error 500 in the
// envelope, logs the stack, counts the firing, and the host keeps serving.
func TestPanicIsRecoveredWithTheEnvelope(t *testing.T) {
	var logs syncBuffer
	sim := hostsimtest.Start(t, hostsim.Config{Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	c := newClient(t, sim.URL, "sim-primary")
	arm(t, sim, "panic,count=1")
	r := c.do("GET", discovery, nil, nil).refused("internal_error", 500)
	env := r.json()["error"].(map[string]any)
	id, _ := env["requestId"].(string)
	if id == "" || env["retryable"] != false {
		t.Fatalf("the panic's envelope lacks a requestId or says retryable: %s", r.body)
	}
	out := logs.String()
	if !strings.Contains(out, hostsim.PanicLogMessage) || !strings.Contains(out, id) || !strings.Contains(out, "prelude.go") {
		t.Fatalf("the recovered panic was not logged with its request id and stack:\n%s", out)
	}
	c.do("GET", discovery, nil, nil).status(200)
	if fired(t, sim, "panic") != 1 {
		t.Fatal("the panic's firing was not counted")
	}
}

// A keyed request's event carries its Idempotency-Key (not a secret: it shows
// which requests were one request retried); other requests carry none.
func TestJournalRecordsTheIdempotencyKey(t *testing.T) {
	cat := testCatalog(t)
	f := updatable(t, cat)
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat})
	c := newClient(t, sim.URL, "sim-primary")
	c.create(f, "keyed", "prod", fixture(t, f)).status(201)
	c.read(f, "keyed", "prod").status(200)
	reqs, err := sim.Admin.Requests()
	if err != nil {
		t.Fatal(err)
	}
	keys := map[string]string{}
	for _, r := range reqs {
		keys[r.Route] = r.IdempotencyKey
	}
	if !strings.HasPrefix(keys["apply"], "test-key-") || keys["read"] != "" || keys["prepare"] != "" {
		t.Fatalf("request events carry keys %v; want the apply's key only", keys)
	}
}

// A firing's count outlives its fault: a fault spent by count leaves
// /_sim/faults, and /_sim/counters still counts what it did.
func TestFiredCountOutlivesTheFault(t *testing.T) {
	cat := testCatalog(t)
	f := updatable(t, cat)
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat})
	c := newClient(t, sim.URL, "sim-primary")
	arm(t, sim, "error=backend_unavailable,count=1,kind="+f.Ref.Kind)
	c.read(f, "none", "prod").refused("backend_unavailable", 503)
	c.read(f, "none", "prod").refused("resource_not_found", 404)
	st, err := sim.Host.State().Faults()
	if err != nil {
		t.Fatal(err)
	}
	if len(st) != 0 {
		t.Fatalf("a spent fault is still armed: %v", st)
	}
	if fired(t, sim, "error=backend_unavailable") != 1 {
		t.Fatal("the spent fault's firing is not counted")
	}
}

// syncBuffer is a bytes.Buffer safe for a logger and a reader.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// The built-in profile no-bucket-binding installs ObjectBucket but not the
// bucket binding contract: a version binding a bucket is unsupported_capability,
// and only bindings.unchecked lets it through (the unimplemented-binding branch
// of the binding checks, reachable on a built-in profile).
func TestNoBucketBindingKeepsTheTargetKind(t *testing.T) {
	cat := testCatalog(t)
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat, Profile: "no-bucket-binding"})
	w := &world{t: t, c: newClient(t, sim.URL, "sim-primary"), cat: cat, space: "prod"}
	w.create(kWorker, "api", map[string]any{}).status(201)
	w.bundle("b1", allHandlers)
	w.create(kBucket, "media", map[string]any{}).status(201)
	w.c.do("GET", api+"/support/bindings/module-worker.object-bucket/1.0.0", nil, nil).refused("resource_not_found", 404)
	w.read(kBucket, "media").status(200)
	bucket := map[string]any{"bucketBindings": binding(w, kBucket, "MEDIA", "media")}
	broken(t, sim, "bindings.unchecked,kind="+kVersion, func() {
		w.version("vbkt", "api", "b1", []string{"fetch"}, bucket).refused("unsupported_capability", 422)
	}, func() {
		w.version("vbkt", "api", "b1", []string{"fetch"}, bucket).status(201)
		w.del(kVersion, "vbkt", 1).status(204)
	})
}
