package takoform

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim"
)

// repackagedCatalog is the project catalog with one fixture of AtLeastOnceQueue 0.2.0
// rewritten (same JSON, other bytes) and its package index updated: every FormRef and
// schemaDigest is the same, but 0.2.0's packageDigest differs — what a provider built
// from a later catalog release carries.
func repackagedCatalog(t *testing.T) *catalog.Catalog {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join(repoRoot(t), "catalog", catalog.EmbeddedDir(wire.DefaultLane)))); err != nil {
		t.Fatal(err)
	}
	pkg := filepath.Join(dir, "forms", "edge-v1beta1", "at-least-once-queue", "0.2.0")
	fixture := filepath.Join(pkg, "fixtures", "desired.json")
	raw, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	raw = append(raw, '\n')
	var idx map[string]any
	readJSON(t, filepath.Join(pkg, "package-index.json"), &idx)
	for _, f := range idx["files"].([]any) {
		if m := f.(map[string]any); m["path"] == "fixtures/desired.json" {
			sum := sha256.Sum256(raw)
			m["size"], m["digest"] = len(raw), "sha256:"+hex.EncodeToString(sum[:])
		}
	}
	if os.WriteFile(fixture, raw, 0o644) != nil || os.WriteFile(filepath.Join(pkg, "package-index.json"), indentJSON(t, idx), 0o644) != nil {
		t.Fatal("write the repackaged queue")
	}
	relist(t, dir)
	return loadCatalogDir(t, dir)
}

// TestTransitionResumeSendsTheKeptBytesAfterAProviderUpgrade: a transition left
// prepared and undispatched (crash point A) is resumed by a provider built from a
// later catalog release, whose 0.2.0 package digest differs. The resume sends the
// kept request byte for byte, under its operation id, and commits it; a request built
// afresh would be another transition.
func TestTransitionResumeSendsTheKeptBytesAfterAProviderUpgrade(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	st, cfg, up := crashedAtA(t, h)
	upgraded := repackagedCatalog(t)
	if a, b := kindByType(t, testProvider(t), queueType).model.newest, kindByType(t, mustProvider(t, upgraded), queueType).model.newest; a.Ref != b.Ref || a.PackageDigest == b.PackageDigest {
		t.Fatalf("the upgrade must keep the ref (%v, %v) and change the package digest (%s)", a.Ref, b.Ref, a.PackageDigest)
	}
	var err error
	if h.srv, err = providerserver.NewProtocol6WithError(mustProvider(t, upgraded))(); err != nil {
		t.Fatal(err)
	}
	capReconfigure(t, h)
	done, d := applyTransition(t, h, cfg, up)
	mustBeCommitted(t, st, done, d)
	c, err := h.sim.Admin.Counters()
	if err != nil {
		t.Fatal(err)
	}
	if n, ok := c.Dispatch[up.str(aPendingOp)]; !ok || n != 1 || len(c.Dispatch) != 1 {
		t.Errorf("dispatch counters %v: want the kept operation %s dispatched once and no other", c.Dispatch, up.str(aPendingOp))
	}
}

func mustProvider(t *testing.T, cat *catalog.Catalog) *Provider {
	t.Helper()
	p, err := newProvider("test", cat)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
