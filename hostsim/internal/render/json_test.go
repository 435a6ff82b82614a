package render

import (
	"encoding/json"
	"math/rand"
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog/wire"
)

// The written representation is byte for byte json.Marshal's, whether it is
// written directly or falls back to the marshal.
func TestRepresentationJSONIsTheMarshal(t *testing.T) {
	rnd := rand.New(rand.NewSource(7))
	pick := func(xs ...string) string { return xs[rnd.Intn(len(xs))] }
	texts := []string{"", "plain", "a b", `q"uote`, `back\slash`, "<tag>", "a&b", "é", "\u2028", "\x01", "\x7f", "\xff"}
	raws := []string{"{}", `{"a":1}`, `{"a":"b c"}`, `{"a":"<"}`, `{"a":"é"}`, `{ "a": 1 }`, `{"h":"\u00e9"}`, `[1,2]`}
	for i := range 3000 {
		r := &Representation{APIVersion: pick("edge.forms.takokit.dev/v1alpha1", pick(texts...)), Kind: pick("EdgeKV", pick(texts...)),
			Form: Form{FormRef: wire.FormRef{APIVersion: pick("g/v1", pick(texts...)), Kind: "K", DefinitionVersion: pick("0.1.0", pick(texts...)),
				SchemaDigest: "sha256:9d43"}, PackageDigest: pick("", "sha256:17c6", pick(texts...))},
			Metadata: Metadata{Name: pick("orders", pick(texts...)), Space: pick(texts...), UID: "u-1", Generation: "1", Revision: pick("1", "22")},
			Spec:     json.RawMessage(pick(raws...)),
			Status: Status{ObservedGeneration: "1", Conditions: []Condition{{Type: "Ready", Status: "True", Reason: "Available",
				LastTransitionTime: "2026-12-01T16:39:47Z", HostReason: pick("", pick(texts...)), Message: pick("", pick(texts...))}}},
		}
		switch i % 4 {
		case 1:
			r.Status.Outputs = json.RawMessage(pick(raws...))
		case 2:
			r.Status.Conditions = append(r.Status.Conditions, Condition{Type: "Reconciling", Status: "True", Reason: "Reconciling",
				LastTransitionTime: "t", HostReason: "form-transition", Message: pick(texts...)})
		case 3:
			r.Spec, r.Status.Conditions = nil, nil
		}
		want, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		if got := r.JSON(); string(got) != string(want) {
			t.Fatalf("representation %d:\n got %s\nwant %s", i, got, want)
		}
	}
}

// Writing a plain representation allocates its buffer once: it is sized
// for the spec and outputs in advance and never grows. (json.Marshal also
// allocates once, from its pooled buffer, so this does not tell the direct
// write from the marshal: docs/mutation-equivalent-render.md.)
func TestPlainRepresentationAllocatesOnce(t *testing.T) {
	r := &Representation{APIVersion: "edge.forms.takoform.com/v1beta1", Kind: "EdgeKVNamespace",
		Form: Form{FormRef: wire.FormRef{APIVersion: "edge.forms.takoform.com/v1beta1", Kind: "EdgeKVNamespace", DefinitionVersion: "0.1.0",
			SchemaDigest: "sha256:9d43b1aab140d6127e905be4a4d40e29840bc5bc2303b98d671c08b4108d96dd"}, PackageDigest: "sha256:17c6b0c7341db9a6fa8a9a471d16405939c180837a884e1f558e1fe4d8bca9ab"},
		Metadata: Metadata{Name: "r-1", Space: "bench", UID: "u-d32f94baa3d0a5364a1a", Generation: "1", Revision: "1"},
		Spec:     json.RawMessage(`{"title":"a spec of some length, as a worker's would be: ` + strings.Repeat("x", 900) + `"}`),
		Status: Status{ObservedGeneration: "1", Conditions: []Condition{{Type: "Ready", Status: "True", Reason: "Available",
			LastTransitionTime: "2026-12-01T16:39:47Z"}}}}
	r.Spec = json.RawMessage(strings.ReplaceAll(string(r.Spec), " ", "-"))
	if n := testing.AllocsPerRun(50, func() { _ = r.JSON() }); n != 1 {
		t.Fatalf("writing a plain representation took %v allocations, want 1", n)
	}
}

