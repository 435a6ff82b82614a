package hostsim_test

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"github.com/takokit/takokit/hostsim"
	"github.com/takokit/takokit/hostsim/hostsimtest"
	"github.com/takokit/takokit/hostsim/internal/hostview"
	"github.com/takokit/takokit/hostsim/internal/transition"
)

// A resource's typed outputs pair each declared output with its served
// value, and its events are found by uid (mutations) and by kind and name
// (requests), not those of another resource.
func TestStateTypedOutputsAndResourceEvents(t *testing.T) {
	cat := testCatalog(t)
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat})
	st := sim.Host.State()
	c := newClient(t, sim.URL, "sim-primary")
	f, spec := endpointWorld(t, c, cat, "prod")
	c.create(f, "edge", "prod", spec).status(201)
	c.read(f, "edge", "prod").status(200)
	x, err := st.Resource(context.Background(), "tenant-a", "prod", f.Ref.APIVersion, f.Ref.Kind, "edge")
	if err != nil || x == nil {
		t.Fatalf("resource edge: %v %v", x, err)
	}
	outs := st.TypedOutputs(x)
	if len(outs) != len(f.Outputs) {
		t.Fatalf("typed outputs %+v, want the %d declared", outs, len(f.Outputs))
	}
	for i, o := range outs {
		if o.Name != f.Outputs[i].Wire || o.Type != f.Outputs[i].Type || !o.Present || o.Served != o.Type {
			t.Fatalf("output %d: %+v, declared %+v", i, o, f.Outputs[i])
		}
	}
	evs := st.ResourceEvents(x, st.LastEvent(), 100)
	var types []string
	for _, ev := range evs {
		types = append(types, ev.Type)
		if s := hostview.EventSubject(ev); s.Name != "edge" {
			t.Fatalf("event %d names %+v, not edge", ev.Seq, s)
		}
	}
	if !slices.Contains(types, "mutation") || !slices.Contains(types, "request") {
		t.Fatalf("events of edge: %v, want its mutation and its requests", types)
	}
	if last := st.LastEvent(); last == 0 || st.Follow(last, 10) == nil || len(st.Follow(last, 10)) != 0 {
		t.Fatalf("LastEvent %d: nothing may follow the newest event", last)
	}
	if got := st.RecentEvents(st.LastEvent(), 3, nil); len(got) != 3 || got[2].Seq != st.LastEvent() || got[0].Seq >= got[1].Seq {
		t.Fatalf("the newest three events, oldest first: %+v", got)
	}
	if !slices.Contains(st.Kinds(), f.Ref.Kind) {
		t.Fatalf("kinds %v lack %s", st.Kinds(), f.Ref.Kind)
	}
}

// The transition ledger view: a committed operation reached E with one
// backend call, a proof and a receipt; one crashed after C holds its claim
// and has no proof.
func TestStateTransitionLedger(t *testing.T) {
	cat := testCatalog(t)
	tr, from, to := standalonePair(t, cat)
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat})
	c := newClient(t, sim.URL, "sim-primary")
	if resp := postTransition(t, c, tr, from, to, "moved"); resp == nil || resp.StatusCode != 200 {
		t.Fatalf("transition of moved: %v", resp)
	}
	arm(t, sim, "transition.crash=C,count=1")
	if resp := postTransition(t, c, tr, from, to, "crashed"); resp != nil {
		t.Fatalf("transition.crash=C answered HTTP %d", resp.StatusCode)
	}
	arm(t, sim, "transition.crash=E,count=1")
	if resp := postTransition(t, c, tr, from, to, "advanced"); resp != nil {
		t.Fatalf("transition.crash=E answered HTTP %d", resp.StatusCode)
	}
	l, err := sim.Host.State().TransitionLedger(context.Background())
	if err != nil || len(l.Transitions) != 3 {
		t.Fatalf("ledger %+v %v", l, err)
	}
	byName := map[string]hostview.Transition{}
	for _, x := range l.Transitions {
		byName[x.Name] = x
	}
	moved, crashed, advanced := byName["moved"], byName["crashed"], byName["advanced"]
	if moved.Reached != "E" || moved.Terminal != "committed" || moved.Dispatches != 1 || moved.Holding ||
		moved.Proof == nil || moved.Receipt == nil || len(moved.Steps) == 0 || hostview.StepName(moved.Steps[0]) != "A:claim" {
		t.Fatalf("committed transition: %+v", moved)
	}
	if crashed.Reached != "C" || crashed.Terminal != "" || !crashed.Holding || crashed.Proof != nil || crashed.Dispatches != 1 {
		t.Fatalf("transition crashed after C: %+v", crashed)
	}
	// after E the resource advanced (its claim released) and the receipt is
	// kept, but the operation is not committed: E, from the receipt
	if advanced.Reached != "E" || advanced.Terminal != "" || advanced.Receipt == nil || advanced.Holding {
		t.Fatalf("transition crashed after E: %+v", advanced)
	}
	// each operation's steps: its own transition events, in journal order
	for _, x := range l.Transitions {
		for i, ev := range x.Steps {
			var d struct {
				OperationID string `json:"operationId"`
			}
			_ = json.Unmarshal(ev.Data, &d)
			if ev.Type != "transition" || d.OperationID != x.OperationID || (i > 0 && ev.Seq <= x.Steps[i-1].Seq) {
				t.Fatalf("%s: step %d is %s %s (#%d)", x.Name, i, ev.Type, ev.Data, ev.Seq)
			}
		}
	}
	var claimed []string
	for _, cl := range l.Claims {
		claimed = append(claimed, cl.Name+" "+cl.OperationID)
	}
	slices.Sort(claimed)
	if want := []string{"crashed " + crashed.OperationID}; !slices.Equal(claimed, want) {
		t.Fatalf("claims %q, want %q", claimed, want)
	}
}

