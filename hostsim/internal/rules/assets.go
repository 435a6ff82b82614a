package rules

import (
	"slices"
	"strings"
)

// AssetBundle names the static asset bundle a version's assets relation pinned.
type AssetBundle struct {
	Pointer  string // the relation, "/assets/bundle"
	Kind     string
	Name     string
	UID      string
	Manifest string // the manifest digest the bundle resolved to
}

// FallbackWithoutIndex is the refusal of docs/protocol.md#static-assets: a version
// whose notFoundHandling (at pointer) is fallback answers a missing path with index,
// so the exact manifest its bundle relation pinned must declare index. others are the
// notFoundHandling values without a fallback, offered as the other remedy.
func FallbackWithoutIndex(pointer, fallback, index string, others []string, b AssetBundle) *Refusal {
	other := ""
	if others = slices.DeleteFunc(slices.Clone(others), func(v string) bool { return v == fallback }); len(others) > 0 {
		other = ", or set notFoundHandling to " + strings.Join(others, " or ")
	}
	return invalid(pointer, "%s: %s answers every missing path with %s, but %s %q (uid %s, pinned at %s) resolves to manifest %s, "+
		"which declares no %s; upload a manifest whose files include %s and reference a bundle of it%s",
		pointer, fallback, index, b.Kind, b.Name, b.UID, b.Pointer, b.Manifest, index, index, other)
}
