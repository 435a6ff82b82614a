package hostsim_test

import (
	"encoding/json"
	"sort"
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/hostsim"
	"github.com/takokit/takokit/hostsim/hostsimtest"
	"github.com/takokit/takokit/hostsim/internal/transition"
)

// TestTransitionsOfReferencingForms moves a resource along every declared
// transition whose from-Form references other resources (the worker world is
// built over HTTP first): the receipt and later reads carry exactly toForm's
// outputs, the old ref reads nothing, and the reference stays pinned.
// Internal transition tests cover the standalone pairs.
func TestTransitionsOfReferencingForms(t *testing.T) {
	cat := testCatalog(t)
	ran := false
	for _, tr := range cat.Transitions() {
		from, ok1 := cat.Form(tr.From)
		to, ok2 := cat.Form(tr.To)
		if !ok1 || !ok2 || len(from.Relations) == 0 || len(from.Fixtures) == 0 {
			continue
		}
		ran = true
		t.Run(tr.Marker, func(t *testing.T) {
			sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat})
			c := newClient(t, sim.URL, "sim-primary")
			spec := fixture(t, from)
			servedTargets(t, c, cat, from, spec, "prod")
			created := c.create(from, "edge", "prod", spec).status(201)
			uid, _, rev := meta(t, created)
			if got := transitionOutputKeys(t, created.body); got != transitionOutputNames(from) {
				t.Fatalf("outputs under %s: %s, want %s", from.Ref, got, transitionOutputNames(from))
			}
			var n int64
			_ = json.Unmarshal([]byte(rev), &n)
			req, err := transition.NewRequest(tr, from, to, "prod", "edge", uid, 1, n, spec)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := json.Marshal(req)
			r := c.do("POST", resPath(from, "edge")+"/form-transitions?space=prod", map[string]string{
				"Idempotency-Key": req.OperationID, "Takoform-Expected-Generation": "1", "If-Match": `"` + rev + `"`}, b).status(200)
			var rc struct{ Resource json.RawMessage }
			_ = json.Unmarshal(r.body, &rc)
			if got := transitionOutputKeys(t, rc.Resource); got != transitionOutputNames(to) {
				t.Fatalf("receipt outputs %s, want toForm's %s", got, transitionOutputNames(to))
			}
			now := c.read(to, "edge", "prod").status(200)
			if got := transitionOutputKeys(t, now.body); got != transitionOutputNames(to) {
				t.Fatalf("outputs after the transition %s, want %s", got, transitionOutputNames(to))
			}
			c.read(from, "edge", "prod").status(404)
			for _, rel := range from.Relations {
				for _, target := range nodesIn(spec, rel.Pointer) {
					k, _ := cat.Kind(rel.TargetAPIVersion, rel.TargetKind)
					c.del(k.DefaultCreate(), target, "prod", 1).status(409)
				}
			}
		})
	}
	if !ran {
		t.Skip("the catalog declares no transition of a Form with references")
	}
}

func transitionOutputKeys(t *testing.T, body []byte) string {
	t.Helper()
	var doc struct {
		Status struct {
			Outputs map[string]any `json:"outputs"`
		} `json:"status"`
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		t.Fatal(err)
	}
	var out []string
	for k := range doc.Status.Outputs {
		out = append(out, k)
	}
	sort.Strings(out)
	return strings.Join(out, ",")
}

func transitionOutputNames(f *catalog.Form) string {
	var out []string
	for _, o := range f.Outputs {
		out = append(out, o.Wire)
	}
	sort.Strings(out)
	return strings.Join(out, ",")
}
