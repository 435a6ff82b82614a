package catalog

import (
	"encoding/json"
	"io/fs"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog/wire"
)

// TestPrecheckedLoadDerivesTheSameCatalog: LoadPrechecked skips only checks that
// reject, so over a root Load accepts it derives the very same model, and the schemas
// it defers still validate (and refuse) on first use.
func TestPrecheckedLoadDerivesTheSameCatalog(t *testing.T) {
	roots := map[string]fs.FS{"test catalog": os.DirFS(goodDir)}
	for _, lane := range wire.Lanes() {
		fsys, err := EmbeddedLaneFS(lane)
		if err != nil {
			t.Fatal(err)
		}
		roots["embedded "+lane.Name] = fsys
	}
	for name, fsys := range roots {
		t.Run(name, func(t *testing.T) {
			full, err := Load(fsys)
			if err != nil {
				t.Fatal(err)
			}
			fast, err := LoadPrechecked(fsys)
			if err != nil {
				t.Fatal(err)
			}
			sameModel(t, full, fast)
		})
	}
}

// TestEmbeddedLanesPassTheCheckingLoad: EmbeddedLane derives each lane's model with
// LoadPrechecked, which skips the checks that only reject, so this test is where
// the embedded data of every lane meets the checking Load; a lane whose documents
// Load refuses fails here (docs/catalog-rules.md#load-modes).
func TestEmbeddedLanesPassTheCheckingLoad(t *testing.T) {
	for _, lane := range wire.Lanes() {
		t.Run(lane.Name, func(t *testing.T) {
			fsys, err := EmbeddedLaneFS(lane)
			if err != nil {
				t.Fatal(err)
			}
			full, err := Load(fsys)
			if err != nil {
				t.Fatalf("the embedded data/%s does not pass the checking Load:\n%v", lane.Name, err)
			}
			emb, err := EmbeddedLane(lane)
			if err != nil {
				t.Fatal(err)
			}
			if emb.Lane() != full.Lane() || emb.LaneChoice() != full.LaneChoice() {
				t.Errorf("EmbeddedLane speaks %v (%+v), Load %v (%+v)", emb.Lane(), emb.LaneChoice(), full.Lane(), full.LaneChoice())
			}
			sameModel(t, full, emb)
		})
	}
}

// sameModel fails t unless fast (a prechecked load) carries the model full (a
// checking load of the same root) does, and its deferred desiredSchemas still accept
// the fixtures and refuse the desired-stage negative fixtures.
func sameModel(t *testing.T, full, fast *Catalog) {
	t.Helper()
	if len(full.Forms()) != len(fast.Forms()) || len(full.Kinds()) != len(fast.Kinds()) ||
		len(full.Interfaces()) != len(fast.Interfaces()) || len(full.Bindings()) != len(fast.Bindings()) ||
		len(full.Transitions()) != len(fast.Transitions()) {
		t.Fatalf("prechecked load has another shape than Load")
	}
	for i, f := range full.Forms() {
		g := fast.Forms()[i]
		if f.Ref != g.Ref || f.PackageDigest != g.PackageDigest || !reflect.DeepEqual(f.Fields, g.Fields) ||
			!reflect.DeepEqual(f.Outputs, g.Outputs) || !reflect.DeepEqual(f.Relations, g.Relations) ||
			!reflect.DeepEqual(f.Fixtures, g.Fixtures) || !reflect.DeepEqual(f.Provided, g.Provided) {
			t.Errorf("%s: prechecked load derives another model", f.Ref)
		}
		for _, fx := range g.Fixtures {
			if err := g.ValidateDesired(fx.Desired); err != nil {
				t.Errorf("%s fixture %s: deferred desiredSchema refuses it: %v", g.Ref, fx.Name, err)
			}
		}
		for _, nf := range g.NegativeFixtures {
			if nf.Stage == "desired" && g.ValidateDesired(nf.Input) == nil {
				t.Errorf("%s negative fixture %s: deferred desiredSchema accepts it", g.Ref, nf.Name)
			}
		}
	}
	for i, x := range full.Interfaces() {
		if y := fast.Interfaces()[i]; x.Ref != y.Ref {
			t.Errorf("interface %d: %s by Load, %s prechecked", i, x.Ref, y.Ref)
		}
	}
	for i, x := range full.Bindings() {
		if y := fast.Bindings()[i]; x.Ref != y.Ref {
			t.Errorf("binding %d: %s by Load, %s prechecked", i, x.Ref, y.Ref)
		}
	}
}

