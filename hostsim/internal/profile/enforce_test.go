package profile

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog"
)

func testCatalog(t *testing.T) *catalog.Catalog {
	if c, err := catalog.Embedded(); err == nil && len(c.Forms()) > 0 {
		return c
	}
	dir := os.Getenv("TAKOKIT_REFERENCE_DIR")
	if dir == "" {
		wd, _ := os.Getwd()
		for d := wd; filepath.Dir(d) != d; d = filepath.Dir(d) {
			if _, err := os.Stat(filepath.Join(d, "go.work")); err == nil {
				dir = filepath.Join(d, "..", "shared", "reference", "takoform-v1alpha3")
				break
			}
		}
	}
	c, err := catalog.Load(os.DirFS(dir))
	if err != nil {
		t.Skipf("no catalog: the built-in one is empty and %q does not load: %v", dir, err)
	}
	return c
}

func specOf(t *testing.T, f *catalog.Form) map[string]any {
	var m map[string]any
	if len(f.Fixtures) == 0 || json.Unmarshal(f.Fixtures[0].Desired, &m) != nil {
		t.Skipf("%s has no fixture", f.Ref)
	}
	return m
}

// Every enum and collection limit of tight-limits is enforced on a spec that
// breaks it, and a spec within it passes.
func TestTightLimitsEnforcedOnSpecs(t *testing.T) {
	cat := testCatalog(t)
	p, err := Load("tight-limits")
	if err != nil {
		t.Fatal(err)
	}
	h := Resolve(p, cat)
	checked := 0
	for _, f := range h.Forms() {
		if enums, ok := keyed(p.SupportedEnums, f); ok {
			for field, allowed := range enums {
				fl, ok := f.Field(field)
				if !ok {
					continue
				}
				for _, v := range fl.Enum {
					spec := specOf(t, f)
					spec[field] = []any{v}
					got := h.CheckSpec(f, spec)
					in := strings.Contains(strings.Join(allowed, ","), v)
					if (got == nil) != in {
						t.Errorf("%s %s=%s: violation %v, allowed %v", f.Ref.Kind, field, v, got, allowed)
					}
					if got != nil && (got.Field != "/"+field || !strings.Contains(got.Message, v)) {
						t.Errorf("violation must name field and value: %+v", got)
					}
					checked++
				}
			}
		}
		if limits, ok := keyed(p.Limits, f); ok {
			for key, max := range limits {
				field, ok := limitField(f, key)
				if !ok {
					continue
				}
				spec := specOf(t, f)
				item := any("x")
				if e, ok := keyed(p.SupportedEnums, f); ok && len(e[field]) > 0 {
					item = e[field][0] // stay inside the enum so only the limit can fire
				}
				items := []any{}
				for i := int64(0); i <= max; i++ {
					items = append(items, item)
				}
				spec[field] = items
				if v := h.CheckSpec(f, spec); v == nil || !strings.Contains(v.Message, key) {
					t.Errorf("%s %s with %d entries passed %s=%d", f.Ref.Kind, field, len(items), key, max)
				}
				spec[field] = items[:max]
				if max > 0 {
					if v := h.CheckSpec(f, spec); v != nil && strings.Contains(v.Message, key) {
						t.Errorf("%s %s with %d entries refused: %v", f.Ref.Kind, field, max, v)
					}
				}
				checked++
			}
		}
	}
	if checked == 0 {
		t.Skip("tight-limits names nothing this catalog holds")
	}
}

func TestMergeReplacesArraysAndMergesObjects(t *testing.T) {
	parent := map[string]any{"a": map[string]any{"x": 1, "list": []any{1, 2}}, "b": 1}
	child := map[string]any{"a": map[string]any{"list": []any{3}}, "c": 2}
	got, _ := json.Marshal(Merge(parent, child))
	if string(got) != `{"a":{"list":[3],"x":1},"b":1,"c":2}` {
		t.Fatalf("merge: %s", got)
	}
	if p, _ := json.Marshal(parent); string(p) != `{"a":{"list":[1,2],"x":1},"b":1}` {
		t.Fatalf("merge modified its input: %s", p)
	}
}

func TestSelectionIncludeThenExclude(t *testing.T) {
	cat := testCatalog(t)
	forms := cat.Forms()
	if len(forms) < 2 {
		t.Skip("the catalog has fewer than two Forms")
	}
	a, b := forms[0], forms[len(forms)-1]
	p, err := Parse("inline", []byte(`{"name": "two", "forms": {"include": ["`+a.Ref.Kind+`", "`+b.Ref.Kind+`@`+b.Ref.DefinitionVersion+`"], "exclude": ["`+a.Ref.Kind+`"]}}`))
	if err != nil {
		t.Fatal(err)
	}
	h := Resolve(p, cat)
	for _, f := range h.Forms() {
		if f.Ref != b.Ref {
			t.Fatalf("installed %s; want only %s", f.Ref, b.Ref)
		}
	}
	if _, ok := h.Form(b.Ref); !ok {
		t.Fatalf("%s (included by exact ref) is not installed", b.Ref)
	}
}

func TestFileExtendsIsRelativeToTheFile(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "base.json"), []byte(`{"name": "base", "extends": "kv-only", "support": "silent"}`), 0o644)
	os.WriteFile(filepath.Join(dir, "child.json"), []byte(`{"name": "child", "extends": "base.json"}`), 0o644)
	p, err := Load(filepath.Join(dir, "child.json"))
	if err != nil {
		t.Fatal(err)
	}
	if p.Name != "child" || p.Support != "silent" || p.Forms == nil {
		t.Fatalf("merged: %s", p.JSON())
	}
	os.WriteFile(filepath.Join(dir, "loop.json"), []byte(`{"name": "loop", "extends": "loop.json"}`), 0o644)
	if _, err := Load(filepath.Join(dir, "loop.json")); err == nil || !strings.Contains(err.Error(), "cycle") {
		t.Fatalf("a profile extending itself: %v", err)
	}
}
