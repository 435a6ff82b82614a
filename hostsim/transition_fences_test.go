package hostsim_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/takokit/takokit/hostsim"
	"github.com/takokit/takokit/hostsim/hostsimtest"
	"github.com/takokit/takokit/hostsim/internal/transition"
)

// A Form transition's claim checks the generation fence and If-Match with
// the lane's own fences (docs/protocol.md#fences, #transitions): the same
// refusals, and the same faults break them — fence.ignore lets a stale
// expected.generation claim, ifmatch.ignore a stale expected.revision.
func TestTransitionFencesAreTheLanesFences(t *testing.T) {
	cat := testCatalog(t)
	tr, from, to := standalonePair(t, cat)
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat})
	c := newClient(t, sim.URL, "sim-primary")
	spec := fixture(t, from)
	n := 0
	// post creates a fresh resource (generation 1, revision 1) and posts its
	// transition expecting generation gen and revision rev.
	post := func(gen, rev int64) *reply {
		t.Helper()
		n++
		name := fmt.Sprintf("fenced-%d", n)
		uid, _, _ := meta(t, c.create(from, name, "prod", spec).status(201))
		req, err := transition.NewRequest(tr, from, to, "prod", name, uid, gen, rev, spec)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(req)
		h := map[string]string{"Idempotency-Key": req.OperationID, "Takoform-Expected-Generation": fmt.Sprint(gen),
			"If-Match": fmt.Sprintf(`"%d"`, rev)}
		return c.do("POST", resPath(from, name)+"/form-transitions?space=prod", h, b)
	}
	stale := func(r *reply, code, what string) {
		t.Helper()
		r.refused(code, 412)
		if !contains(r.body, what) || !contains(r.body, "refresh and re-plan") {
			t.Fatalf("the refusal does not name the stale %s and what to do: %s", what, r.body)
		}
	}
	broken(t, sim, "fence.ignore",
		func() { stale(post(2, 1), "generation_conflict", "is at generation 1") },
		func() { post(2, 1).status(200) })
	broken(t, sim, "ifmatch.ignore",
		func() { stale(post(1, 2), "revision_conflict", "is at revision 1") },
		func() { post(1, 2).status(200) })
	fired, err := sim.Admin.Counters()
	if err != nil {
		t.Fatal(err)
	}
	if fired.Fired["fence.ignore"] != 1 || fired.Fired["ifmatch.ignore"] != 1 {
		t.Fatalf("fired %v; want fence.ignore and ifmatch.ignore once each, at the transitions they let claim", fired.Fired)
	}
}
