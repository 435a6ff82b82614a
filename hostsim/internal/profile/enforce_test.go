package profile

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
)

func testCatalog(t *testing.T) *catalog.Catalog {
	c, err := catalog.Embedded()
	if err != nil {
		t.Fatalf("the built-in catalog does not load: %v", err)
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

// Ranges are inclusive on both sides, numbers compare as numbers and strings
// as strings; a value of another type than its bound is outside no range
// (the desiredSchema refuses it).
func TestCheckRange(t *testing.T) {
	num := Range{Minimum: json.RawMessage(`60`), Maximum: json.RawMessage(`86400`)}
	str := Range{Minimum: json.RawMessage(`"b"`), Maximum: json.RawMessage(`"y"`)}
	for _, tc := range []struct {
		name string
		v    any
		r    Range
		want string
	}{
		{"below the minimum", json.Number("59"), num, "minimum is 60"},
		{"at the minimum", json.Number("60"), num, ""},
		{"inside", json.Number("3600"), num, ""},
		{"at the maximum", json.Number("86400"), num, ""},
		{"above the maximum", json.Number("86401"), num, "maximum is 86400"},
		{"a fraction above the maximum", json.Number("86400.5"), num, "maximum is 86400"},
		{"no minimum", json.Number("-5"), Range{Maximum: json.RawMessage(`10`)}, ""},
		{"no maximum", json.Number("99999999999999999999"), Range{Minimum: json.RawMessage(`10`)}, ""},
		{"a string below", "a", str, `minimum is "b"`},
		{"a string inside", "m", str, ""},
		{"a string above", "z", str, `maximum is "y"`},
		{"a string against numbers", "zzz", num, ""},
		{"a number against strings", json.Number("1"), str, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := checkRange(tc.v, tc.r); got != tc.want {
				t.Fatalf("checkRange(%v) = %q, want %q", tc.v, got, tc.want)
			}
		})
	}
}

func TestCompare(t *testing.T) {
	for _, tc := range []struct {
		a, b any
		c    int
		ok   bool
	}{
		{json.Number("1"), json.Number("2"), -1, true},
		{json.Number("2"), json.Number("2.0"), 0, true},
		{json.Number("1e3"), json.Number("999"), 1, true},
		{"a", "b", -1, true},
		{"b", "b", 0, true},
		{"a", json.Number("1"), 0, false},
		{json.Number("1"), "a", 0, false},
		{json.Number("one"), json.Number("1"), 0, false},
		{json.Number("1"), json.Number("one"), 0, false},
		{true, true, 0, false},
	} {
		if c, ok := compare(tc.a, tc.b); c != tc.c || ok != tc.ok {
			t.Errorf("compare(%#v, %#v) = %d, %v; want %d, %v", tc.a, tc.b, c, ok, tc.c, tc.ok)
		}
	}
}

// tight-limits' retention range is enforced on a spec, naming the field.
func TestRangesEnforcedOnSpecs(t *testing.T) {
	cat := testCatalog(t)
	p, err := Load("tight-limits")
	if err != nil {
		t.Fatal(err)
	}
	h := Resolve(p, cat)
	for _, f := range h.Forms() {
		if f.Ref.Kind != "AtLeastOnceQueue" {
			continue
		}
		spec := specOf(t, f)
		for v, refused := range map[string]bool{"59": true, "60": false, "86400": false, "86401": true} {
			spec["messageRetentionSeconds"] = json.Number(v)
			got := h.CheckSpec(f, spec)
			if (got != nil) != refused {
				t.Fatalf("%s messageRetentionSeconds=%s: violation %v, want refused=%v", f.Ref, v, got, refused)
			}
			if got != nil && (got.Field != "/messageRetentionSeconds" || !strings.Contains(got.Message, "value "+v+" is outside what this host")) {
				t.Fatalf("the violation must name the field and the value: %+v", got)
			}
		}
		return
	}
	t.Fatal("tight-limits installs no AtLeastOnceQueue")
}

// A limit key is "maximum" + the UpperFirst of a collection field's path;
// any other key names no field.
func TestLimitField(t *testing.T) {
	cat := testCatalog(t)
	var wv *catalog.Form
	for _, f := range cat.Forms() {
		if f.Ref.Kind == "WorkerVersion" {
			wv = f
		}
	}
	if wv == nil {
		t.Fatal("the catalog has no WorkerVersion")
	}
	for key, want := range map[string]string{"maximumHandlers": "handlers", "maximumRequiredSensitiveVars": "requiredSensitiveVars",
		"Handlers": "", "handlers": "", "maximum": "", "maximumBundleBytes": "", "maximumNothing": ""} {
		got, ok := limitField(wv, key)
		if got != want || ok != (want != "") {
			t.Errorf("limitField(%q) = %q, %v; want %q", key, got, ok, want)
		}
	}
}

// A limit on a collection inside a list's items is keyed "maximum" and each
// path element's UpperFirst, and holds for every item's collection.
func TestNestedCollectionLimitsAreEnforced(t *testing.T) {
	f := &catalog.Form{Ref: wire.FormRef{Kind: "Router", DefinitionVersion: "0.1.0"}, Fields: []catalog.Field{
		{Wire: "routes", Pointer: "/routes", Kind: catalog.FieldObjectList, Members: []catalog.Field{
			{Wire: "path", Pointer: "/routes/*/path", Kind: catalog.FieldString},
			{Wire: "hosts", Pointer: "/routes/*/hosts", Kind: catalog.FieldStringList}}}}}
	h := &Host{P: &Profile{Name: "nested", Limits: map[string]map[string]int64{"Router": {"maximumRoutesHosts": 2}}}}
	route := func(hosts ...any) map[string]any { return map[string]any{"path": "/", "hosts": hosts} }
	if v := h.CheckSpec(f, map[string]any{"routes": []any{route("a"), route("a", "b")}}); v != nil {
		t.Fatalf("routes within the limit refused: %v", v)
	}
	v := h.CheckSpec(f, map[string]any{"routes": []any{route("a", "b"), route("a", "b", "c")}})
	if v == nil || v.Field != "/routes/1/hosts" || !strings.Contains(v.Message, "routes.hosts has 3 entries") ||
		!strings.Contains(v.Message, "at most 2 (maximumRoutesHosts)") {
		t.Fatalf("three hosts in the second route: %+v, want refused at /routes/1/hosts naming the limit", v)
	}
}

// An operation the profile offers for a Form passes; one it withholds is refused
// naming the profile, the operation, the Form's kind and version and what the
// host offers instead; a Form the profile does not narrow offers every
// capability its definition declares.
func TestCheckOperationRefusesWhatTheProfileWithholds(t *testing.T) {
	h := inline(t, `{"name": "queues-read-only", "description": "d", "extends": "full",
  "operations": {"AtLeastOnceQueue": ["read", "delete", "import", "observe"]}}`)
	var queue, other *catalog.Form
	for _, f := range h.Forms() {
		switch {
		case f.Ref.Kind == "AtLeastOnceQueue" && queue == nil:
			queue = f
		case f.Ref.Kind != "AtLeastOnceQueue" && other == nil:
			other = f
		}
	}
	if queue == nil || other == nil {
		t.Fatal("the built-in catalog has no AtLeastOnceQueue, or nothing else")
	}
	for _, op := range []string{"read", "delete", "observe"} {
		if v := h.CheckOperation(queue, op); v != nil {
			t.Errorf("CheckOperation(AtLeastOnceQueue, %q) = %v; the profile offers it", op, v)
		}
	}
	want := `this host (profile "queues-read-only") does not offer "create" for AtLeastOnceQueue ` + queue.Ref.DefinitionVersion +
		`; it offers read, delete, import, observe`
	if v := h.CheckOperation(queue, "create"); v == nil || v.Message != want || v.Field != "" {
		t.Errorf("CheckOperation(AtLeastOnceQueue, create) = %+v\nwant the message %q", v, want)
	}
	for _, op := range other.Capabilities {
		if v := h.CheckOperation(other, op); v != nil {
			t.Errorf("CheckOperation(%s, %q) = %v; the profile does not narrow %s", other.Ref.Kind, op, v, other.Ref.Kind)
		}
	}
}
