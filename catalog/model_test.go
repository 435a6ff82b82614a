package catalog

import (
	"encoding/json"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"
)

func loadGood(t *testing.T) *Catalog {
	t.Helper()
	c, err := Load(os.DirFS(goodDir))
	if err != nil {
		t.Fatalf("test catalog: %v", err)
	}
	return c
}

func TestModelDerivedFromTestCatalog(t *testing.T) {
	c := loadGood(t)
	k, ok := c.Kind(tGroup, "Gadget")
	if !ok || len(k.Versions) != 2 || k.Slug != "gadget" || k.TypeName != "takoform_gadget" {
		t.Fatalf("Gadget kind = %+v", k)
	}
	if k.DefaultCreate().Ref.DefinitionVersion != "0.2.0" || k.Versions[0].Ref.DefinitionVersion != "0.1.0" {
		t.Errorf("versions must run oldest to newest and the default create ref is the newest")
	}
	g := k.Versions[0]
	if got, ok := c.Form(g.Ref); !ok || got != g {
		t.Errorf("exact lookup of %s failed", g.Ref)
	}
	wrong := g.Ref
	wrong.SchemaDigest = zeroDig
	if _, ok := c.Form(wrong); ok {
		t.Errorf("a FormRef with another digest must not resolve")
	}
	want := map[string]FieldKind{"holder": FieldReference, "size": FieldInteger, "mode": FieldStringEnum, "items": FieldObjectList, "labels": FieldJSONMap}
	for wire, kind := range want {
		f, ok := g.Field(wire)
		if !ok || f.Kind != kind {
			t.Errorf("field %s = %+v, want kind %s", wire, f, kind)
		}
	}
	if f, _ := g.Field("labels"); f.Attr != "labels_json" {
		t.Errorf("json-map attribute %q, want labels_json", f.Attr)
	}
	if f, _ := g.Field("size"); *f.Min != 1 || *f.Max != 10 || string(f.Default) != "5" || f.Required || f.Immutable {
		t.Errorf("size field = %+v", f)
	}
	if f, _ := g.Field("holder"); !f.Required || !f.Immutable || f.Ref == nil || len(f.Ref.TargetFormRefs) != 1 {
		t.Errorf("holder field = %+v", f)
	}
	items, _ := g.Field("items")
	if len(items.Members) != 2 || items.Members[0].Wire != "target" || items.Members[0].Pointer != "/items/*/target" || items.Members[1].Kind != FieldInteger {
		t.Errorf("object-list members = %+v", items.Members)
	}
	if !g.DeclaresUpdate || !g.HasCapability("update") || g.HasCapability("refresh") || !g.Immutable["/holder"] {
		t.Errorf("capabilities %v immutable %v", g.Capabilities, g.Immutable)
	}
	if len(g.Outputs) != 2 || g.Outputs[0].Wire != "address" || g.Outputs[1].Type != "integer" || *g.Outputs[1].Max != 65535 {
		t.Errorf("outputs = %+v", g.Outputs)
	}
	if len(k.Versions[1].Outputs) != 3 {
		t.Errorf("0.2.0 adds an output: %+v", k.Versions[1].Outputs)
	}
	ptrs := []string{}
	for _, r := range g.Relations {
		ptrs = append(ptrs, r.Pointer)
	}
	if !slices.Equal(ptrs, []string{"/holder", "/items/*/target"}) {
		t.Errorf("relations = %v", ptrs)
	}

	h := c.Kinds()[slices.IndexFunc(c.Kinds(), func(k *Kind) bool { return k.Kind == "Holder" })].DefaultCreate()
	bl, _ := h.Field("storeBindings")
	if bl.Kind != FieldBindingList || bl.Binding == nil || bl.Binding.Name != "holder.store" || bl.RefMember != "resource" ||
		len(bl.Members) != 2 || bl.Members[1].Attr != "target_name" || bl.Members[0].Attr != "name" {
		t.Errorf("binding list = %+v", bl)
	}
	if f, _ := h.Field("tags"); f.Kind != FieldStringSet || f.Pattern != "^[a-z]+$" {
		t.Errorf("tags = %+v", f)
	}
	var bound *Relation
	for i := range h.Relations {
		if h.Relations[i].Pointer == "/storeBindings/*/resource" {
			bound = &h.Relations[i]
		}
	}
	if bound == nil || bound.Binding == nil || bound.RequiredInterface == nil || bound.TargetKind != "Store" {
		t.Errorf("binding relation = %+v", bound)
	}
	if h.DeclaresUpdate || h.Role != "revision" {
		t.Errorf("a revision never declares update")
	}

	tr, ok := c.Transition("gadget-0.1-to-0.2")
	if !ok || tr.From != k.Versions[0].Ref || tr.To != k.Versions[1].Ref || len(c.TransitionsFrom(tr.From)) != 1 {
		t.Errorf("transition = %+v", tr)
	}
	if i, ok := c.Interface("example.store", "1.0.0"); !ok || !slices.Equal(i.Operations, []string{"get"}) {
		t.Errorf("interface = %+v", i)
	}
	if b, ok := c.Binding("holder.store", "1.0.0"); !ok || b.TargetInterface.Name != "example.store" || b.SourceRole != "revision" {
		t.Errorf("binding = %+v", b)
	}
}

