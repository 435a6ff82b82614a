package transition_test

import (
	"encoding/json"
	"sort"
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim"
)

// TestEveryDeclaredTransitionCommits moves a resource along every transition
// the built-in catalog declares (creating what it references first): the
// receipt and later reads carry toForm's outputs, and the relation pins stay
// (the target cannot be deleted while the transitioned resource references it).
func TestEveryDeclaredTransitionCommits(t *testing.T) {
	cat, err := catalog.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	declared := map[string]bool{}
	for _, tr := range cat.Transitions() {
		declared[tr.Marker] = true
		if _, ok := coveredElsewhere[tr.Marker]; ok {
			continue
		}
		from, _ := cat.Form(tr.From)
		to, _ := cat.Form(tr.To)
		t.Run(tr.Marker, func(t *testing.T) {
			e := newEnvWith(t, hostsim.Config{}, tr, from, to)
			before := e.read(from)
			req := e.request()
			r := e.post(req, nil)
			e.verifyCommitted(r, req.OperationID, 1)
			var rc struct {
				Resource struct {
					Status struct {
						Outputs map[string]any `json:"outputs"`
					} `json:"status"`
				} `json:"resource"`
			}
			_ = json.Unmarshal(r.body, &rc)
			if got, want := keys(rc.Resource.Status.Outputs), outputNames(to); got != want {
				t.Fatalf("receipt outputs %s, want toForm's %s", got, want)
			}
			if want := outputNames(to); want != "" {
				if err := to.ValidateOutputs(rc.Resource.Status.Outputs); err != nil {
					t.Fatalf("receipt outputs do not validate under %s: %v", to.Ref, err)
				}
			}
			if before.status != 200 {
				t.Fatalf("read before: %d", before.status)
			}
			for _, rel := range from.Relations {
				var spec map[string]any
				_ = json.Unmarshal(from.Fixtures[0].Desired, &spec)
				node, ok := spec[strings.TrimPrefix(rel.Pointer, "/")].(map[string]any)
				if !ok {
					continue
				}
				k, _ := cat.Kind(rel.TargetAPIVersion, rel.TargetKind)
				target := k.DefaultCreate()
				q := "?" + strings.ReplaceAll(wire.ExactQuery(e.space, target.Ref).Encode(), "+", "%20")
				d := e.do("DELETE", resPathOf(target, node["name"].(string))+q,
					map[string]string{"Idempotency-Key": "del-target", "Takoform-Expected-Generation": "1"}, nil)
				expectErr(t, d, wire.CodeDependencyInUse, "")
			}
		})
	}
	for marker := range coveredElsewhere {
		if !declared[marker] {
			t.Errorf("coveredElsewhere names %s, which the catalog no longer declares", marker)
		}
	}
}

// coveredElsewhere names the declared transitions whose from-Form needs a
// world this test's environment cannot build from fixtures (a worker with an
// active deployment serving its handler), and where each is moved through a host.
var coveredElsewhere = map[string]string{
	"worker-endpoint-0.1-to-0.2": "scenario outputs_follow_recorded_ref and the provider's transition tests run it through the whole worker stack",
}

func keys(m map[string]any) string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return strings.Join(out, ",")
}

func outputNames(f *catalog.Form) string {
	var out []string
	for _, o := range f.Outputs {
		out = append(out, o.Wire)
	}
	sort.Strings(out)
	return strings.Join(out, ",")
}
