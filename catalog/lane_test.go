package catalog

import (
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/takokit/takokit/catalog/wire"
)

// A root without any lane signal speaks the default lane, and says so.
func TestLaneDefaultsWithoutASignal(t *testing.T) {
	c, err := Load(mapFS(baseCatalog().seal(t)))
	if err != nil {
		t.Fatal(err)
	}
	if c.Lane() != wire.DefaultLane || c.LaneChoice().Explicit || !strings.Contains(c.LaneChoice().Source, "default") {
		t.Errorf("lane %v chosen by %q (explicit %v), want the default lane, not explicit", c.Lane(), c.LaneChoice().Source, c.LaneChoice().Explicit)
	}
}

// lane.json and a published operation table each choose the lane they name.
func TestLaneMarkersChooseTheLane(t *testing.T) {
	for _, tc := range []struct{ file, body string }{
		{"lane.json", `{"lane": "v1alpha3"}`},
		{"lane.json", `{"lane": "forms.takoform.com/v1alpha3"}`},
		{"operations-v1alpha3.json", `{"format": "takoform.host-api@v1alpha3", "apiGroup": "ignored"}`},
	} {
		files := baseCatalog().seal(t)
		files[tc.file] = []byte(tc.body)
		c, err := Load(mapFS(files))
		if err != nil {
			t.Fatalf("%s %s: %v", tc.file, tc.body, err)
		}
		if c.Lane() != wire.V1alpha3 || c.LaneChoice().Source != tc.file || !c.LaneChoice().Explicit {
			t.Errorf("%s: lane %v chosen by %q, want v1alpha3 chosen by %s", tc.file, c.Lane(), c.LaneChoice().Source, tc.file)
		}
	}
}

// A marker naming no known lane is refused with the known lanes listed.
func TestUnknownLaneMarkerListsTheKnownLanes(t *testing.T) {
	for file, body := range map[string]string{
		"lane.json":                `{"lane": "v2"}`,
		"operations-v1beta1.json":  `{"format": "takoform.host-api@v9"}`,
		"operations-v1alpha3.json": `{"format": "takoform.host-api@v1beta1"}`,
	} {
		files := baseCatalog().seal(t)
		files[file] = []byte(body)
		_, err := Load(mapFS(files))
		if err == nil || !strings.Contains(err.Error(), "catalog: "+file) {
			t.Errorf("%s %s: %v, want a problem naming the file", file, body, err)
			continue
		}
		if file != "operations-v1alpha3.json" && !strings.Contains(err.Error(), "v1beta1 (current), v1alpha3 (withdrawn upstream)") {
			t.Errorf("%s: %v does not list the known lanes", file, err)
		}
	}
	files := baseCatalog().seal(t)
	files["lane.json"] = []byte(`{"lane": "v1beta1", "extra": 1}`)
	if _, err := Load(mapFS(files)); err == nil || !strings.Contains(err.Error(), "lane.json") {
		t.Errorf("an unknown member of lane.json: %v", err)
	}
}

// Two markers that disagree, or a Form of a known family of another lane, make a
// catalog that mixes lanes: refused, naming the file of the other lane.
func TestMixedLanesAreRefusedNamingTheFile(t *testing.T) {
	files := baseCatalog().seal(t)
	files["lane.json"] = []byte(`{"lane": "v1beta1"}`)
	files["operations-v1alpha3.json"] = []byte(`{"format": "takoform.host-api@v1alpha3"}`)
	_, err := Load(mapFS(files))
	if err == nil || !strings.Contains(err.Error(), "catalog: operations-v1alpha3.json") || !strings.Contains(err.Error(), "chosen by lane.json") {
		t.Errorf("disagreeing markers: %v", err)
	}

	v3, err := EmbeddedLane(wire.V1alpha3)
	if err != nil {
		t.Fatal(err)
	}
	mixed := fstest.MapFS{}
	for p, f := range mapFS(embeddedFiles(t, wire.V1beta1)) {
		mixed[p] = f
	}
	for p, f := range mapFS(embeddedFiles(t, wire.V1alpha3)) {
		if strings.HasPrefix(p, "forms/") {
			mixed[p] = f
		}
	}
	_, err = Load(mixed)
	if err == nil {
		t.Fatal("a catalog with Forms of both lanes' families loaded")
	}
	other := v3.Forms()[0]
	if !strings.Contains(err.Error(), "belongs to lane forms.takoform.com/v1alpha3 (withdrawn upstream), but this catalog speaks forms.takoform.com/v1beta1 (chosen by lane.json)") ||
		!strings.Contains(err.Error(), "catalog: forms/edge-v1alpha1/"+other.Slug+"/") {
		t.Errorf("mixed families: %v", err)
	}
}

