package artifact_test

import (
	"bytes"
	"fmt"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/artifact"
	"github.com/takokit/takokit/hostsim/internal/artifact/artifacttest"
	"github.com/takokit/takokit/hostsim/internal/rules"
)

// Example walks the upload flow the way the lane's routes call it: each call runs
// inside one write transaction (artifact.SQL{Q: tx} in hostsim), and a *rules.Refusal
// becomes the error envelope.
func Example() {
	st := artifacttest.NewMem() // hostsim: artifact.SQL{Q: tx}
	who := artifact.Caller{Tenant: "tenant-a", Principal: "alice"}
	js := []byte(`export default { async fetch() { return new Response("ok"); } };`)
	manifest := []byte(fmt.Sprintf(`{"apiVersion":"artifacts.takoform.com/v1alpha1","kind":"WorkerBundle",
		"mainModule":"index.js","modules":[{"name":"index.js","mediaType":"application/javascript+module",
		"size":%d,"digest":%q}]}`, len(js), sha(js)))

	// POST /artifacts/uploads → 201 {uploadId, missingBlobs}
	s, _ := artifact.Start(st, who, manifest, artifact.Portable)
	fmt.Println("missing:", len(s.MissingBlobs))

	// PUT /artifacts/uploads/{id}/blobs/{sha256} → 201 (created) or 204
	created, _ := artifact.PutBlob(st, who, s.UploadID, sha(js), bytes.NewReader(js))
	fmt.Println("blob created:", created)

	// POST /artifacts/uploads/{id}/commit → 201 (created) or 200 {manifestDigest}
	digest, created, _ := artifact.Commit(st, who, s.UploadID, artifact.Portable)
	fmt.Println("committed:", created, digest == s.Manifest.Digest)

	// apply of a bundle resource, then of a version naming handlers
	m, _ := artifact.ResolveBundle(st, who, "/manifestDigest", digest, wire.WorkerBundleManifest, artifact.Portable)
	handlers, main, _ := artifact.MainModuleExports(st, m)
	fmt.Println("exports:", handlers)
	r := rules.CheckHandlersExported("/handlers", []string{"fetch", "queue"}, handlers,
		fmt.Sprintf("main module %q of the bundle", main.Path))
	fmt.Println(r.Code)

	// Another tenant holds nothing: GET /artifacts/{digest} → artifact_missing.
	_, err := artifact.ReadManifest(st, "tenant-b", digest)
	ref, _ := rules.AsRefusal(err)
	fmt.Println(ref.Code, ref.Wire().Status())
	// Output:
	// missing: 1
	// blob created: true
	// committed: true true
	// exports: [fetch]
	// invalid_argument
	// artifact_missing 404
}
