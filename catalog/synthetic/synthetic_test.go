package synthetic

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"testing/fstest"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/reftest"
	"github.com/takokit/takokit/catalog/wire"
)

func provides(f *catalog.Form, name string) bool {
	for _, i := range f.Provided {
		if i.Name == name {
			return true
		}
	}
	return false
}

// Each lane's own catalog gains a ModuleWorker 0.2.0 that provides what 0.1.0 does
// except worker.runtime, and an EdgeKVNamespace in other.forms.takokit.dev/v1alpha1;
// both load, fixtures included, and nothing of the catalog changes.
func TestExtendAddsTheSyntheticForms(t *testing.T) {
	for _, lane := range wire.Lanes() {
		t.Run(lane.Name, func(t *testing.T) {
			base, err := catalog.EmbeddedLane(lane)
			if err != nil {
				t.Fatal(err)
			}
			ext, err := Extend(base)
			if err != nil {
				t.Fatal(err)
			}
			if len(ext.Forms()) != len(base.Forms())+2 || ext.Lane() != base.Lane() {
				t.Fatalf("%d Forms on %s, want %d on %s", len(ext.Forms()), ext.Lane(), len(base.Forms())+2, base.Lane())
			}
			for _, f := range base.Forms() {
				if g, ok := ext.Form(f.Ref); !ok || g != f {
					t.Fatalf("%s changed", f.Ref)
				}
			}
			// the catalog's Interfaces, Bindings and transitions are kept
			if len(base.Transitions()) == 0 || !slices.Equal(ext.Transitions(), base.Transitions()) ||
				!slices.Equal(ext.Interfaces(), base.Interfaces()) || !slices.Equal(ext.Bindings(), base.Bindings()) {
				t.Fatalf("extended: %d transitions, %d Interfaces, %d Bindings; the catalog has %d, %d, %d (some transitions)",
					len(ext.Transitions()), len(ext.Interfaces()), len(ext.Bindings()), len(base.Transitions()), len(base.Interfaces()), len(base.Bindings()))
			}
			family := base.Forms()[0].Ref.APIVersion
			k, ok := ext.Kind(family, "ModuleWorker")
			if !ok || len(k.Versions) != 2 {
				t.Fatalf("ModuleWorker versions: %v", k)
			}
			first, second := k.Versions[0], k.Versions[1]
			if second.Ref.DefinitionVersion != "0.2.0" || provides(second, "worker.runtime") || !provides(first, "worker.runtime") ||
				len(second.Provided) != len(first.Provided)-1 || len(second.Fixtures) != len(first.Fixtures) || second.Ref.SchemaDigest == first.Ref.SchemaDigest {
				t.Fatalf("the second ModuleWorker: %+v", second.Ref)
			}
			other := secondGroup(family, "other", "v1alpha1")
			kv, ok := ext.Kind(other, "EdgeKVNamespace")
			if !ok || len(kv.Versions) != 1 || len(kv.Versions[0].Fixtures) == 0 {
				t.Fatalf("no EdgeKVNamespace in %s", other)
			}
			again, err := Extend(ext)
			if err != nil || len(again.Forms()) != len(ext.Forms()) {
				t.Fatalf("extending twice adds again: %v", err)
			}
		})
	}
}

// On the published family the synthetic Forms have the identities the published
// corpus's runnerInput names (group, kind, definition version and the withheld
// interface); their digests are the project's, not the published fixture's,
// because the documents are the project's own (docs/decisions.md).
func TestSyntheticFormsMatchTheCorpusIdentities(t *testing.T) {
	dir := reftest.Lane(t, wire.V1beta1)
	base, err := catalog.Load(os.DirFS(dir))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join(dir, "conformance", "portable-host-v1beta1", "contract.json"))
	if err != nil {
		t.Fatal(err)
	}
	var contract struct {
		RunnerInput struct {
			SyntheticSecondGroup             wire.FormRef `json:"syntheticSecondGroup"`
			SyntheticSecondDefinitionVersion struct {
				FormRef           wire.FormRef `json:"formRef"`
				WithheldInterface struct{ Name, Version string }
			} `json:"syntheticSecondDefinitionVersion"`
		} `json:"runnerInput"`
	}
	if err := json.Unmarshal(raw, &contract); err != nil {
		t.Fatal(err)
	}
	ext, err := Extend(base)
	if err != nil {
		t.Fatal(err)
	}
	g := contract.RunnerInput.SyntheticSecondGroup
	if k, ok := ext.Kind(g.APIVersion, g.Kind); !ok || k.Versions[0].Ref.DefinitionVersion != g.DefinitionVersion {
		t.Fatalf("no %s %s %s", g.APIVersion, g.Kind, g.DefinitionVersion)
	}
	v := contract.RunnerInput.SyntheticSecondDefinitionVersion
	k, ok := ext.Kind(v.FormRef.APIVersion, v.FormRef.Kind)
	if !ok {
		t.Fatalf("no %s %s", v.FormRef.APIVersion, v.FormRef.Kind)
	}
	second := k.Versions[len(k.Versions)-1]
	if second.Ref.DefinitionVersion != v.FormRef.DefinitionVersion || provides(second, v.WithheldInterface.Name) {
		t.Fatalf("the second %s is %s and provides %v; the corpus withholds %s", v.FormRef.Kind, second.Ref, second.Provided, v.WithheldInterface.Name)
	}
}

