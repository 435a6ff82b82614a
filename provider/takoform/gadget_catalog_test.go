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

// The gadget catalog is the catalog package's example catalog
// (catalog/testdata/good/example) edited the way an author would and resealed, to
// reach what no Form of the embedded catalog declares: Gadget 0.2.0 gets the outputs
// below (a boolean with and without an enum, string and integer enums, a minimum
// length, a string whose pattern admits any character) and an optional size without a default, 0.1.0 an address hostsim can assign;
// withGadget030 adds a third version and a second transition marker.

const gadgetOutputs = `{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "title": "Gadget outputs",
  "type": "object",
  "additionalProperties": false,
  "required": ["address", "healthy", "motto", "port", "serving", "tier"],
  "properties": {
    "address": {"type": "string", "minLength": 8, "maxLength": 253, "pattern": "^[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?$", "description": "Address."},
    "healthy": {"type": "boolean", "enum": [true], "description": "Healthy."},
    "motto": {"type": "string", "minLength": 8, "maxLength": 64, "pattern": "^\\S(?:.*\\S)?$", "description": "Motto, in any script, without leading or trailing white space."},
    "serving": {"type": "boolean", "description": "Serving."},
    "port": {"type": "integer", "minimum": 1, "maximum": 65535, "enum": [443, 8443], "description": "Port."},
    "tier": {"type": "string", "enum": ["gold", "silver"], "description": "Tier."}
  }
}`

const gadgetType = "takoform_gadget"

func gadgetPkg(dir, version string) string {
	return filepath.Join(dir, "forms", "example-v1alpha1", "gadget", version)
}

// gadgetDir writes the gadget catalog to a new directory and returns it.
func gadgetDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join(repoRoot(t), "catalog", "testdata", "good", "example"))); err != nil {
		t.Fatal(err)
	}
	var outs any
	if err := json.Unmarshal([]byte(gadgetOutputs), &outs); err != nil {
		t.Fatal(err)
	}
	reseal(t, dir, gadgetPkg(dir, "0.2.0"), true, func(def map[string]any) {
		def["outputSchema"] = outs
		// size loses its default, so a plan can leave an integer null (support tests)
		delete(gadgetProps(def)["size"].(map[string]any), "default")
	}, map[string][]byte{"fixtures/outputs.json": []byte(`{"address": "here.example", "healthy": true, "motto": "ここにタコがいる", "port": 443, "serving": true, "tier": "gold"}` + "\n")})
	// 0.1.0's address (^[a-z]+$, at most 20) is not an address hostsim can assign
	reseal(t, dir, gadgetPkg(dir, "0.1.0"), true, func(def map[string]any) {
		props := def["outputSchema"].(map[string]any)["properties"].(map[string]any)
		props["address"] = map[string]any{"type": "string", "maxLength": 253, "pattern": "^[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?$", "description": "Address."}
	}, nil)
	return dir
}

func gadgetProps(def map[string]any) map[string]any {
	return def["desiredSchema"].(map[string]any)["properties"].(map[string]any)
}

// withGadget030 adds Gadget 0.3.0 to the gadget catalog in dir: 0.2.0 plus an optional
// colour, with size required, size and labels immutable; marker gadget-0.2-to-0.3
// moves 0.2.0 to it.
func withGadget030(t *testing.T, dir string) {
	t.Helper()
	if err := os.CopyFS(gadgetPkg(dir, "0.3.0"), os.DirFS(gadgetPkg(dir, "0.2.0"))); err != nil {
		t.Fatal(err)
	}
	var idx map[string]any
	readJSON(t, filepath.Join(gadgetPkg(dir, "0.2.0"), "package-index.json"), &idx)
	from := idx["formRef"].(map[string]any)
	to := reseal(t, dir, gadgetPkg(dir, "0.3.0"), false, func(def map[string]any) {
		def["definitionVersion"] = "0.3.0"
		gadgetProps(def)["colour"] = map[string]any{"type": "string", "maxLength": 20, "description": "Colour."}
		ds := def["desiredSchema"].(map[string]any)
		ds["required"] = []any{"holder", "size"}
		def["immutableFields"] = []any{"/holder", "/labels", "/size"}
	}, nil)
	trPath := filepath.Join(dir, "transitions.json")
	var tr map[string]any
	readJSON(t, trPath, &tr)
	tr["transitions"] = append(tr["transitions"].([]any), map[string]any{"marker": "gadget-0.2-to-0.3", "from": from, "to": to})
	if err := os.WriteFile(trPath, indentJSON(t, tr), 0o644); err != nil {
		t.Fatal(err)
	}
}

