package artifact

import (
	"fmt"
	"math"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/fault"
	"github.com/takokit/takokit/hostsim/internal/rules"
)

// Ceilings are the published ceilings one manifest is held to
// (docs/protocol.md#support): maximumBundleFiles bounds the number of entries,
// maximumBundleBytes their summed declared sizes.
type Ceilings struct {
	Files, Bytes int64
	// FilesFrom and BytesFrom say where each ceiling comes from, for messages:
	// `profile "full", limits of StaticAssetBundle`, or "the portable ceiling".
	FilesFrom, BytesFrom string
}

// Limits answers the ceilings in force for a manifest kind. A nil Limits holds
// every kind to its portable ceilings.
type Limits func(k *wire.ManifestKind) Ceilings

// Portable are the portable ceilings of a kind: its MaxEntries and 10 MiB.
func Portable(k *wire.ManifestKind) Ceilings {
	return Ceilings{Files: k.MaxEntries, Bytes: wire.MaxBundleBytes, FilesFrom: "the portable ceiling", BytesFrom: "the portable ceiling"}
}

// unbounded reads back a stored upload session: its manifest passed the ceilings
// when it started and is held to them again at commit.
func unbounded(*wire.ManifestKind) Ceilings {
	return Ceilings{Files: math.MaxInt64, Bytes: math.MaxInt64, FilesFrom: "no ceiling", BytesFrom: "no ceiling"}
}

func (l Limits) of(k *wire.ManifestKind) Ceilings {
	if l == nil {
		return Portable(k)
	}
	return l(k)
}

// checkCeilings holds the entries to maximumBundleFiles and their summed sizes to
// maximumBundleBytes; the fault artifacts.over-limits lets a manifest over them through.
func checkCeilings(m *Manifest, ceil Ceilings, c Caller) *rules.Refusal {
	r := overCeilings(m, ceil)
	if r == nil {
		return nil
	}
	if c.Faults.On(fault.ArtifactsOverLimits) {
		return nil // the manifest is accepted over the published ceilings
	}
	return r
}

func overCeilings(m *Manifest, ceil Ceilings) *rules.Refusal {
	what := m.Kind.Member
	if n := int64(len(m.List)); n > ceil.Files {
		return bad("/"+m.Kind.Member, "a %s manifest declares %d %s, over maximumBundleFiles %d (%s); split the bundle or use a host that accepts more",
			m.Kind.Kind, n, what, ceil.Files, ceil.FilesFrom)
	}
	if total := m.TotalSize(); total > ceil.Bytes {
		return bad("", "declared %s sizes sum to %d bytes, over maximumBundleBytes %d (%s); shrink the bundle or use a host that accepts more",
			singular(what), total, ceil.Bytes, ceil.BytesFrom)
	}
	return nil
}

// singular is "module" for "modules", "file" for "files".
func singular(member string) string {
	if n := len(member); n > 1 && member[n-1] == 's' {
		return member[:n-1]
	}
	return member
}

// ProfileLimits names a host profile's limits of a Form kind, for messages.
func ProfileLimits(profile, formKind string) string {
	return fmt.Sprintf("profile %q, limits of %s", profile, formKind)
}

// LowerFiles lowers maximumBundleFiles to n when n is lower, naming where n comes from.
func (c *Ceilings) LowerFiles(n int64, from string) {
	if n < c.Files {
		c.Files, c.FilesFrom = n, from
	}
}

// LowerBytes lowers maximumBundleBytes to n when n is lower, naming where n comes from.
func (c *Ceilings) LowerBytes(n int64, from string) {
	if n < c.Bytes {
		c.Bytes, c.BytesFrom = n, from
	}
}
