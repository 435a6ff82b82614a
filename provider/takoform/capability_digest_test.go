package takoform

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

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
	if hostRef := kindByType(t, testProvider(t), capKVType).model.newest.Ref; hostRef.SchemaDigest == ours.SchemaDigest {
		t.Fatal("the altered catalog kept the digest")
	}
	pr := h.plan(capKVType, values{aName: s("cache")}, nil)
	d := diagWith(pr.diags, "Host does not offer EdgeKVNamespace 0.1.0", codeHostNoForm, "different contract", ours.SchemaDigest)
	if d == nil || d.Severity != tfprotov6.DiagnosticSeverityError {
		t.Fatalf("want the digest disagreement refused as the Form:\n%s", dump(pr.diags))
	}
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
	d := diagWith(pr.diags, "Host does not implement binding module-worker.object-bucket@1.0.0", codeHostNoBinding,
		"/spec/bucketBindings", "not at "+want+" as the Form names it", "a different contract under the same name and version")
	if d == nil || d.Severity != tfprotov6.DiagnosticSeverityError || d.Attribute == nil {
		t.Fatalf("want the binding digest disagreement refused at bucket_bindings:\n%s", dump(pr.diags))
	}
	if got := implementedDigest(d.Detail); got == "" || got == want {
		t.Fatalf("the refusal names the implemented digest %q; want the host's other digest:\n%s", got, d.Detail)
	}
	if diagWith(pr.diags, "module-worker.edge-kv") != nil {
		t.Errorf("the KV binding, answered at its own digest, was refused:\n%s", dump(pr.diags))
	}
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
	d := diagWith(pr.diags, "Host does not implement edge.queue@1.0.0", codeHostNoInterface, "Pointer: /form/formRef",
		"not at "+want+" as the Form names it")
	if want == "" || d == nil || d.Severity != tfprotov6.DiagnosticSeverityError {
		t.Fatalf("want the interface digest disagreement refused (Form digest %q):\n%s", want, dump(pr.diags))
	}
	if got := implementedDigest(d.Detail); got == "" || got == want {
		t.Fatalf("the refusal names the implemented digest %q:\n%s", got, d.Detail)
	}
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

// implementedDigest is the digest a refusal says the host implements.
func implementedDigest(detail string) string {
	_, after, ok := strings.Cut(detail, "implements it at ")
	if !ok {
		return ""
	}
	d, _, _ := strings.Cut(after, ",")
	return d
}
