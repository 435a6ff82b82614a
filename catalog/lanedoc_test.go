package catalog

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/takokit/takokit/catalog/wire"
)

// Each way a lane marker (lane.json, an operation table) can be wrong is its one
// line, and a marker that says nothing readable chooses no lane.
func TestLaneMarkerRules(t *testing.T) {
	line := func(file, ptr, msg string, args ...any) []string {
		return []string{problemLine(file, ptr, msg, args...)}
	}
	for _, c := range []struct {
		name, file, text string
		want             []string
	}{
		{"lane.json not I-JSON", "lane.json", `{"lane": "v1beta1", "lane": "v1beta1"}`,
			line("lane.json", "/lane", `duplicate member name "lane"; every member name in an object must be unique (byte 26)`)},
		{"lane.json with an unknown member", "lane.json", `{"lane": "v2", "extra": 1}`,
			line("lane.json", "/extra", `unknown member "extra"; this object is closed, so remove it or check its spelling`)},
		{"lane.json naming no lane", "lane.json", `{"lane": "v2"}`,
			line("lane.json", "/lane", "unknown lane %q; the known lanes are %s", "v2", wire.KnownLanes())},
		{"an operation table that is no object", "operations-v1beta1.json", `[]`,
			line("operations-v1beta1.json", `""`, "cannot read the operation table: json: cannot unmarshal array into Go value of type struct { Format string \"json:\\\"format\\\"\" }")},
		{"an operation table of another lane's name", "operations-v1beta1.json", `{"format": "takoform.host-api@v1alpha3"}`,
			line("operations-v1beta1.json", "/format", "the operation table of takoform.host-api@v1alpha3 is named operations-v1alpha3.json; rename the file or correct its format")},
	} {
		t.Run(c.name, func(t *testing.T) {
			files := baseCatalog().seal(t)
			files[c.file] = []byte(c.text)
			if got := loadProblems(t, mapFS(files)); !slices.Equal(got, c.want) {
				t.Errorf("problems:\n got %s\nwant %s", strings.Join(got, "\n     "), strings.Join(c.want, "\n     "))
			}
			// the refused marker chose nothing: the lane is still the default
			if lc, _ := LaneOf(mapFS(files)); lc.Lane != wire.DefaultLane || lc.Explicit {
				t.Errorf("lane %v chosen by %q (explicit %v), want the default", lc.Lane.Name, lc.Source, lc.Explicit)
			}
		})
	}
	files := baseCatalog().seal(t)
	files["lane.json"] = []byte(`{"lane": "v1alpha3"}`)
	want := []string{`catalog: lane.json: "": cannot read: open lane.json: permission denied`}
	if got := loadProblems(t, unreadable{mapFS(files), "lane.json"}); !slices.Equal(got, want) {
		t.Errorf("an unreadable lane.json: %q, want %q", got, want)
	}
}

// Without a marker, the lane most Form definitions' families belong to is the
// catalog's, chosen by the first of them by file name; the others are refused,
// each naming its file.
func TestFamilyMajorityChoosesTheLane(t *testing.T) {
	const def = "at-least-once-queue/0.1.0/definition.json"
	defs := laneDefinitions(t, def)
	lanes := wire.Lanes()
	for i, minority := range lanes {
		majority := lanes[len(lanes)-1-i]
		fsys := fstest.MapFS{
			"forms/a/" + def: {Data: defs[minority]},
			"forms/b/" + def: {Data: defs[majority]},
			"forms/c/" + def: {Data: defs[majority]},
		}
		lc, err := LaneOf(fsys)
		if lc.Lane != majority || lc.Source != "the family of forms/b/"+def || !lc.Explicit {
			t.Errorf("a majority of %s after a %s first: lane %v chosen by %q (explicit %v)", majority.Name, minority.Name, lc.Lane.Name, lc.Source, lc.Explicit)
		}
		want := fmt.Sprintf("catalog: forms/a/%s: \"\": belongs to lane %s, but this catalog speaks %s (chosen by the family of forms/b/%s); a catalog serves one lane, so move it into a catalog of its own",
			def, minority.Describe(), majority.APIVersion, def)
		if err == nil || err.Error() != want {
			t.Errorf("a majority of %s: %v\nwant %s", majority.Name, err, want)
		}
	}
}