func TestValidateAndMaterialize(t *testing.T) {
	c := loadGood(t)
	k, _ := c.Kind(tGroup, "Gadget")
	g := k.Versions[0]
	holder := map[string]any{"apiVersion": tGroup, "kind": "Holder", "name": "h"}
	m := g.Materialize(map[string]any{"holder": holder})
	if m["size"] == nil || m["mode"] != "fast" || m["labels"] == nil {
		t.Errorf("Materialize filled %v", m)
	}
	if err := g.ValidateDesired(m); err != nil {
		t.Errorf("materialized spec invalid: %v", err)
	}
	if m2 := g.Materialize(map[string]any{"holder": holder, "size": 7}); m2["size"] != 7 {
		t.Errorf("Materialize must keep given values: %v", m2)
	}
	err := g.ValidateDesired(map[string]any{"holder": holder, "size": 11, "items": []any{map[string]any{"weight": 0}}})
	var se *SchemaError
	if !errors.As(err, &se) {
		t.Fatalf("want *SchemaError, got %v", err)
	}
	ptrs := []string{}
	for _, p := range se.Problems {
		ptrs = append(ptrs, p.Pointer)
	}
	for _, want := range []string{"/size", "/items/0"} {
		if !slices.ContainsFunc(ptrs, func(p string) bool { return strings.HasPrefix(p, want) }) {
			t.Errorf("problems %v do not name %s", ptrs, want)
		}
	}
	if err := g.ValidateOutputs(json.RawMessage(`{"address":"here","port":443}`)); err != nil {
		t.Errorf("valid outputs refused: %v", err)
	}
	if err := g.ValidateOutputs(map[string]any{"address": "here"}); err == nil {
		t.Errorf("missing output accepted")
	}
	s, _ := c.Kind(tGroup, "Store")
	if err := s.DefaultCreate().ValidateOutputs(map[string]any{"x": 1}); err == nil {
		t.Errorf("a Form without outputs accepted an output")
	}
	if err := s.DefaultCreate().ValidateOutputs(nil); err != nil {
		t.Errorf("a Form without outputs must accept none: %v", err)
	}
}

