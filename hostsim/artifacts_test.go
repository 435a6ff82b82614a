package hostsim_test

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim"
	"github.com/takokit/takokit/hostsim/hostsimtest"
)

// manifestOf is the upload-start body for one module.
func manifestOf(name, mediaType string, size int, digest string) []byte {
	b, _ := json.Marshal(map[string]any{"manifest": map[string]any{"apiVersion": "artifacts.takoform.com/v1alpha1",
		"kind": "WorkerBundle", "mainModule": name, "modules": []any{map[string]any{"name": name, "mediaType": mediaType,
			"size": size, "digest": digest}}}})
	return b
}

func (c *client) start(body []byte) *reply {
	return c.do("POST", api+"/artifacts/uploads", map[string]string{"Idempotency-Key": newKey()}, body)
}

func (c *client) commit(id, key string) *reply {
	return c.do("POST", api+"/artifacts/uploads/"+id+"/commit", map[string]string{"Idempotency-Key": key}, nil)
}

func (c *client) putBlob(id, digest string, data []byte) *reply {
	return c.do("PUT", api+"/artifacts/uploads/"+id+"/blobs/"+digest, nil, data)
}

func (c *client) headBlob(digest string) int {
	return c.do("HEAD", api+"/artifacts/blobs/"+digest, nil, nil).code
}

func TestArtifactUploadFlow(t *testing.T) {
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: testCatalog(t)})
	alice := newClient(t, sim.URL, "sim-primary")
	bob := newClient(t, sim.URL, "sim-alternate")
	carol := newClient(t, sim.URL, "sim-other-tenant")
	js := []byte(allHandlers)
	blob := wire.RawDigest(js)
	body := manifestOf("index.js", "application/javascript+module", len(js), blob)

	st := alice.start(body).status(201).json()
	id := fmt.Sprint(st["uploadId"])
	if miss := fmt.Sprint(st["missingBlobs"]); miss != "["+blob+"]" {
		t.Fatalf("missingBlobs %s, want [%s]", miss, blob)
	}
	// The session belongs to its principal: bob gets artifact_missing.
	bob.putBlob(id, blob, js).refused("artifact_missing", 404)
	// Wrong bytes are refused and nothing is held.
	alice.putBlob(id, blob, []byte(strings.ToUpper(allHandlers))).refused("artifact_invalid", 400)
	if code := alice.headBlob(blob); code != 404 {
		t.Fatalf("HEAD after a refused PUT: %d, want 404", code)
	}
	// Commit before the blob: artifact_missing.
	alice.commit(id, newKey()).refused("artifact_missing", 404)
	alice.putBlob(id, blob, js).status(201)
	alice.putBlob(id, blob, js).status(204)
	key := newKey()
	first := alice.commit(id, key).status(201)
	digest := fmt.Sprint(first.json()["manifestDigest"])
	if again := alice.commit(id, key).status(201); string(again.body) != string(first.body) {
		t.Fatalf("commit replay differs: %s vs %s", again.body, first.body)
	}
	if again := alice.commit(id, newKey()).status(200); fmt.Sprint(again.json()["manifestDigest"]) != digest {
		t.Fatalf("second commit answered another digest: %s", again.body)
	}
	got := alice.do("GET", api+"/artifacts/"+digest, nil, nil).status(200)
	if d, err := wire.Digest(got.body); err != nil || d != digest {
		t.Fatalf("the stored manifest canonicalizes to %s (%v), want %s", d, err, digest)
	}
	if code := alice.headBlob(blob); code != 200 {
		t.Fatalf("HEAD of a held blob: %d", code)
	}
	// Another tenant holds nothing: content addresses are not capabilities.
	if code := carol.headBlob(blob); code != 404 {
		t.Fatalf("HEAD by another tenant: %d, want 404", code)
	}
	carol.do("GET", api+"/artifacts/"+digest, nil, nil).refused("artifact_missing", 404)
	if miss := fmt.Sprint(carol.start(body).status(201).json()["missingBlobs"]); miss != "["+blob+"]" {
		t.Fatalf("another tenant's missingBlobs %s, want [%s]", miss, blob)
	}
	// The same tenant starting again is missing nothing.
	if miss := fmt.Sprint(bob.start(body).status(201).json()["missingBlobs"]); miss != "[]" {
		t.Fatalf("missingBlobs after the tenant holds the blob: %s", miss)
	}
	cnt, err := sim.Admin.Counters()
	if err != nil {
		t.Fatal(err)
	}
	// alice: start, PUT 201, PUT 204, commit 201, commit 200; carol and bob: one start each.
	if cnt.Uploads != 7 || cnt.Mutations != 0 {
		t.Fatalf("counters uploads %d mutations %d, want 7 and 0", cnt.Uploads, cnt.Mutations)
	}
}

