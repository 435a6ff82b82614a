package profile

import (
	"maps"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
)

// The bundle ceilings of an artifact-backed Form (docs/protocol.md#support): every
// Form that commits to a manifest kind (catalog/wire/artifact.go) publishes both.
const (
	LimitBundleFiles = "maximumBundleFiles"
	LimitBundleBytes = "maximumBundleBytes"
)

// Limit is the value of one limits key in f's profile; ok is false when the profile
// is silent about it.
func (h *Host) Limit(f *catalog.Form, key string) (int64, bool) {
	l, ok := keyed(h.P.Limits, f)
	if !ok {
		return 0, false
	}
	v, ok := l[key]
	return v, ok
}

// PublishedLimits is the limits member of f's FormSupport profile: what the profile
// states, and for an artifact-backed Form the bundle ceilings it enforces even when
// the profile is silent about them — the portable ones of its manifest kind.
func (h *Host) PublishedLimits(f *catalog.Form) map[string]int64 {
	stated, _ := keyed(h.P.Limits, f)
	out := maps.Clone(stated)
	mk, ok := wire.ManifestKindOf(f.Ref.Kind)
	if !ok {
		return out
	}
	if out == nil {
		out = map[string]int64{}
	}
	if _, ok := out[LimitBundleFiles]; !ok {
		out[LimitBundleFiles] = mk.MaxEntries
	}
	if _, ok := out[LimitBundleBytes]; !ok {
		out[LimitBundleBytes] = wire.MaxBundleBytes
	}
	return out
}