func BenchmarkRepresentationJSON(b *testing.B) {
	r := &Representation{APIVersion: "edge.forms.takokit.dev/v1alpha1", Kind: "EdgeKVNamespace",
		Form: Form{FormRef: wire.FormRef{APIVersion: "edge.forms.takokit.dev/v1alpha1", Kind: "EdgeKVNamespace", DefinitionVersion: "0.1.0",
			SchemaDigest: "sha256:9d43b1aab140d6127e905be4a4d40e29840bc5bc2303b98d671c08b4108d96dd"}, PackageDigest: "sha256:17c6b0c7341db9a6fa8a9a471d16405939c180837a884e1f558e1fe4d8bca9ab"},
		Metadata: Metadata{Name: "r-1", Space: "bench", UID: "u-d32f94baa3d0a5364a1a", Generation: "1", Revision: "1"},
		Spec:     json.RawMessage(`{}`),
		Status: Status{ObservedGeneration: "1", Conditions: []Condition{{Type: "Ready", Status: "True", Reason: "Available",
			LastTransitionTime: "2026-12-01T16:39:47Z"}}}}
	b.ReportAllocs()
	for b.Loop() {
		_ = r.JSON()
	}
}

// An ordinary representation is written directly, not marshalled: its strings
// are printable ASCII (spaces, ':', '/', '-' and '.' among them) and its spec
// and outputs compact JSON. Each text json.Marshal would escape, and spec
// bytes it might not keep as they are, send it to the marshal instead. The
// bytes are the marshal's either way (above); this pins which path a
// lifecycle's answers take, which hostsim's speed depends on.
func TestPlainRepresentationsSkipTheMarshal(t *testing.T) {
	plain := func() *Representation {
		return &Representation{APIVersion: "edge.forms.takoform.com/v1beta1", Kind: "EdgeKVNamespace",
			Form: Form{FormRef: wire.FormRef{APIVersion: "edge.forms.takoform.com/v1beta1", Kind: "EdgeKVNamespace", DefinitionVersion: "0.1.0",
				SchemaDigest: "sha256:9d43"}, PackageDigest: "sha256:17c6"},
			Metadata: Metadata{Name: "orders-kv", Space: "demo", UID: "u-1", Generation: "1", Revision: "2"},
			Spec:     json.RawMessage(`{"title":"orders","ttl":30}`),
			Status: Status{ObservedGeneration: "1", Conditions: []Condition{{Type: "Ready", Status: "False", Reason: "Pending",
				LastTransitionTime: "2026-12-01T16:39:47Z", HostReason: "no-active-deployment", Message: "worker api: no deployment yet ~ see /_sim/ui/"}},
				Outputs: json.RawMessage(`{"namespaceId":"kv-1","url":"https://h.example/x?y=1"}`)},
		}
	}
	want, _ := json.Marshal(plain())
	got, ok := plain().appendPlain(nil)
	if !ok || string(got) != string(want) {
		t.Fatalf("a plain representation was not written directly (ok %v):\n got %s\nwant %s", ok, got, want)
	}
	for _, text := range []string{"\x1f", "\x80", "é", `"`, `\`, "<", ">", "&"} {
		for name, set := range map[string]func(*Representation){
			"message": func(r *Representation) { r.Status.Conditions[0].Message += text },
			"name":    func(r *Representation) { r.Metadata.Name += text },
		} {
			r := plain()
			set(r)
			if _, ok := r.appendPlain(nil); ok {
				t.Errorf("%q in the %s was written directly; json.Marshal escapes it", text, name)
			}
		}
	}
	for _, raw := range []string{`{"a":"b c"}`, "{\"a\":\"\x1f\"}", `{"a":"é"}`, `{"a":"<"}`, `{"a":">"}`, `{"a":"&"}`, "{\"a\":\"\x7f\"}"} {
		for name, set := range map[string]func(*Representation){
			"spec":    func(r *Representation) { r.Spec = json.RawMessage(raw) },
			"outputs": func(r *Representation) { r.Status.Outputs = json.RawMessage(raw) },
		} {
			r := plain()
			set(r)
			if _, ok := r.appendPlain(nil); ok {
				t.Errorf("%s %s was embedded as it is; only compact JSON of plain ASCII is", name, raw)
			}
		}
	}
}
