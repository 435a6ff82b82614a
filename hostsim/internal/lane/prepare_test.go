package lane

import (
	"encoding/json"
	"testing"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/request"
)

// prepare's answer has the bytes of the map it was built as before.
func TestPreparedAnswerMarshalsAsItsMap(t *testing.T) {
	ref := wire.FormRef{APIVersion: "edge.forms.takokit.dev/v1alpha1", Kind: "EdgeKVNamespace", DefinitionVersion: "0.1.0",
		SchemaDigest: "sha256:9d43b1aab140d6127e905be4a4d40e29840bc5bc2303b98d671c08b4108d96dd"}
	pkg, empty := "sha256:17c6b0c7341db9a6fa8a9a471d16405939c180837a884e1f558e1fe4d8bca9ab", ""
	for _, pd := range []*string{nil, &pkg, &empty} {
		in := &request.Request{APIVersion: ref.APIVersion, Kind: ref.Kind, Ref: ref, PackageDigest: pd, Name: "orders", Space: "a<b>&\u2028"}
		spec := json.RawMessage(`{"host":"x<y>&z","n":1}`)
		form := map[string]any{"formRef": in.Ref}
		if in.PackageDigest != nil {
			form["packageDigest"] = *in.PackageDigest
		}
		old := marshal(map[string]any{
			"resource": map[string]any{"apiVersion": in.APIVersion, "kind": in.Kind, "form": form,
				"metadata": map[string]string{"name": in.Name, "space": in.Space}, "spec": spec},
			"review": map[string]string{"prepareDigest": "sha256:d", "specDigest": "sha256:s"},
		})
		if got := marshal(preparedAnswer(in, spec, "sha256:d", "sha256:s")); string(got) != string(old) {
			t.Errorf("packageDigest %v:\n got %s\nwant %s", pd, got, old)
		}
	}
}
