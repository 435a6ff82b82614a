package takoform

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim"
)

// alteredCatalog copies the project catalog and changes the description of one
// Form package (dir, relative to the catalog root), resealing only that package:
// the result carries the same group, kind and definitionVersion at another
// schemaDigest — "a different contract under the same name and version".
func alteredCatalog(t *testing.T, dir string) *catalog.Catalog {
	t.Helper()
	tmp := t.TempDir()
	if err := os.CopyFS(tmp, os.DirFS(filepath.Join(repoRoot(t), "catalog", catalog.EmbeddedDir(wire.DefaultLane)))); err != nil {
		t.Fatal(err)
	}
	pkg := filepath.Join(tmp, dir)
	defPath, idxPath := filepath.Join(pkg, "definition.json"), filepath.Join(pkg, "package-index.json")
	raw, err := os.ReadFile(defPath)
	if err != nil {
		t.Fatal(err)
	}
	var def map[string]any
	if err := json.Unmarshal(raw, &def); err != nil {
		t.Fatal(err)
	}
	def["description"] = "Altered for a digest-disagreement test."
	raw, err = json.MarshalIndent(def, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	raw = append(raw, '\n')
	digest, err := wire.Digest(raw)
	if err != nil {
		t.Fatal(err)
	}
	var idx map[string]any
	idxRaw, err := os.ReadFile(idxPath)
	if err != nil || json.Unmarshal(idxRaw, &idx) != nil {
		t.Fatalf("read %s: %v", idxPath, err)
	}
	idx["formRef"].(map[string]any)["schemaDigest"] = digest
	sum := sha256.Sum256(raw)
	for _, f := range idx["files"].([]any) {
		if m := f.(map[string]any); m["path"] == "definition.json" {
			m["size"], m["digest"] = len(raw), "sha256:"+hex.EncodeToString(sum[:])
		}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(idx); err != nil {
		t.Fatal(err)
	}
	if os.WriteFile(defPath, raw, 0o644) != nil || os.WriteFile(idxPath, buf.Bytes(), 0o644) != nil {
		t.Fatal("write the altered package")
	}
	relist(t, tmp)
	cat, err := catalog.Load(os.DirFS(tmp))
	if err != nil {
		t.Fatalf("the altered catalog does not load: %v", err)
	}
	return cat
}

func TestCapabilityFormDigestDisagreementIsARefusal(t *testing.T) {
	cat := alteredCatalog(t, "forms/edge-v1beta1/edge-kv-namespace/0.1.0")
	p, err := newProvider("test", cat)
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, hostsim.Config{}) // the host carries the original document
	if h.srv, err = providerserver.NewProtocol6WithError(p)(); err != nil {
		t.Fatal(err)
	}
	h.p = p
	capReconfigure(t, h)
	ours := kindByType(t, p, capKVType).model.newest.Ref
	hostRef := kindByType(t, testProvider(t), capKVType).model.newest.Ref
	if hostRef.SchemaDigest == ours.SchemaDigest {
		t.Fatal("the altered catalog kept the digest")
	}
	pr := h.plan(capKVType, values{aName: s("cache")}, nil)
	wantDiags(t, named(pr.diags, "<ours>", ours.SchemaDigest, "<host's>", hostRef.SchemaDigest), errorDiag("Host does not offer EdgeKVNamespace 0.1.0",
		"The host implements EdgeKVNamespace 0.1.0 at <host's>, not at <ours> as the Form names it: a different contract under the same name and version. The host offers no other version of EdgeKVNamespace. This is a fact about this host; the same configuration works on a host that offers it.",
		"",
		"Resource: takoform_edge_kv_namespace (dev/cache)",
		"Form: edge.forms.takokit.dev/v1beta1 EdgeKVNamespace@0.1.0 schema=<ours>",
		"Pointer: /form/formRef",
		"Code: takoform.provider/host-does-not-support-form",
		"Retryable: no",
		"",
		"Point the provider at a host that offers it, or remove these resources."))
	// an unaltered kind of the same catalog plans cleanly on the same host
	mustNoError(t, "queue", h.plan(queueType, values{aName: s("orders"), "message_retention_seconds": i64(3600)}, nil).diags)
}

// A binding route that answers the contract at another schemaDigest is a
// refusal at plan time naming both digests (decision 0031): the host implements
// a different contract under the same name and version.
func TestCapabilityBindingDigestDisagreementIsARefusal(t *testing.T) {
	h := newHarness(t, hostsim.Config{})
	if err := h.sim.Admin.ArmFault("support.binding-digest=module-worker.object-bucket"); err != nil {
		t.Fatal(err)
	}
	want := bindingDigest(t, "module-worker.object-bucket")
	pr := h.plan("takoform_worker_version", versionConfig(t, []string{"fetch"}, true, true), nil)
	// the KV binding, answered at its own digest, is not refused; <sha256-1> is the
	// host's digest, which is not the Form's (that one is named)
	wantDiags(t, named(pr.diags, "<Form's>", want), errorDiag("Host does not implement binding module-worker.object-bucket@1.0.0",
		"bucket_bindings uses this binding contract. The host implements it at <sha256-1>, not at <Form's> as the Form names it: a different contract under the same name and version. The host may implement other bindings; apply would end in unsupported_capability (422). This is a fact about this host, not about the configuration: the same configuration applies unchanged on a host that implements it.",
		"",
		"Resource: takoform_worker_version (dev/version-770938bfde56-14c2529eb449)",
		"Form: edge.forms.takokit.dev/v1beta1 WorkerVersion@0.1.0 schema=<sha256-2>",
		"Pointer: /spec/bucketBindings",
		"Code: takoform.provider/host-does-not-support-binding",
		"Retryable: no",
		"",
		"Remove the binding or use another host.").at("bucket_bindings"))
	if c, _ := h.sim.Admin.Counters(); c.Fired["support.binding-digest=module-worker.object-bucket"] == 0 || c.Mutations != 0 {
		t.Fatalf("fired %v, mutations %d: the fault must have answered the plan and nothing be mutated", c.Fired, c.Mutations)
	}
	mustNoError(t, "a KV-only worker plans cleanly", h.plan("takoform_worker_version", versionConfig(t, []string{"fetch"}, true, false), nil).diags)
}

// An interface route that answers the contract at another schemaDigest: a Form
// providing that interface is refused at plan time, naming both digests.
func TestCapabilityInterfaceDigestDisagreementIsARefusal(t *testing.T) {
	h := newHarness(t, hostsim.Config{})
	if err := h.sim.Admin.ArmFault("support.interface-digest=edge.queue"); err != nil {
		t.Fatal(err)
	}
	var want string
	for _, in := range kindByType(t, testProvider(t), queueType).model.newest.Provided {
		if in.Name == "edge.queue" {
			want = in.SchemaDigest
		}
	}
	pr := h.plan(queueType, values{aName: s("orders"), "message_retention_seconds": i64(3600)}, nil)
	if want == "" {
		t.Fatal("AtLeastOnceQueue provides no edge.queue")
	}
	wantDiags(t, named(pr.diags, "<Form's>", want), errorDiag("Host does not implement edge.queue@1.0.0",
		"Every resource of AtLeastOnceQueue 0.2.0 provides this contract. The host implements it at <sha256-1>, not at <Form's> as the Form names it: a different contract under the same name and version. This is a fact about this host, not about the configuration: the same configuration applies unchanged on a host that implements it.",
		"",
		"Resource: takoform_at_least_once_queue (dev/orders)",
		"Form: edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue@0.2.0 schema=<sha256-2>",
		"Pointer: /form/formRef",
		"Code: takoform.provider/host-does-not-support-interface",
		"Retryable: no",
		"",
		"Use a host implementing this exact contract."))
	mustNoError(t, "kv namespace", h.plan(capKVType, values{aName: s("cache")}, nil).diags)
}

// bindingDigest is the schemaDigest of the named binding in the provider's catalog.
func bindingDigest(t *testing.T, name string) string {
	t.Helper()
	cat, err := catalog.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range cat.Bindings() {
		if b.Ref.Name == name {
			return b.Ref.SchemaDigest
		}
	}
	t.Fatalf("no binding %s in the catalog", name)
	return ""
}