// TestFixturesRunThroughSchemas checks every declared fixture outcome (docs/catalog-rules.md#documents)
// on the embedded and published catalogs.
func TestFixturesRunThroughSchemas(t *testing.T) {
	emb, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	cats := map[string]*Catalog{"embedded": emb, "test": loadGood(t)}
	t.Run("published", func(t *testing.T) { cats["published"] = loadPublished(t) })
	for name, c := range cats {
		for _, f := range c.Forms() {
			canonical := 0
			for _, fx := range f.Fixtures {
				if fx.Name == "canonical" {
					canonical++
				}
				if err := f.ValidateDesired(fx.Desired); err != nil {
					t.Errorf("%s %s fixture %s: %v", name, f.Ref, fx.Name, err)
				}
				if fx.Output != nil {
					if err := f.ValidateOutputs(fx.Output); err != nil {
						t.Errorf("%s %s fixture %s outputs: %v", name, f.Ref, fx.Name, err)
					}
				}
			}
			if canonical != 1 {
				t.Errorf("%s %s has %d canonical fixtures", name, f.Ref, canonical)
			}
			for _, nf := range f.NegativeFixtures {
				var err error
				switch nf.Stage {
				case "desired":
					err = f.ValidateDesired(nf.Input)
				case "output":
					err = f.ValidateOutputs(nf.Input)
				default:
					err = f.ValidateObserved(nf.Input)
				}
				if err == nil {
					t.Errorf("%s %s negative fixture %s passes", name, f.Ref, nf.Name)
				}
			}
		}
	}
}

func TestTypeNameConflicts(t *testing.T) {
	if n := len(loadGood(t).TypeNameConflicts()); n != 0 {
		t.Errorf("one group has no conflicts, got %d", n)
	}
	c := baseCatalog()
	pos, neg := fixtureDecls()
	c.forms = append(c.forms, &tform{slug: "store", version: "0.1.0", family: "other-v1alpha1", def: obj{
		"apiVersion": "other.forms.takokit.dev/v1alpha1", "kind": "Store", "definitionVersion": "0.1.0", "title": "Other store", "role": "identity",
		"desiredSchema":         obj{"$schema": draft, "type": "object", "additionalProperties": false, "properties": obj{}},
		"lifecycleCapabilities": []any{"create", "read", "delete", "import", "observe"},
		"conformanceFixtures":   pos, "negativeConformanceFixtures": neg,
	}, fixtures: map[string]any{"fixtures/desired.json": obj{}, "fixtures/negative-unexpected-property.json": obj{"x": 1}}})
	two, err := Load(mapFS(c.seal(t)))
	if err != nil {
		t.Fatalf("one kind slug in two groups is a legal catalog: %v", err)
	}
	got := two.TypeNameConflicts()["takoform_store"]
	if len(got) != 2 || got[0].APIVersion == got[1].APIVersion {
		t.Errorf("want takoform_store shared by two groups, got %v", got)
	}
}

func TestValidateField(t *testing.T) {
	k, _ := loadGood(t).Kind(tGroup, "Gadget")
	g := k.DefaultCreate()
	if err := g.ValidateField("labels", map[string]any{"a": "b"}); err != nil {
		t.Errorf("valid json-map value refused: %v", err)
	}
	err := g.ValidateField("labels", map[string]any{"a": 1})
	var se *SchemaError
	if !errors.As(err, &se) || se.Problems[0].Pointer != "/a" {
		t.Errorf("want a problem at /a, got %v", err)
	}
	if err := g.ValidateField("size", 11); err == nil {
		t.Errorf("size 11 accepted")
	}
	if err := g.ValidateField("nope", 1); err == nil {
		t.Errorf("unknown property accepted")
	}
}

func TestReferenceFieldCarriesNameConstraints(t *testing.T) {
	k, _ := loadGood(t).Kind(tGroup, "Gadget")
	f, _ := k.DefaultCreate().Field("holder")
	if f.Pattern != refNamePattern || f.MinLength == nil || *f.MinLength != 1 || f.MaxLength == nil || *f.MaxLength != 63 {
		t.Errorf("reference field = %+v", f)
	}
}

// TestConcurrentValidation: hostsim validates from many requests at once.
func TestConcurrentValidation(t *testing.T) {
	k, _ := loadGood(t).Kind(tGroup, "Gadget")
	g := k.DefaultCreate()
	done := make(chan error, 16)
	for i := 0; i < 8; i++ {
		go func() { done <- g.ValidateField("labels", map[string]any{"a": "b"}) }()
		go func() {
			done <- g.ValidateDesired(g.Materialize(map[string]any{"holder": map[string]any{"apiVersion": tGroup, "kind": "Holder", "name": "h"}}))
		}()
	}
	for i := 0; i < 16; i++ {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}