// TestDefinitionWithoutFixturesLoads: conformanceFixtures is optional in the published
// definition schema, so a Form without any loads (in both load modes) and says why no
// fixture-needing check applies; a declared set without "canonical" is still refused.
func TestDefinitionWithoutFixturesLoads(t *testing.T) {
	c := baseCatalog()
	holder := c.form("Holder", "0.1.0")
	delete(holder.def, "conformanceFixtures")
	delete(holder.def, "negativeConformanceFixtures")
	holder.fixtures = nil
	tree := mapFS(c.seal(t))
	for _, load := range []func(fs.FS) (*Catalog, error){Load, LoadPrechecked} {
		cat, err := load(tree)
		if err != nil {
			t.Fatalf("a definition without conformanceFixtures must load:\n%v", err)
		}
		var found bool
		for _, f := range cat.Forms() {
			if f.Ref.Kind != "Holder" {
				if _, _, ok := f.CanonicalFixture(); !ok {
					t.Errorf("%s has fixtures but no canonical one", f.Ref.Kind)
				}
				continue
			}
			found = true
			if _, why, ok := f.CanonicalFixture(); ok || !strings.Contains(why, "declares no conformanceFixtures") {
				t.Errorf("Holder: CanonicalFixture = ok %v, %q", ok, why)
			}
		}
		if !found {
			t.Fatal("Holder did not load")
		}
	}
}

// TestPrecheckedSchemaThatDoesNotCompile: LoadPrechecked skips the checks that
// only reject and compiles each schema on first use, so over a root Load
// refuses (patterns Go's regexp cannot compile) it still loads; validating
// against such a schema then says why it cannot, naming the schema's problem
// and what to do, and never passes or panics.
func TestPrecheckedSchemaThatDoesNotCompile(t *testing.T) {
	const lookahead = "^(?!x)[a-z]+$"
	c := baseCatalog()
	propsOf(c, "Holder", "0.1.0")["note"].(obj)["pattern"] = lookahead
	at(outputsOf(c), "properties/address")["pattern"] = lookahead
	tree := mapFS(c.seal(t))
	if _, err := Load(tree); err == nil {
		t.Fatal("Load must refuse the patterns")
	}
	cat, err := LoadPrechecked(tree)
	if err != nil {
		t.Fatalf("LoadPrechecked compiles on first use and must load:\n%v", err)
	}
	holder, _ := cat.Kind(tGroup, "Holder")
	gadget, _ := cat.Kind(tGroup, "Gadget")
	h, g := holder.Versions[0], gadget.Versions[0]
	const todo = "; this catalog was loaded with LoadPrechecked, which takes only a catalog that catalog.Load accepts (load it with catalog.Load to see every problem)"
	for _, tc := range []struct {
		name, prefix string
		err          error
	}{
		{"ValidateDesired", "desired spec of " + h.Ref.String() + " cannot be validated: catalog: " + holderD + ": /desiredSchema: schema does not compile under JSON Schema Draft 2020-12: ",
			h.ValidateDesired(obj{"store": obj{"apiVersion": tGroup, "kind": "Store", "name": "main"}})},
		{"ValidateField", `desired property "note" of ` + h.Ref.String() + " cannot be validated: catalog: " + holderD + ": /desiredSchema: schema does not compile under JSON Schema Draft 2020-12: ",
			h.ValidateField("note", "x")},
		{"ValidateOutputs", "outputs of " + g.Ref.String() + " cannot be validated: catalog: " + gadget1 + ": /outputSchema: schema does not compile under JSON Schema Draft 2020-12: ",
			g.ValidateOutputs(obj{"address": "here", "port": 443})},
	} {
		if tc.err == nil || !strings.HasPrefix(tc.err.Error(), tc.prefix) || !strings.HasSuffix(tc.err.Error(), todo) {
			t.Errorf("%s: %v\nwant %q…%q", tc.name, tc.err, tc.prefix, todo)
		}
	}
}

// TestValidatingWhatIsNotJSON: a value that is not JSON is refused as such,
// with the encoder's or the parser's reason.
func TestValidatingWhatIsNotJSON(t *testing.T) {
	k, _ := loadGood(t).Kind(tGroup, "Gadget")
	f := k.DefaultCreate()
	for _, tc := range []struct {
		v    any
		want string
	}{
		{make(chan int), "desired spec is not JSON: json: unsupported type: chan int"},
		{json.RawMessage(`{"size":`), "desired spec is not JSON: unexpected EOF"},
		{[]byte(`[1,`), "desired spec is not JSON: unexpected EOF"},
	} {
		if err := f.ValidateDesired(tc.v); err == nil || err.Error() != tc.want {
			t.Errorf("%T %v: %v, want %q", tc.v, tc.v, err, tc.want)
		}
	}
}
