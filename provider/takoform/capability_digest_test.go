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
	if err := os.CopyFS(tmp, os.DirFS(filepath.Join(repoRoot(t), "catalog", "data"))); err != nil {
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
	cat, err := catalog.Load(os.DirFS(tmp))
	if err != nil {
		t.Fatalf("the altered catalog does not load: %v", err)
	}
	return cat
}

func TestCapabilityFormDigestDisagreementIsARefusal(t *testing.T) {
	cat := alteredCatalog(t, "forms/edge-v1alpha1/edge-kv-namespace/0.1.0")
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
