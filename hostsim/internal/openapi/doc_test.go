package openapi

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/reftest"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/hostsimtest/openapicheck"
)

// valid checks doc is OpenAPI 3.1 that libopenapi builds and its validator accepts.
func valid(t *testing.T, doc []byte) {
	t.Helper()
	if _, err := openapicheck.Read(doc); err != nil {
		t.Error(err)
	}
}

// The document of every catalog takokit serves is valid OpenAPI 3.1: the project's
// catalog of each lane and each lane's published family, whose schemas carry $defs.
func TestDocumentOfEveryCatalogIsValid(t *testing.T) {
	cats := map[string]*catalog.Catalog{}
	for _, lane := range wire.Lanes() {
		c, err := catalog.EmbeddedLane(lane)
		if err != nil {
			t.Fatal(err)
		}
		cats["project "+lane.Name] = c
		pub, err := catalog.Load(os.DirFS(reftest.Lane(t, lane)))
		if err != nil {
			t.Fatal(err)
		}
		cats["published "+lane.Name] = pub
	}
	for name, c := range cats {
		t.Run(name, func(t *testing.T) {
			doc, err := Document(c.Lane(), c.Forms(), "/_sim", []AdminRoute{{Method: "GET", Path: "/operations/*/complete", Summary: "x"}})
			if err != nil {
				t.Fatal(err)
			}
			valid(t, doc)
			var d struct {
				Paths      map[string]any `json:"paths"`
				Components struct {
					Schemas map[string]any `json:"schemas"`
				} `json:"components"`
			}
			if err := json.Unmarshal(doc, &d); err != nil {
				t.Fatal(err)
			}
			for _, f := range c.Forms() {
				for _, part := range []string{".spec", ".request", ".resource", ".prepared"} {
					if _, ok := d.Components.Schemas[formName(f)+part]; !ok {
						t.Errorf("%s has no %s schema", f.Ref, part)
					}
				}
				if _, ok := d.Components.Schemas[formName(f)+".outputs"]; ok != f.HasOutputs() {
					t.Errorf("%s: an outputs schema %v, declares outputs %v", f.Ref, ok, f.HasOutputs())
				}
			}
			if strings.Contains(string(doc), `"#/$defs/`) {
				t.Error("a local $defs reference was left pointing nowhere")
			}
			if _, ok := d.Paths[c.Lane().DiscoveryPath]; !ok || len(d.Paths) != countPaths(c.Lane())+1 {
				t.Errorf("%d paths, want every route of the lane and the admin one", len(d.Paths))
			}
		})
	}
}

func countPaths(l *wire.Lane) int {
	seen := map[string]bool{}
	for _, r := range wire.Routes {
		seen[r.On(l)] = true
	}
	return len(seen)
}
