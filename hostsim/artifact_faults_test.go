package hostsim_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim"
	"github.com/takokit/takokit/hostsim/hostsimtest"
)

// The artifact faults each let through what one rule of docs/protocol.md#artifacts refuses.
func TestArtifactRuleFaults(t *testing.T) {
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: testCatalog(t)})
	c := newClient(t, sim.URL, "sim-primary")
	alt := newClient(t, sim.URL, "sim-alternate")
	other := newClient(t, sim.URL, "sim-other-tenant")
	n := 0
	// session starts an upload of a fresh module and returns its id, bytes and digest.
	session := func() (string, []byte, string) {
		n++
		js := []byte(fmt.Sprintf("%s\n// module %d\n", allHandlers, n))
		blob := wire.RawDigest(js)
		id := fmt.Sprint(c.start(manifestOf("index.js", "application/javascript+module", len(js), blob)).status(201).json()["uploadId"])
		return id, js, blob
	}
	broken(t, sim, "artifacts.session-shared", func() {
		id, js, blob := session()
		alt.putBlob(id, blob, js).refused("artifact_missing", 404)
	}, func() {
		id, js, blob := session()
		alt.putBlob(id, blob, js).status(201)
	})
	broken(t, sim, "artifacts.unverified", func() {
		id, js, blob := session()
		c.putBlob(id, blob, append([]byte("X"), js[1:]...)).refused("artifact_invalid", 400)
	}, func() {
		id, js, blob := session()
		c.putBlob(id, blob, append([]byte("X"), js[1:]...)).status(201)
	})
	// reopen starts another upload declaring blob, already held, with size.
	reopen := func(blob string, size int) string {
		return fmt.Sprint(c.start(manifestOf("index.js", "application/javascript+module", size, blob)).status(201).json()["uploadId"])
	}
	// A held blob declared again with another size is caught at commit.
	id, js, blob := session()
	c.putBlob(id, blob, js).status(201)
	c.commit(id, newKey()).status(201)
	resized := func() string { return reopen(blob, len(js)+1) }
	broken(t, sim, "artifacts.trust-declared",
		func() { c.commit(resized(), newKey()).refused("artifact_invalid", 400) },
		func() { c.commit(resized(), newKey()).status(201) })
	// Bytes of the declared size that artifacts.unverified let in under another
	// digest are caught at commit, by their hash, unless trust-declared is armed.
	arm(t, sim, "artifacts.unverified")
	id, js, blob = session()
	c.putBlob(id, blob, append([]byte("X"), js[1:]...)).status(201)
	disarm(t, sim)
	rehashed := func() string { return reopen(blob, len(js)) }
	broken(t, sim, "artifacts.trust-declared",
		func() {
			if r := c.commit(rehashed(), newKey()).refused("artifact_invalid", 400); !contains(r.body, "the stored bytes hash to") {
				t.Fatalf("a commit over bytes of another digest: %s", r.body)
			}
		},
		func() { c.commit(rehashed(), newKey()).status(201) })
	broken(t, sim, "artifacts.shared-holdings", func() {
		if code := other.headBlob(blob); code != 404 {
			t.Fatalf("another tenant's HEAD of a blob it never uploaded answered %d", code)
		}
	}, func() {
		if code := other.headBlob(blob); code != 200 {
			t.Fatalf("artifacts.shared-holdings: HEAD answered %d", code)
		}
	})
}

// The manifest rule faults: each lets one refused manifest shape start an upload.
func TestManifestRuleFaults(t *testing.T) {
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: testCatalog(t)})
	c := newClient(t, sim.URL, "sim-primary")
	js := []byte(allHandlers)
	module := map[string]any{"name": "index.js", "mediaType": "application/javascript+module", "size": len(js), "digest": wire.RawDigest(js)}
	start := func(extra map[string]any) *reply {
		m := map[string]any{"apiVersion": "artifacts.takoform.com/v1alpha1", "kind": "WorkerBundle",
			"mainModule": "index.js", "modules": []any{module}}
		for k, v := range extra {
			m[k] = v
		}
		b, _ := json.Marshal(map[string]any{"manifest": m})
		return c.start(b)
	}
	for _, tc := range []struct {
		fault string
		extra map[string]any
	}{
		{"artifacts.duplicate-names", map[string]any{"modules": []any{module, module}}},
		{"artifacts.mixed-kinds", map[string]any{"files": []any{}}},
		{"artifacts.any-main-module", map[string]any{"mainModule": "absent.js"}},
	} {
		broken(t, sim, tc.fault,
			func() { start(tc.extra).refused("artifact_invalid", 400) },
			func() { start(tc.extra).status(201) })
	}
}
