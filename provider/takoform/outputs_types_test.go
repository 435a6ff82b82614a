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
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim"
)

// No Form of the embedded catalog declares a boolean output, an enum or a minimum
// length, so these tests run the provider and hostsim over the catalog package's
// example catalog with Gadget 0.2.0's outputs replaced by gadgetOutputs (resealed, as
// an author would after editing it): both sides carry the same contract, hostsim
// assigns valid outputs, and the rewriting host breaks one member at a time.
const gadgetOutputs = `{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "title": "Gadget outputs",
  "type": "object",
  "additionalProperties": false,
  "required": ["address", "healthy", "port", "serving", "tier"],
  "properties": {
    "address": {"type": "string", "minLength": 8, "maxLength": 253, "pattern": "^[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?$", "description": "Address."},
    "healthy": {"type": "boolean", "enum": [true], "description": "Healthy."},
    "serving": {"type": "boolean", "description": "Serving."},
    "port": {"type": "integer", "minimum": 1, "maximum": 65535, "enum": [443, 8443], "description": "Port."},
    "tier": {"type": "string", "enum": ["gold", "silver"], "description": "Tier."}
  }
}`

const gadgetType = "takoform_gadget"

// gadgetCatalog copies catalog/testdata/good/example, gives Gadget 0.2.0 the outputs
// above (and its canonical fixture matching outputs) and an optional size without a
// default, reseals that package and moves the transition that names it to its new
// schemaDigest.
func gadgetCatalog(t *testing.T) *catalog.Catalog {
	t.Helper()
	tmp := t.TempDir()
	if err := os.CopyFS(tmp, os.DirFS(filepath.Join(repoRoot(t), "catalog", "testdata", "good", "example"))); err != nil {
		t.Fatal(err)
	}
	pkg := filepath.Join(tmp, "forms", "example-v1alpha1", "gadget", "0.2.0")
	var def map[string]any
	readJSON(t, filepath.Join(pkg, "definition.json"), &def)
	var outs any
	if err := json.Unmarshal([]byte(gadgetOutputs), &outs); err != nil {
		t.Fatal(err)
	}
	def["outputSchema"] = outs
	// size loses its default, so a plan can leave an integer null (support tests)
	delete(def["desiredSchema"].(map[string]any)["properties"].(map[string]any)["size"].(map[string]any), "default")
	defRaw := indentJSON(t, def)
	fixture := []byte(`{"address": "here.example", "healthy": true, "port": 443, "serving": true, "tier": "gold"}` + "\n")
	digest, err := wire.Digest(defRaw)
	if err != nil {
		t.Fatal(err)
	}
	var idx map[string]any
	readJSON(t, filepath.Join(pkg, "package-index.json"), &idx)
	old := idx["formRef"].(map[string]any)["schemaDigest"].(string)
	idx["formRef"].(map[string]any)["schemaDigest"] = digest
	for _, f := range idx["files"].([]any) {
		m := f.(map[string]any)
		for name, raw := range map[string][]byte{"definition.json": defRaw, "fixtures/outputs.json": fixture} {
			if m["path"] == name {
				sum := sha256.Sum256(raw)
				m["size"], m["digest"] = len(raw), "sha256:"+hex.EncodeToString(sum[:])
			}
		}
	}
	trPath := filepath.Join(tmp, "transitions.json")
	tr, err := os.ReadFile(trPath)
	if err != nil || !bytes.Contains(tr, []byte(old)) {
		t.Fatalf("transitions.json must name Gadget 0.2.0 at %s (%v)", old, err)
	}
	for p, raw := range map[string][]byte{
		filepath.Join(pkg, "definition.json"): defRaw, filepath.Join(pkg, "fixtures", "outputs.json"): fixture,
		filepath.Join(pkg, "package-index.json"): indentJSON(t, idx), trPath: bytes.ReplaceAll(tr, []byte(old), []byte(digest)),
	} {
		if err := os.WriteFile(p, raw, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cat, err := catalog.Load(os.DirFS(tmp))
	if err != nil {
		t.Fatalf("the gadget catalog does not load: %v", err)
	}
	return cat
}

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

// gadgetHarness serves the gadget catalog from hostsim (cfg.Catalog is set) and from
// the provider.
func gadgetHarness(t *testing.T, cfg hostsim.Config) *harness {
	t.Helper()
	cat := gadgetCatalog(t)
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

// applyGadgetThrough creates the store and holder a Gadget needs, then creates the
// Gadget "g" through a host that rewrites its representation (nil: as hostsim sends it).
func applyGadgetThrough(t *testing.T, rewrite func(res map[string]any)) (values, []*tfprotov6.Diagnostic) {
	t.Helper()
	h := gadgetHarness(t, hostsim.Config{})
	h.create("takoform_store", values{aName: s("main")})
	holder := h.create("takoform_holder", values{aName: s("h"), "store": s("main")})
	cfg := values{aName: s("g"), "holder": s(holder.str(aName))}
	if rewrite != nil {
		answerRewriter(t, h, "g", rewrite)
	}
	pr := h.plan(gadgetType, cfg, nil)
	mustNoError(t, "plan", pr.diags)
	return h.apply(gadgetType, cfg, nil, pr.planned)
}

// TestOutputsOfEveryTypeAreWrittenTyped: the host's valid answer gives a Bool, a
// String from an enum, an Int64 from an enum and a String of at least its minimum
// length; each enum's other value is as valid as its first, and a boolean declared
// without an enum takes either value.
func TestOutputsOfEveryTypeAreWrittenTyped(t *testing.T) {
	st, d := applyGadgetThrough(t, nil)
	mustNoError(t, "apply", d)
	if !st["healthy"].Equal(types.BoolValue(true)) || st.str("tier") != "gold" || !st["port"].Equal(i64(443)) || len(st.str("address")) < 8 {
		t.Fatalf("outputs: healthy=%v tier=%v port=%v address=%v", st["healthy"], st["tier"], st["port"], st["address"])
	}
	for output, sent := range map[string]string{"tier": `"silver"`, "port": "8443", "address": `"abcd.efg"`, "serving": "false"} {
		st, d := applyGadgetThrough(t, setOutput(output, sent))
		mustNoError(t, output+" = "+sent, d)
		if got := st[output].String(); got != sent {
			t.Errorf("%s = %s, want %s", output, got, sent)
		}
	}
}

// TestOutputsOfEveryTypeOutsideTheirDeclarationFailTheWrite: each kind of violation a
// boolean, enum or minimum-length output can have fails the write naming it.
func TestOutputsOfEveryTypeOutsideTheirDeclarationFailTheWrite(t *testing.T) {
	for _, c := range []struct{ output, sent, problem string }{
		{"healthy", `"yes"`, `was declared boolean and the host sent the string "yes"`},
		{"healthy", "1", "was declared boolean and the host sent the number 1"},
		{"healthy", "false", "is false, not one of the declared values"},
		{"tier", `"bronze"`, `is "bronze", not one of the declared values`},
		{"port", "8080", "is 8080, not one of the declared values 443, 8443"},
		{"address", `"abc.efg"`, "has 7 characters, fewer than the declared minimum 8"},
	} {
		t.Run(c.output+"="+strings.Trim(c.sent, `"`), func(t *testing.T) {
			st, d := applyGadgetThrough(t, setOutput(c.output, c.sent))
			dg := diagWith(d, `Gadget g: host returned an unusable output "`+c.output+`"`, "Output \""+c.output+"\" "+c.problem,
				codeOutputContractViolated, "/status/outputs/"+c.output)
			if dg == nil || dg.Severity != tfprotov6.DiagnosticSeverityError || len(d) != 1 {
				t.Fatalf("want one error for %s saying %q; got:\n%s", c.output, c.problem, dump(d))
			}
			if st == nil || st.str(aUID) == "" || !st[c.output].IsNull() {
				t.Errorf("want the state written with %s null; got %v", c.output, st)
			}
		})
	}
}
