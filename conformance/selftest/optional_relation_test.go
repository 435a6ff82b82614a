package selftest

import (
	"testing"

	"github.com/takokit/takokit/conformance"
)

// TestDeletionBlockedPassesOverRelationsItCannotDeleteThrough:
// relation-target-deletion-blocked deletes the target of the first plain relation
// of the Form it made whose target it made too. On these hosts WorkerVersion is the
// first Form with a plain relation, and its first one, /assets/bundle, names a
// StaticAssetBundle the check never made, or one the host does not install. The
// check must go on to /bundle and pass, not trip over the relation it skips.
func TestDeletionBlockedPassesOverRelationsItCannotDeleteThrough(t *testing.T) {
	t.Parallel() // its own hostsim processes
	endOn(t, conformance.StatusPass, "leaves WorkerVersion the first Form with a plain relation", []hostCase{
		{"versions-first-related.json", []string{"relation-target-deletion-blocked"}},
		{"versions-first-related-no-assets.json", []string{"relation-target-deletion-blocked"}},
	})
}
