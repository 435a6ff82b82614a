package hostview

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/fault"
	"github.com/takokit/takokit/hostsim/internal/journal"
	"github.com/takokit/takokit/hostsim/internal/profile"
	"github.com/takokit/takokit/hostsim/internal/related"
	"github.com/takokit/takokit/hostsim/internal/render"
	"github.com/takokit/takokit/hostsim/internal/sqldb"
	"github.com/takokit/takokit/hostsim/internal/store"
	"github.com/takokit/takokit/hostsim/internal/transition"
)

// The crash point an operation reached, from what the ledger durably shows.
func TestReached(t *testing.T) {
	for _, tc := range []struct {
		status             string
		dispatched, backed bool
		receipt            bool
		point, terminal    string
	}{
		{status: "prepared", point: "A"},
		{status: "prepared", backed: true, point: "A"}, // evidence without the fence is not C
		{status: "prepared", dispatched: true, point: "B"},
		{status: "prepared", dispatched: true, backed: true, point: "C"},
		{status: "proven", dispatched: true, backed: true, point: "D"},
		{status: "proven", dispatched: true, backed: true, receipt: true, point: "E"},
		{status: "committed", dispatched: true, backed: true, receipt: true, point: "E", terminal: "committed"},
		{status: "rejected", point: "A", terminal: "rejected"},
		{status: "rejected", dispatched: true, point: "B", terminal: "rejected"},
		{status: "rejected", dispatched: true, backed: true, point: "C", terminal: "rejected"},
	} {
		p, term := Reached(transition.OpState{Status: tc.status, DispatchAttempted: tc.dispatched}, tc.backed, tc.receipt)
		if p != tc.point || term != tc.terminal {
			t.Errorf("%+v: reached %s %q, want %s %q", tc, p, term, tc.point, tc.terminal)
		}
	}
}

// An event names its resource by uid when it carries one, else by kind and
// name (a request's from its path, a fault's from its resource).
func TestEventSubject(t *testing.T) {
	ev := func(typ string, data any) journal.Event {
		b, _ := json.Marshal(data)
		return journal.Event{Type: typ, Data: b}
	}
	r := &Resource{Tenant: "tenant-a", Space: "prod", Kind: "AtLeastOnceQueue", Name: "orders", UID: "u-2"}
	for _, tc := range []struct {
		ev    journal.Event
		want  Subject
		names bool
	}{
		{ev("mutation", map[string]any{"tenant": "tenant-a", "space": "prod", "kind": "AtLeastOnceQueue", "name": "orders", "uid": "u-2"}),
			Subject{"tenant-a", "prod", "AtLeastOnceQueue", "orders", "u-2"}, true},
		{ev("mutation", map[string]any{"kind": "AtLeastOnceQueue", "name": "orders", "uid": "u-1"}),
			Subject{Kind: "AtLeastOnceQueue", Name: "orders", UID: "u-1"}, false}, // another incarnation
		{ev("request", map[string]any{"tenant": "tenant-a", "path": "/apis/x/v1/resources/g.example/v1/AtLeastOnceQueue/orders/observe"}),
			Subject{Tenant: "tenant-a", Kind: "AtLeastOnceQueue", Name: "orders"}, true},
		{ev("request", map[string]any{"tenant": "tenant-a", "path": "/apis/x/v1/support/forms"}), Subject{Tenant: "tenant-a"}, false},
		{ev("fault", map[string]any{"kind": "AtLeastOnceQueue", "resource": "orders"}),
			Subject{Kind: "AtLeastOnceQueue", Name: "orders"}, true},
		{ev("fault", map[string]any{"kind": "AtLeastOnceQueue", "resource": "orders", "tenant": "tenant-b"}),
			Subject{Tenant: "tenant-b", Kind: "AtLeastOnceQueue", Name: "orders"}, false},
	} {
		s := EventSubject(tc.ev)
		if s != tc.want || s.Names(r) != tc.names {
			t.Errorf("%s %s: subject %+v names %v; want %+v, %v", tc.ev.Type, tc.ev.Data, s, s.Names(r), tc.want, tc.names)
		}
	}
	if StepName(ev("transition", map[string]string{"step": " B:dispatch-fence "})) != "B:dispatch-fence" {
		t.Error("StepName does not read the step")
	}
}

