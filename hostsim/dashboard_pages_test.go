package hostsim_test

import (
	"context"
	"fmt"
	"html"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/takokit/takokit/hostsim"
	"github.com/takokit/takokit/hostsim/hostsimtest"
	"github.com/takokit/takokit/hostsim/internal/fault"
)

// The Host page: the profile, the same refusals GET /_sim/refusals answers,
// the counters and the newest events.
func TestDashboardHostPage(t *testing.T) {
	cat := testCatalog(t)
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat, Profile: "kv-only"})
	c := newClient(t, sim.URL, "sim-primary")
	f := kindForm(t, cat, kKV)
	c.create(f, "orders", "prod", fixture(t, f)).status(201)
	refuses, err := sim.Host.State().Refusals()
	if err != nil || len(refuses) == 0 {
		t.Fatalf("kv-only refuses %v %v", refuses, err)
	}
	n, _ := sim.Admin.Counters()
	p := newBrowser(t, sim).get("/").status(200).has("<h1>Host</h1>", "Profile <code>kv-only</code>",
		`id="c-mutations">1<`, fmt.Sprintf(`id="c-requests">%d<`, n.Requests), "created "+f.Ref.Kind+" orders in tenant-a/prod")
	for _, r := range refuses {
		p.has("<code>" + html.EscapeString(r) + "</code>")
	}
	p.has(fmt.Sprintf("It installs %d of the catalog's %d Forms.", sim.Host.State().Installed().Forms, len(cat.Forms())))
	full := hostsimtest.Start(t, hostsim.Config{Catalog: cat})
	kinds := map[string]bool{}
	for _, f := range cat.Forms() {
		kinds[f.Ref.APIVersion+"/"+f.Ref.Kind] = true
	}
	newBrowser(t, full).get("/").status(200).has(fmt.Sprintf("Nothing: this host carries the whole catalog, %d Forms of %d kinds.", len(cat.Forms()), len(kinds)), "No events yet.")
	// a profile that includes only some kinds refuses the rest; it does not
	// claim the whole catalog
	include := filepath.Join(t.TempDir(), "include.json")
	os.WriteFile(include, []byte(`{"name": "include", "extends": "full", "forms": {"include": ["WorkerBundle"]}}`), 0o644)
	some := hostsimtest.Start(t, hostsim.Config{Catalog: cat, Profile: include})
	newBrowser(t, some).get("/").status(200).has("<code>forms included only: WorkerBundle</code>").lacks("whole catalog")
}

// The Resources page lists each resource with identity, Ready and typed
// outputs; its page adds conditions, spec, relation pins and its events.
func TestDashboardResourcesAndResourcePage(t *testing.T) {
	cat := testCatalog(t)
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat})
	c := newClient(t, sim.URL, "sim-primary")
	f, spec := endpointWorld(t, c, cat, "prod")
	served := c.create(f, "edge", "prod", spec).status(201).json()
	uid := served["metadata"].(map[string]any)["uid"].(string)
	outputs := served["status"].(map[string]any)["outputs"].(map[string]any)
	b := newBrowser(t, sim)
	list := b.get("/resources").status(200).has("Tenant <code>tenant-a</code> · space <code>prod</code>")
	row := list.row(`data-resource="` + f.Ref.Kind + `/edge"`)
	for _, want := range []string{uid, f.Ref.DefinitionVersion, `<span class="badge ok">True</span>`, "Available"} {
		if !strings.Contains(row, want) {
			t.Fatalf("the row of edge lacks %q:\n%s", want, row)
		}
	}
	for _, o := range f.Outputs {
		v := fmt.Sprint(outputs[o.Wire])
		if o.Type == "string" {
			v = `&#34;` + v + `&#34;`
		}
		if !strings.Contains(row, "<dt>"+o.Wire+"</dt>") || !strings.Contains(row, ">"+v+"</code>") || !strings.Contains(row, ">"+o.Type+"</span>") {
			t.Fatalf("the row of edge does not show output %s = %s (%s):\n%s", o.Wire, v, o.Type, row)
		}
	}
	link := regexpFind(t, row, `href="(`+ui+`/resources/[^"]+)"`)
	one := b.do("GET", link, nil, nil).status(200).has("<h1>"+f.Ref.Kind+" edge</h1>", uid, f.Ref.SchemaDigest,
		"<h2>Conditions</h2>", "<h2>Relation pins</h2>", "/worker", "<h2>Spec", "created "+f.Ref.Kind+" edge in tenant-a/prod")
	one.lacks("This resource holds no relation pins.")
	// a pin links to its target's page
	target := regexpFind(t, one.html, `<a href="(`+ui+`/resources/[^"]+)">ModuleWorker`)
	b.do("GET", target, nil, nil).status(200).has("ModuleWorker")
}

