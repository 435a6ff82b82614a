package wire

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// The route table of docs/protocol.md#routes is this table: the same names, methods
// and paths, in the same order.
func TestRoutesAreTheProtocolsTable(t *testing.T) {
	doc, err := os.ReadFile("../../docs/protocol.md")
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile("(?m)^\\| ([a-z-]+) \\| ([A-Z]+) `([^`]+)`")
	var got []string
	for _, m := range row.FindAllStringSubmatch(string(doc), -1) {
		got = append(got, m[1]+" "+m[2]+" "+m[3])
	}
	var want []string
	seen := map[string]bool{}
	for _, r := range Routes {
		if seen[r.Name] {
			t.Errorf("route %s is listed twice", r.Name)
		}
		seen[r.Name] = true
		if !strings.HasPrefix(r.Path, PathAPI) && r.Path != PathDiscovery {
			t.Errorf("route %s: path %q starts with neither placeholder", r.Name, r.Path)
		}
		p := strings.TrimPrefix(r.Path, PathAPI)
		if r.Path == PathDiscovery {
			p = "/.well-known/takoform/{version}"
		}
		want = append(want, r.Name+" "+r.Method+" "+p)
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("docs/protocol.md#routes lists\n%s\nthe table is\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A route's template on a lane fills the placeholder and keeps the parameters.
func TestRouteOnALane(t *testing.T) {
	r, _ := RouteNamed("apply")
	if got := r.On(V1alpha3); got != "/apis/forms.takoform.com/v1alpha3/resources/{group}/{version}/{kind}/{name}" {
		t.Errorf("apply on v1alpha3: %s", got)
	}
	d, _ := RouteNamed("discovery")
	if got := d.On(V1beta1); got != "/.well-known/takoform/v1beta1" {
		t.Errorf("discovery on v1beta1: %s", got)
	}
}
