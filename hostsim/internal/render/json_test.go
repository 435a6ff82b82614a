package render

import (
	"encoding/json"
	"math/rand"
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