// A resource that does not exist, an address that is no resource and an
// unknown page are 404 pages with the navigation, never a 500.
func TestDashboardUnknownResourceIs404(t *testing.T) {
	sim := hostsimtest.Start(t, hostsim.Config{})
	b := newBrowser(t, sim)
	b.get("/resources/tenant-a/prod/edge.forms.takokit.dev/v1alpha1/WorkerEndpoint/nope").status(404).
		has("<h1>Not found</h1>", "No WorkerEndpoint &#34;nope&#34; is stored in tenant tenant-a, space prod", `href="/_sim/ui/resources"`)
	b.get("/resources/just-one").status(404).has("is not a resource address")
	b.get("/no-such-page").status(404).has("No dashboard page at /_sim/ui/no-such-page.")
	b.do("DELETE", ui+"/faults", nil, nil).status(405).has("Method not allowed")
	b.do("GET", ui, nil, nil).status(200).has("<h1>Host</h1>") // /_sim/ui redirects to /_sim/ui/
}

// A pending operation is completed or failed from the Operations page.
func TestDashboardOperations(t *testing.T) {
	cat := testCatalog(t)
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat, ConformanceProbes: true})
	c := newClient(t, sim.URL, "sim-primary")
	f := updatable(t, cat)
	var ids []string
	for _, name := range []string{"later", "never"} {
		pd := c.prepare(f, name, "prod", fixture(t, f), 0)
		b := body(f, name, "prod", fixture(t, f), map[string]any{"review": map[string]any{"prepareDigest": pd}})
		op := c.do("PUT", resPath(f, name), map[string]string{"If-None-Match": "*", "Idempotency-Key": newKey(),
			"Takoform-Conformance-Probe": "async"}, b).status(202).json()["operation"].(map[string]any)
		ids = append(ids, op["id"].(string))
	}
	b := newBrowser(t, sim)
	p := b.get("/operations").status(200)
	for _, id := range ids {
		p.row(`data-op="` + id + `"`)
	}
	b.submit("/operations", "/operations/"+ids[0]+"/complete", url.Values{"outcome": {"complete"}}).status(200).
		has("Operation completed")
	c.read(f, "later", "prod").status(200)
	b.submit("/operations", "/operations/"+ids[1]+"/complete", url.Values{"outcome": {"fail"}, "code": {"nonsense"}}).status(400).
		has("is not one of the 26 error codes")
	b.submit("/operations", "/operations/"+ids[1]+"/complete", url.Values{"outcome": {"fail"}, "code": {"backend_unavailable"}}).status(200).
		has("Operation failed")
	c.read(f, "never", "prod").status(404)
	b.get("/operations").status(200).has("No operation is pending.").lacks("No operation has finished yet.")
	if row := b.get("/operations").row(`data-op="` + ids[1] + `"`); !strings.Contains(row, "backend_unavailable") || !strings.Contains(row, "Failed") {
		t.Fatalf("the failed operation's row: %s", row)
	}
	// no form is left on the page; the token of another page is the browser's all the same
	b.submit("/faults", "/operations/"+ids[0]+"/complete", url.Values{"outcome": {"complete"}}).status(409).
		has("Nothing changed: operation " + ids[0] + " already finished (Succeeded).")
	b.submit("/faults", "/operations/op_unknown/complete", url.Values{"outcome": {"complete"}}).status(404).
		has("Nothing changed: this host holds no operation op_unknown.")
}