// reseal applies edit to the package's definition, writes files (relative paths) in
// it and updates its package index (formRef, sizes, digests). When the package was
// edited in place (move), every transition that named its old schemaDigest moves to
// the new one. It returns the new formRef.
func reseal(t *testing.T, dir, pkg string, move bool, edit func(def map[string]any), files map[string][]byte) map[string]any {
	t.Helper()
	var def map[string]any
	readJSON(t, filepath.Join(pkg, "definition.json"), &def)
	edit(def)
	defRaw := indentJSON(t, def)
	if files == nil {
		files = map[string][]byte{}
	}
	files["definition.json"] = defRaw
	digest, err := wire.Digest(defRaw)
	if err != nil {
		t.Fatal(err)
	}
	var idx map[string]any
	readJSON(t, filepath.Join(pkg, "package-index.json"), &idx)
	ref := idx["formRef"].(map[string]any)
	old := ref["schemaDigest"].(string)
	ref["schemaDigest"], ref["definitionVersion"] = digest, def["definitionVersion"]
	for _, f := range idx["files"].([]any) {
		m := f.(map[string]any)
		if raw, ok := files[m["path"].(string)]; ok {
			sum := sha256.Sum256(raw)
			m["size"], m["digest"] = len(raw), "sha256:"+hex.EncodeToString(sum[:])
		}
	}
	files["package-index.json"] = indentJSON(t, idx)
	for name, raw := range files {
		if err := os.WriteFile(filepath.Join(pkg, filepath.FromSlash(name)), raw, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if move {
		trPath := filepath.Join(dir, "transitions.json")
		tr, err := os.ReadFile(trPath)
		if err != nil || !bytes.Contains(tr, []byte(old)) {
			t.Fatalf("transitions.json must name %s (%v)", old, err)
		}
		if err := os.WriteFile(trPath, bytes.ReplaceAll(tr, []byte(old), []byte(digest)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return ref
}

func loadCatalogDir(t *testing.T, dir string) *catalog.Catalog {
	t.Helper()
	cat, err := catalog.Load(os.DirFS(dir))
	if err != nil {
		t.Fatalf("the gadget catalog does not load: %v", err)
	}
	return cat
}

func gadgetCatalog(t *testing.T) *catalog.Catalog { return loadCatalogDir(t, gadgetDir(t)) }

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

func indentJSON(t *testing.T, v any) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// catalogHarness serves cat from hostsim (cfg.Catalog is set) and from the provider.
func catalogHarness(t *testing.T, cat *catalog.Catalog, cfg hostsim.Config) *harness {
	t.Helper()
	cfg.Catalog = cat
	h := newHarness(t, cfg)
	p, err := newProvider("test", cat)
	if err != nil {
		t.Fatal(err)
	}
	if h.srv, err = providerserver.NewProtocol6WithError(p)(); err != nil {
		t.Fatal(err)
	}
	h.p = p
	capReconfigure(t, h)
	return h
}

// gadgetHarness serves the gadget catalog (two Gadget versions).
func gadgetHarness(t *testing.T, cfg hostsim.Config) *harness {
	t.Helper()
	return catalogHarness(t, gadgetCatalog(t), cfg)
}
