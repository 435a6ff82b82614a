package artifact_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/artifact"
)

// BenchmarkParseManifestOverItsCeiling parses a static-asset manifest one entry
// over a host's maximumBundleFiles of 1,000: the largest manifest a client sends,
// and one the host refuses (conformance's bundle-ceilings check sends such a one
// in every run).
func BenchmarkParseManifestOverItsCeiling(b *testing.B) {
	mk, ok := wire.ManifestKindNamed("StaticAssetBundle")
	if !ok {
		b.Fatal("no StaticAssetBundle manifest kind")
	}
	const ceiling = 1000
	files := make([]any, ceiling+1)
	for i := range files {
		files[i] = map[string]any{mk.PathMember: fmt.Sprintf("f%05d.txt", i), "mediaType": "text/plain", "size": 0, "digest": wire.RawDigest(nil)}
	}
	raw, err := json.Marshal(map[string]any{"apiVersion": wire.ArtifactAPIVersion, "kind": mk.Kind, mk.Member: files})
	if err != nil {
		b.Fatal(err)
	}
	limits := func(k *wire.ManifestKind) artifact.Ceilings {
		c := artifact.Portable(k)
		c.Files = ceiling
		return c
	}
	if _, r := artifact.ParseManifest(raw, limits); r == nil || !strings.Contains(r.Error(), "over maximumBundleFiles") {
		b.Fatalf("a manifest of %d entries over a ceiling of %d was not refused for it: %v", len(files), ceiling, r)
	}
	b.SetBytes(int64(len(raw)))
	for b.Loop() {
		artifact.ParseManifest(raw, limits)
	}
}