func TestSecondGroup(t *testing.T) {
	for in, want := range map[string]string{"edge.forms.takokit.dev/v1beta1": "other.forms.takokit.dev/v1alpha1",
		"edge.forms.takoform.com/v1beta1": "other.forms.takoform.com/v1alpha1", "nodots/v1": "nodots/v1"} {
		if got := secondGroup(in, "other", "v1alpha1"); got != want {
			t.Errorf("secondGroup(%s) = %s, want %s", in, got, want)
		}
	}
}

// Forms loads its sealed documents with LoadPrechecked; over each lane's embedded
// catalog and each published family the same documents pass the checking Load and
// derive the same Forms, so the checks the prechecked load skips would refuse
// nothing here.
func TestSyntheticFilesPassTheCheckingLoad(t *testing.T) {
	bases := map[string]func(t *testing.T) *catalog.Catalog{}
	for _, lane := range wire.Lanes() {
		bases["embedded "+lane.Name] = func(t *testing.T) *catalog.Catalog {
			c, err := catalog.EmbeddedLane(lane)
			if err != nil {
				t.Fatal(err)
			}
			return c
		}
		bases["published "+lane.Name] = func(t *testing.T) *catalog.Catalog {
			c, err := catalog.Load(os.DirFS(reftest.Lane(t, lane)))
			if err != nil {
				t.Fatal(err)
			}
			return c
		}
	}
	for name, base := range bases {
		t.Run(name, func(t *testing.T) {
			cat := base(t)
			files, err := sealedFiles(cat)
			if err != nil || files == nil {
				t.Fatalf("no synthetic documents: %v", err)
			}
			fsys := fstest.MapFS{}
			for p, b := range files {
				fsys[p] = &fstest.MapFile{Data: b}
			}
			full, err := catalog.Load(fsys)
			if err != nil {
				t.Fatalf("the synthetic documents do not pass the checking Load:\n%v", err)
			}
			fast, err := Forms(cat)
			if err != nil {
				t.Fatal(err)
			}
			if len(full.Forms()) != 2 || len(fast.Forms()) != len(full.Forms()) || len(fast.Interfaces()) != len(full.Interfaces()) {
				t.Fatalf("Load derives %d Forms, Forms %d", len(full.Forms()), len(fast.Forms()))
			}
			for _, i := range fast.Interfaces() {
				if !slices.ContainsFunc(fast.Forms(), func(f *catalog.Form) bool { return references(f, i.Ref) }) {
					t.Errorf("the synthetic root carries %s, which no synthetic Form references", i.Ref)
				}
			}
			for i, f := range full.Forms() {
				g := fast.Forms()[i]
				if f.Ref != g.Ref || f.PackageDigest != g.PackageDigest || !reflect.DeepEqual(f.Fields, g.Fields) ||
					!reflect.DeepEqual(f.Outputs, g.Outputs) || !reflect.DeepEqual(f.Relations, g.Relations) ||
					!reflect.DeepEqual(f.Fixtures, g.Fixtures) || !reflect.DeepEqual(f.Provided, g.Provided) {
					t.Errorf("%s: Forms derives another model than Load", f.Ref)
				}
				for _, fx := range g.Fixtures {
					if err := g.ValidateDesired(fx.Desired); err != nil {
						t.Errorf("%s fixture %s: the deferred desiredSchema refuses it: %v", g.Ref, fx.Name, err)
					}
				}
			}
		})
	}
}

// references: f provides ref or a relation of f requires it.
func references(f *catalog.Form, ref wire.InterfaceRef) bool {
	return f.Provides(ref) || slices.ContainsFunc(f.Relations, func(r catalog.Relation) bool {
		return r.RequiredInterface != nil && *r.RequiredInterface == ref
	})
}