// The project's two roots speak their own lanes, chosen by their lane.json.
func TestEmbeddedRootsSpeakTheirLanes(t *testing.T) {
	for _, ln := range wire.Lanes() {
		c, err := EmbeddedLane(ln)
		if err != nil {
			t.Fatalf("%s: %v", ln.Name, err)
		}
		if c.Lane() != ln || c.LaneChoice().Source != "lane.json" {
			t.Errorf("data/%s speaks %v (chosen by %q)", ln.Name, c.Lane(), c.LaneChoice().Source)
		}
		for _, f := range c.Forms() {
			if got, ok := wire.LaneOfFamily(f.Ref.APIVersion); !ok || got != ln {
				t.Errorf("data/%s carries %s, a family of %v", ln.Name, f.Ref, got)
			}
		}
		lc, err := LaneOf(mustLaneFS(t, ln))
		if err != nil || lc.Lane != ln {
			t.Errorf("LaneOf(data/%s) = %v, %v", ln.Name, lc.Lane, err)
		}
	}
}

// ForLane lets a program's lane option choose for a catalog without a signal and
// refuses to move a catalog whose own documents chose another lane.
func TestForLane(t *testing.T) {
	plain, err := Load(mapFS(baseCatalog().seal(t)))
	if err != nil {
		t.Fatal(err)
	}
	c, err := ForLane(plain, wire.V1alpha3)
	if err != nil || c.Lane() != wire.V1alpha3 || plain.Lane() != wire.DefaultLane {
		t.Errorf("ForLane on a catalog without a signal: %v, %v (the original now %v)", c, err, plain.Lane())
	}
	v3, _ := EmbeddedLane(wire.V1alpha3)
	if _, err := ForLane(v3, wire.V1beta1); err == nil || !strings.Contains(err.Error(), "speaks forms.takoform.com/v1alpha3 (withdrawn upstream), chosen by lane.json, not the requested lane forms.takoform.com/v1beta1") {
		t.Errorf("ForLane across an explicit choice: %v", err)
	}
	if got, err := ForLane(v3, wire.V1alpha3); err != nil || got != v3 {
		t.Errorf("ForLane to its own lane: %v, %v", got, err)
	}
}

func mustLaneFS(t *testing.T, ln *wire.Lane) fs.FS {
	t.Helper()
	fsys, err := EmbeddedLaneFS(ln)
	if err != nil {
		t.Fatal(err)
	}
	return fsys
}

// embeddedFiles reads the project's root of lane into a file map.
func embeddedFiles(t *testing.T, ln *wire.Lane) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	fsys := mustLaneFS(t, ln)
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(fsys, p)
		out[p] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Without a marker, the family of the Form definitions chooses the lane; a
// tie goes to the lane of the first definition by file name, and the other
// lane's definition is refused, naming its file. LaneOf reads no more than
// the definitions' apiVersion.
func TestFamilyTieGoesToTheFirstFile(t *testing.T) {
	const def = "at-least-once-queue/0.1.0/definition.json"
	defs := laneDefinitions(t, def)
	lanes := wire.Lanes()
	for i, first := range lanes {
		other := lanes[len(lanes)-1-i]
		fsys := fstest.MapFS{
			"forms/a/" + def: {Data: defs[first]},
			"forms/b/" + def: {Data: defs[other]},
			"forms/c/" + def: {Data: []byte(`{"apiVersion": `)},
		}
		lc, err := LaneOf(fsys)
		if lc.Lane != first || lc.Source != "the family of forms/a/"+def || !lc.Explicit {
			t.Errorf("a tie led by %s: lane %v chosen by %q (explicit %v)", first.Name, lc.Lane, lc.Source, lc.Explicit)
		}
		if err == nil || !strings.Contains(err.Error(), "catalog: forms/b/"+def) || strings.Contains(err.Error(), "catalog: forms/a/") {
			t.Errorf("a tie led by %s: %v, want forms/b refused alone", first.Name, err)
		}
	}
}

// laneDefinitions reads the definition at def (a path below a family directory)
// from the project's root of every lane.
func laneDefinitions(t *testing.T, def string) map[*wire.Lane][]byte {
	t.Helper()
	defs := map[*wire.Lane][]byte{}
	for _, ln := range wire.Lanes() {
		for file, data := range embeddedFiles(t, ln) {
			if strings.HasSuffix(file, "/"+def) {
				defs[ln] = data
			}
		}
		if defs[ln] == nil {
			t.Fatalf("data/%s has no %s", ln.Name, def)
		}
	}
	return defs
}
