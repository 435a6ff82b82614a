package profile

import (
	"encoding/json"
	"reflect"
	"slices"
	"testing"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
)

func resolved(t *testing.T, ref string) *Host {
	t.Helper()
	p, err := Load(ref)
	if err != nil {
		t.Fatal(err)
	}
	return Resolve(p, testCatalog(t))
}

func inline(t *testing.T, doc string) *Host {
	t.Helper()
	p, err := Parse("inline", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	return Resolve(p, testCatalog(t))
}

func kindsOf(forms []*catalog.Form) []string {
	var out []string
	for _, f := range forms {
		if !slices.Contains(out, f.Ref.Kind) {
			out = append(out, f.Ref.Kind)
		}
	}
	return out
}

// A host that assigns endpoint addresses installs the Forms with assigned
// outputs; one that cannot installs every other Form and none of those.
func TestEndpointsDecideFormsWithOutputs(t *testing.T) {
	full, none := resolved(t, "full"), resolved(t, "no-endpoints")
	if len(full.Forms()) != len(testCatalog(t).Forms()) {
		t.Fatalf("full installs %d of %d Forms", len(full.Forms()), len(testCatalog(t).Forms()))
	}
	withOutputs := 0
	for _, f := range full.Forms() {
		_, kept := none.Form(f.Ref)
		if kept == f.HasOutputs() {
			t.Errorf("%s (outputs %v) installed by no-endpoints: %v", f.Ref, f.HasOutputs(), kept)
		}
		if f.HasOutputs() {
			withOutputs++
		}
	}
	if withOutputs == 0 {
		t.Fatal("the catalog has no Form with outputs: nothing was shown")
	}
}

// Lookups answer exactly the name and version asked (and, for Implements,
// the exact digest).
func TestLookupsAreExact(t *testing.T) {
	h := resolved(t, "full")
	f := h.Forms()[0]
	r := f.Ref
	if got, ok := h.FormLine(r.APIVersion, r.Kind, r.DefinitionVersion); !ok || got != f {
		t.Fatalf("FormLine(%s) = %v, %v", r, got, ok)
	}
	for _, miss := range [][3]string{{"other.example.dev/v1", r.Kind, r.DefinitionVersion}, {r.APIVersion, "Other", r.DefinitionVersion},
		{r.APIVersion, r.Kind, "9.9.9"}} {
		if _, ok := h.FormLine(miss[0], miss[1], miss[2]); ok {
			t.Errorf("FormLine(%v) found a Form", miss)
		}
	}
	i := h.Interfaces()[0]
	if got, ok := h.Interface(i.Ref.Name, i.Ref.Version); !ok || got != i {
		t.Fatalf("Interface(%s) = %v, %v", i.Ref.Name, got, ok)
	}
	if !h.Implements(i.Ref) {
		t.Fatalf("Implements(%s) is false", i.Ref)
	}
	other := i.Ref
	other.SchemaDigest = "sha256:" + "00000000000000000000000000000000000000000000000000000000000000ff"
	for _, miss := range []wire.InterfaceRef{other, {APIVersion: i.Ref.APIVersion, Name: i.Ref.Name, Version: "9.9.9", SchemaDigest: i.Ref.SchemaDigest}} {
		if h.Implements(miss) {
			t.Errorf("Implements(%s) is true", miss)
		}
	}
	for _, miss := range [][2]string{{i.Ref.Name, "9.9.9"}, {"nothing", i.Ref.Version}} {
		if _, ok := h.Interface(miss[0], miss[1]); ok {
			t.Errorf("Interface(%v) found one", miss)
		}
	}
	b := h.Bindings()[0]
	if got, ok := h.Binding(b.Ref.Name, b.Ref.Version); !ok || got != b {
		t.Fatalf("Binding(%s) = %v, %v", b.Ref.Name, got, ok)
	}
	for _, miss := range [][2]string{{b.Ref.Name, "9.9.9"}, {"nothing", b.Ref.Version}} {
		if _, ok := h.Binding(miss[0], miss[1]); ok {
			t.Errorf("Binding(%v) found one", miss)
		}
	}
}

func TestAsync(t *testing.T) {
	full, async, bare := resolved(t, "full"), resolved(t, "async"), inline(t, `{"name": "bare"}`)
	for _, f := range full.Forms() {
		if on, after := full.Async(f); on || after != 2 {
			t.Fatalf("full: %s async %v after %d", f.Ref, on, after)
		}
		if on, after := bare.Async(f); on || after != 2 {
			t.Fatalf("a profile without async: %s async %v after %d", f.Ref, on, after)
		}
		on, after := async.Async(f)
		if want := slices.Contains([]string{"AtLeastOnceQueue", "WorkerEndpoint"}, f.Ref.Kind); on != want || after != 2 {
			t.Fatalf("async: %s async %v after %d, want %v after 2", f.Ref, on, after, want)
		}
	}
}

// supportOf is FormSupport as the wire carries it.
func supportOf(t *testing.T, h *Host, kind string) map[string]any {
	t.Helper()
	for _, f := range h.Forms() {
		if f.Ref.Kind == kind {
			b, _ := json.Marshal(h.FormSupport(f))
			var m map[string]any
			_ = json.Unmarshal(b, &m)
			return m
		}
	}
	t.Fatalf("%s is not installed", kind)
	return nil
}

// A FormSupport profile states exactly what the profile narrows: members it
// says nothing about are omitted, never empty, and a silent host states only
// operations.
func TestFormSupportStatesExactlyTheNarrowing(t *testing.T) {
	tight := resolved(t, "tight-limits")
	for kind, want := range map[string][]string{
		"WorkerVersion":    {"supportedEnums", "limits", "supportedBindings"},
		"AtLeastOnceQueue": {"supportedRanges"},
		"WorkerDeployment": {"limits"},
		"EdgeKVNamespace":  nil,
	} {
		doc := supportOf(t, tight, kind)
		var got []string
		for _, m := range []string{"supportedEnums", "supportedRanges", "limits", "supportedBindings"} {
			if _, ok := doc[m]; ok {
				got = append(got, m)
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("tight-limits %s states %v, want %v: %v", kind, got, want, doc)
		}
		if doc["kind"] != "FormSupport" || doc["operations"] == nil || doc["formRef"] == nil {
			t.Errorf("tight-limits %s: %v", kind, doc)
		}
	}
	if got := supportOf(t, tight, "WorkerVersion")["supportedEnums"]; !reflect.DeepEqual(got, map[string]any{"handlers": []any{"fetch", "scheduled"}}) {
		t.Errorf("supportedEnums %v", got)
	}
	silent := resolved(t, "silent-support")
	if doc := supportOf(t, silent, "WorkerVersion"); len(doc) != 4 {
		t.Errorf("silent-support states more than identity and operations: %v", doc)
	}
	empty := inline(t, `{"name": "empty", "extends": "full", "supportedEnums": {"EdgeKVNamespace": {}},
		"supportedRanges": {"EdgeKVNamespace": {}}, "limits": {"EdgeKVNamespace": {}}}`)
	for _, m := range []string{"supportedEnums", "supportedRanges", "limits"} {
		if v, ok := supportOf(t, empty, "EdgeKVNamespace")[m]; ok {
			t.Errorf("an empty %s statement is served as %v; it states nothing", m, v)
		}
	}
}

// supportedBindings lists the accepted bindings the host implements at the
// accepted digest; a Form that accepts none has no such member.
func TestSupportedBindingsAreTheImplementedOnes(t *testing.T) {
	full, narrowed := resolved(t, "full"), resolved(t, "no-bucket-binding")
	var accepted []any
	for _, f := range full.Forms() {
		if f.Ref.Kind == "WorkerVersion" {
			for _, a := range f.Accepted {
				accepted = append(accepted, a.Name+"@"+a.Version)
			}
		}
	}
	if len(accepted) < 2 {
		t.Fatal("WorkerVersion accepts fewer than two bindings")
	}
	if got := supportOf(t, full, "WorkerVersion")["supportedBindings"]; !reflect.DeepEqual(got, accepted) {
		t.Fatalf("full: supportedBindings %v, want %v", got, accepted)
	}
	want := slices.DeleteFunc(slices.Clone(accepted), func(v any) bool { return v == "module-worker.object-bucket@1.0.0" })
	if got := supportOf(t, narrowed, "WorkerVersion")["supportedBindings"]; !reflect.DeepEqual(got, want) || len(want) == len(accepted) {
		t.Fatalf("no-bucket-binding: supportedBindings %v, want %v", got, want)
	}
	if got, ok := supportOf(t, full, "EdgeKVNamespace")["supportedBindings"]; ok {
		t.Fatalf("a Form that accepts no binding states supportedBindings %v", got)
	}
}

func TestRangeBound(t *testing.T) {
	for raw, want := range map[string]any{"": nil, `60`: json.Number("60"), ` 60 `: json.Number("60"), `"b"`: "b"} {
		got, ok := rangeBound(json.RawMessage(raw))
		if got != want || ok != (raw != "") {
			t.Errorf("rangeBound(%q) = %#v, %v; want %#v", raw, got, ok, want)
		}
	}
}

// Every artifact-backed Form publishes maximumBundleFiles and maximumBundleBytes:
// the portable ceilings of its manifest kind unless the profile states lower
// ones, and even when the profile is silent about them (docs/protocol.md#support).
func TestArtifactBackedFormsPublishBundleCeilings(t *testing.T) {
	want := map[string][2]int64{"WorkerBundle": {4096, 10485760}, "StaticAssetBundle": {16384, 10485760}, "SQLiteMigrationSet": {16384, 10485760}}
	bare := inline(t, `{"name": "bare"}`)
	for _, h := range []*Host{resolved(t, "full"), bare} {
		for kind, w := range want {
			l, _ := supportOf(t, h, kind)["limits"].(map[string]any)
			if l[LimitBundleFiles] != float64(w[0]) || l[LimitBundleBytes] != float64(w[1]) {
				t.Errorf("profile %s: %s limits %v, want maximumBundleFiles %d and maximumBundleBytes %d", h.P.Name, kind, l, w[0], w[1])
			}
		}
		if _, ok := supportOf(t, h, "EdgeKVNamespace")["limits"]; ok {
			t.Errorf("profile %s: a Form that commits to no manifest publishes bundle limits", h.P.Name)
		}
	}
	tight := resolved(t, "tight-limits")
	for kind := range want {
		l, _ := supportOf(t, tight, kind)["limits"].(map[string]any)
		if l[LimitBundleFiles] != float64(16) || l[LimitBundleBytes] != float64(1048576) {
			t.Errorf("tight-limits %s limits %v, want 16 files and 1 MiB", kind, l)
		}
		f := installed(t, tight, kind)
		if n, ok := tight.Limit(f, LimitBundleFiles); !ok || n != 16 {
			t.Errorf("tight-limits Limit(%s, maximumBundleFiles) = %d, %v", kind, n, ok)
		}
	}
	if _, ok := bare.Limit(installed(t, bare, "WorkerBundle"), LimitBundleFiles); ok {
		t.Error("a silent profile states no limit")
	}
}

// installed is the first installed Form of kind.
func installed(t *testing.T, h *Host, kind string) *catalog.Form {
	t.Helper()
	for _, f := range h.Forms() {
		if f.Ref.Kind == kind {
			return f
		}
	}
	t.Fatalf("%s is not installed", kind)
	return nil
}

// A profile's interface and binding selections decide what is installed: an
// excluded interface or binding is not, the others are.
func TestSelectionsNarrowInterfacesAndBindings(t *testing.T) {
	full := resolved(t, "full")
	if len(full.Interfaces()) < 2 || len(full.Bindings()) < 2 {
		t.Fatalf("full installs %d interfaces and %d bindings; the test needs two of each", len(full.Interfaces()), len(full.Bindings()))
	}
	i, b := full.Interfaces()[0], full.Bindings()[0]
	h := inline(t, `{"name": "narrow", "interfaces": {"exclude": ["`+i.Ref.Name+`"]}, "bindings": {"exclude": ["`+b.Ref.Name+`@`+b.Ref.Version+`"]}}`)
	if _, ok := h.Interface(i.Ref.Name, i.Ref.Version); ok || len(h.Interfaces()) != len(full.Interfaces())-1 {
		t.Errorf("excluding interface %s left %d of %d installed", i.Ref.Name, len(h.Interfaces()), len(full.Interfaces()))
	}
	if _, ok := h.Binding(b.Ref.Name, b.Ref.Version); ok || len(h.Bindings()) != len(full.Bindings())-1 {
		t.Errorf("excluding binding %s@%s left %d of %d installed", b.Ref.Name, b.Ref.Version, len(h.Bindings()), len(full.Bindings()))
	}
}

// A per-kind member keyed "Kind@version" wins over the kind's own for that
// version.
func TestVersionKeyedMembersWinOverTheKind(t *testing.T) {
	full := resolved(t, "full")
	f := full.Forms()[0]
	if len(f.Capabilities) < 2 {
		t.Fatalf("%s has capabilities %v; the test needs two", f.Ref, f.Capabilities)
	}
	first, last := f.Capabilities[0], f.Capabilities[len(f.Capabilities)-1]
	h := inline(t, `{"name": "keyed", "operations": {"`+f.Ref.Kind+`": ["`+first+`"], "`+f.Ref.Kind+`@`+f.Ref.DefinitionVersion+`": ["`+last+`"]}}`)
	if got := h.Operations(f); !reflect.DeepEqual(got, []string{last}) {
		t.Errorf("operations of %s = %v, want [%s] (its version's member)", f.Ref, got, last)
	}
}