// Reached reads the last crash point from what the ledger durably shows.
func TestReachedFollowsTheLedger(t *testing.T) {
	for _, c := range []struct {
		op                  transition.OpState
		backend, receipt    bool
		point, terminalWant string
	}{
		{transition.OpState{Status: "prepared"}, false, false, "A", ""},
		{transition.OpState{Status: "prepared", DispatchAttempted: true, AwaitingEvidence: true}, false, false, "B", ""},
		{transition.OpState{Status: "prepared", DispatchAttempted: true}, true, false, "C", ""},
		{transition.OpState{Status: "proven", DispatchAttempted: true}, true, false, "D", ""},
		{transition.OpState{Status: "proven", DispatchAttempted: true}, true, true, "E", ""},
		{transition.OpState{Status: "committed", DispatchAttempted: true}, true, true, "E", "committed"},
		{transition.OpState{Status: "rejected", DispatchAttempted: true}, true, false, "C", "rejected"},
		{transition.OpState{Status: "rejected", DispatchAttempted: true}, false, false, "B", "rejected"},
	} {
		p, term := hostview.Reached(c.op, c.backend, c.receipt)
		if p != c.point || term != c.terminalWant {
			t.Errorf("%+v backend=%v receipt=%v: reached %s %q, want %s %q", c.op, c.backend, c.receipt, p, term, c.point, c.terminalWant)
		}
	}
}

// GET /_sim/refusals answers the same clauses as State().Refusals.
func TestAdminRefusals(t *testing.T) {
	sim := hostsimtest.Start(t, hostsim.Config{Profile: "kv-only"})
	c := newClient(t, sim.URL, "")
	var got struct {
		Profile string   `json:"profile"`
		Refuses []string `json:"refuses"`
	}
	if err := json.Unmarshal(c.do("GET", "/_sim/refusals", nil, nil).status(200).body, &got); err != nil {
		t.Fatal(err)
	}
	want, err := sim.Host.State().Refusals()
	if err != nil || got.Profile != "kv-only" || len(want) == 0 || !slices.Equal(got.Refuses, want) {
		t.Fatalf("/_sim/refusals %+v, State().Refusals %v %v", got, want, err)
	}
	full := hostsimtest.Start(t, hostsim.Config{})
	if b := newClient(t, full.URL, "").do("GET", "/_sim/refusals", nil, nil).status(200).body; string(b) != `{"profile":"full","refuses":[]}` {
		t.Fatalf("full refuses %s", b)
	}
	// Tightened bundle ceilings are refusals compared with full's portable ones.
	tight := hostsimtest.Start(t, hostsim.Config{Profile: "tight-limits"})
	b := newClient(t, tight.URL, "").do("GET", "/_sim/refusals", nil, nil).status(200).body
	for _, clause := range []string{"limits.StaticAssetBundle.maximumBundleFiles=16", "limits.SQLiteMigrationSet.maximumBundleBytes=1048576", "limits.WorkerBundle.maximumBundleFiles=16"} {
		if !contains(b, clause) {
			t.Fatalf("tight-limits refusals lack %s: %s", clause, b)
		}
	}
}