// The Form transitions page shows the ledger: crash points reached, backend
// calls, claims, proof and receipt.
func TestDashboardTransitions(t *testing.T) {
	cat := testCatalog(t)
	tr, from, to := standalonePair(t, cat)
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat})
	c := newClient(t, sim.URL, "sim-primary")
	b := newBrowser(t, sim)
	b.get("/transitions").status(200).has("No Form transition has been requested.")
	if resp := postTransition(t, c, tr, from, to, "moved"); resp == nil || resp.StatusCode != 200 {
		t.Fatalf("transition of moved: %v", resp)
	}
	arm(t, sim, "transition.crash=C,count=1")
	if resp := postTransition(t, c, tr, from, to, "crashed"); resp != nil {
		t.Fatalf("transition.crash=C answered HTTP %d", resp.StatusCode)
	}
	l, err := sim.Host.State().TransitionLedger(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	p := b.get("/transitions").status(200)
	for _, x := range l.Transitions {
		row := p.row(`data-op="` + x.OperationID + `"`)
		want := []string{"reached <b>C</b>", `<span class="badge warn">held</span>`, `<li class="reached" title="C: backend">C</li>`}
		if x.Name == "moved" {
			want = []string{"reached <b>E</b>, committed", "released", `<li class="reached" title="E: advance">E</li>`, `<span class="badge ok">committed</span>`}
		}
		for _, w := range append(want, `<td class="num">1</td>`) {
			if !strings.Contains(row, w) {
				t.Fatalf("the ledger row of %s lacks %q:\n%s", x.Name, w, row)
			}
		}
	}
	p.has("&#34;transitionProof&#34;", "<h2>Claims held</h2>", "No receipt kept (point E not reached).", "A:claim", "C:backend")
}

// The Faults page lists every definition with its effect, arms one with its
// scope, count and value, shows the fired count, refuses a bad one with the
// reason, and disarms.
func TestDashboardFaults(t *testing.T) {
	cat := testCatalog(t)
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat})
	c := newClient(t, sim.URL, "sim-primary")
	f, spec := endpointWorld(t, c, cat, "prod")
	c.create(f, "edge", "prod", spec).status(201)
	b := newBrowser(t, sim)
	p := b.get("/faults").status(200).has("No fault is armed")
	for _, r := range fault.Table {
		p.has(`<tr id="def-`+r.Name+`">`, html.EscapeString(r.Effect))
	}
	b.get("/faults?arm=latency").status(200).has(`<option value="latency" data-value="required" selected>`)
	bad := []url.Values{
		{"fault": {"latency"}},
		{"fault": {"no.such-fault"}},
		{"fault": {"outputs.omit"}, "count": {"two"}},
		{"fault": {"fence.ignore"}, "value": {"x"}},
		{"fault": {"outputs.omit"}, "kind": {"not a kind"}},
		{"fault": {"outputs.omit"}, "route": {"not-a-route"}},
	}
	for _, form := range bad {
		b.submit("/faults", "/faults", form).status(400).has("Nothing armed: ")
	}
	if armed, _ := sim.Host.State().Faults(); len(armed) != 0 {
		t.Fatalf("a refused form armed %+v", armed)
	}
	b.submit("/faults", "/faults", url.Values{"fault": {"outputs.omit"}, "kind": {f.Ref.Kind}, "resource": {"edge"},
		"count": {"5"}, "value": {f.Outputs[0].Wire}}).status(200).has("Fault armed.")
	c.read(f, "edge", "prod").status(200)
	row := b.get("/faults").status(200).has("fault outputs.omit=" + f.Outputs[0].Wire).row(`data-fault="outputs.omit"`)
	for _, w := range []string{"runtime", "kind " + f.Ref.Kind + " name edge", `<td class="num">5</td>`, `<td class="num fired hot">1</td>`} {
		if !strings.Contains(row, w) {
			t.Fatalf("the armed row lacks %q:\n%s", w, row)
		}
	}
	b.submit("/faults", "/faults/disarm", url.Values{}).status(200).has("Run-time faults disarmed", "No fault is armed")

	// A fault scoped to one route fires on that route only.
	b.submit("/faults", "/faults", url.Values{"fault": {"outputs.omit"}, "resource": {"edge"}, "route": {"apply"},
		"value": {f.Outputs[0].Wire}}).status(200).has("Fault armed.")
	c.read(f, "edge", "prod").status(200)
	row = b.get("/faults").status(200).row(`data-fault="outputs.omit"`)
	if !strings.Contains(row, "name edge route apply") {
		t.Fatalf("the armed row does not show its route scope:\n%s", row)
	}
	if armed, _ := sim.Host.State().Faults(); len(armed) != 1 || armed[0].Spec.Route != "apply" || armed[0].Fired != 0 {
		t.Fatalf("a read fired the apply-scoped fault, or it was armed wrong: %+v", armed)
	}
}