// What a profile refuses compared with full: one clause per statement full
// does not make, nothing for full itself.
func TestRefusals(t *testing.T) {
	load := func(name string) *profile.Profile {
		p, err := profile.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	full := load("full")
	if r := Refusals(full, full); len(r) != 0 {
		t.Fatalf("full refuses %v compared with itself", r)
	}
	kv := Refusals(load("kv-only"), full)
	if !slices.ContainsFunc(kv, func(s string) bool { return strings.Contains(s, "forms") && strings.Contains(s, "AtLeastOnceQueue") }) {
		t.Fatalf("kv-only: %v; want a clause excluding AtLeastOnceQueue", kv)
	}
	tight := Refusals(load("tight-limits"), full)
	if !slices.ContainsFunc(tight, func(s string) bool { return strings.Contains(s, "messageRetentionSeconds") }) {
		t.Fatalf("tight-limits: %v; want its queue retention range", tight)
	}
}

// newSource is a Source over a fresh in-memory store, hostsim's embedded
// catalog under the full profile, with no Form transition ledger.
func newSource(t *testing.T) (*Source, *store.Store) {
	t.Helper()
	return newSourceOf(t, "full")
}

// newSourceOf is newSource under the named profile.
func newSourceOf(t *testing.T, profileName string) (*Source, *store.Store) {
	t.Helper()
	cat, err := catalog.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	p, err := profile.Load(profileName)
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open("")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	host := profile.Resolve(p, cat)
	now := func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }
	j := journal.New(st, now)
	t.Cleanup(j.Close)
	armory, err := fault.NewArmory(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	g := related.New(host)
	return &Source{Store: st, Host: host, Armory: armory, Journal: j, Renderer: &render.Renderer{Host: host, G: g, Now: now}, Now: now,
		DBs: sqldb.NewRegistry("")}, st
}

// storedResource is a live, Available resource of Form f named name in
// tenant-a's space prod at generation and revision 1, for a test to edit and
// insertResource.
func storedResource(f *catalog.Form, name, uid, spec string) *store.Resource {
	return &store.Resource{Tenant: "tenant-a", Space: "prod", APIVersion: f.Ref.APIVersion, Kind: f.Ref.Kind, Name: name, UID: uid,
		DefVersion: f.Ref.DefinitionVersion, SchemaDigest: f.Ref.SchemaDigest, Generation: 1, Revision: 1,
		Spec: []byte(spec), SpecDigest: wire.RawDigest([]byte(spec)), ReadyStatus: wire.StatusTrue, ReadyReason: wire.ReasonAvailable,
		ReadyLTT: "2026-01-02T03:04:05Z", CreatedAt: "2026-01-02T03:04:05Z"}
}

// insertResource writes r to st.
func insertResource(t *testing.T, st *store.Store, r *store.Resource) {
	t.Helper()
	if err := st.Write(context.Background(), func(q store.Q) error { return store.InsertResource(q, r) }); err != nil {
		t.Fatal(err)
	}
}

// formOf is the newest Form of kind in the source's catalog.
func formOf(t *testing.T, src *Source, kind string) *catalog.Form {
	t.Helper()
	var found *catalog.Form
	for _, f := range src.Host.Cat.Forms() {
		if f.Ref.Kind == kind {
			found = f
		}
	}
	if found == nil {
		t.Fatalf("no %s in the catalog", kind)
	}
	return found
}

// Counters are read from the store: the named ones, backend calls per
// operation and firings per fault.
func TestCountersAndResources(t *testing.T) {
	src, st := newSource(t)
	queue := formOf(t, src, "AtLeastOnceQueue")
	err := st.Write(context.Background(), func(q store.Q) error {
		for name, v := range map[string]int64{"mutations": 3, "requests": 7, "dispatch:formtx_1": 1, fault.FiredCounter + "fence.ignore": 2,
			fault.FiredCounter + "transition.crash=B": 1} {
			if err := store.AddCounter(q, name, v); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	r := storedResource(queue, "orders", "u-1", `{"deliveryDelaySeconds":0,"messageRetentionSeconds":345600}`)
	r.Generation, r.Revision = 2, 3
	insertResource(t, st, r)
	c, err := src.Counters(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if c.Mutations != 3 || c.Requests != 7 || c.Dispatch["formtx_1"] != 1 || c.Fired["fence.ignore"] != 2 || c.Fired["transition.crash=B"] != 1 {
		t.Fatalf("counters %+v", c)
	}
	rs, err := src.Resources(context.Background())
	if err != nil || len(rs) != 1 {
		t.Fatalf("resources: %v %v", rs, err)
	}
	if r := rs[0]; r.Name != "orders" || r.Generation != 2 || r.Revision != 3 || r.Ready().Status != wire.StatusTrue || r.Served == nil {
		t.Fatalf("resource %+v, Ready %+v", r, r.Ready())
	}
	if ft := FaultTable(); len(ft) != len(fault.Table) || &ft[0] == &fault.Table[0] {
		t.Fatal("FaultTable is not a copy of the table")
	}
}