func TestArtifactAbandonAndManifestRules(t *testing.T) {
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: testCatalog(t)})
	c := newClient(t, sim.URL, "sim-primary")
	js := []byte(allHandlers)
	blob := wire.RawDigest(js)
	id := fmt.Sprint(c.start(manifestOf("index.js", "application/javascript+module", len(js), blob)).status(201).json()["uploadId"])
	c.putBlob(id, blob, js).status(201)
	c.do("DELETE", api+"/artifacts/uploads/"+id, map[string]string{"Idempotency-Key": newKey()}, nil).status(204)
	c.putBlob(id, blob, js).refused("artifact_missing", 404)
	if code := c.headBlob(blob); code != 404 {
		t.Fatalf("an abandoned session's blob is still held: HEAD %d", code)
	}
	// application/json is not a module type.
	c.start(manifestOf("index.js", "application/json", len(js), blob)).refused("artifact_invalid", 400)
	// Not a digest: artifact_missing on read.
	c.do("GET", api+"/artifacts/sha256:nothex", nil, nil).refused("artifact_missing", 404)
	if cnt, _ := sim.Admin.Counters(); cnt.Uploads != 2 {
		t.Fatalf("uploads %d, want 2 (refusals and abandon are not counted)", cnt.Uploads)
	}
}

// maximumBundleBytes bounds upload start and commit, and again the bundle
// apply under the profile in force then (docs/protocol.md#artifacts).
func TestMaximumBundleBytesAtUploadAndApply(t *testing.T) {
	cat := testCatalog(t)
	big := []byte("export default { async fetch() {} };\n" + strings.Repeat("//", 600*1024))
	blob := wire.RawDigest(big)
	body := manifestOf("index.js", "application/javascript+module", len(big), blob)

	tight := hostsimtest.Start(t, hostsim.Config{Catalog: cat, Profile: "tight-limits"})
	c := newClient(t, tight.URL, "sim-primary")
	r := c.start(body).refused("artifact_invalid", 400)
	if !contains(r.body, "1048576") {
		t.Fatalf("the refusal must name the limit: %s", r.body)
	}

	db := filepath.Join(t.TempDir(), "sim.db")
	full := hostsimtest.Start(t, hostsim.Config{Catalog: cat, DBPath: db})
	c = newClient(t, full.URL, "sim-primary")
	id := fmt.Sprint(c.start(body).status(201).json()["uploadId"])
	c.putBlob(id, blob, big).status(201)
	digest := fmt.Sprint(c.commit(id, newKey()).status(201).json()["manifestDigest"])
	full.Host.Close()

	again := hostsimtest.Start(t, hostsim.Config{Catalog: cat, DBPath: db, Profile: "tight-limits"})
	w := &world{t: t, c: newClient(t, again.URL, "sim-primary"), cat: cat, space: "prod"}
	w.create(kBundle, "big", map[string]any{"manifestDigest": digest}).refused("artifact_invalid", 400)
	w.read(kBundle, "big").refused("resource_not_found", 404)
	// A digest nobody committed is artifact_missing, and nothing is stored.
	w.create(kBundle, "ghost", map[string]any{"manifestDigest": "sha256:" + strings.Repeat("ab", 32)}).refused("artifact_missing", 404)
	w.read(kBundle, "ghost").refused("resource_not_found", 404)
}
