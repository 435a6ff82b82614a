package seal

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// catalogRoots are the committed lane roots (docs/catalog-rules.md#lanes).
var catalogRoots = []string{"../../data/v1beta1", "../../data/v1alpha3"}

// eachRoot runs f once per committed lane root.
func eachRoot(t *testing.T, f func(t *testing.T, catalogRoot string)) {
	for _, root := range catalogRoots {
		t.Run(filepath.Base(root), func(t *testing.T) { f(t, root) })
	}
}

func TestCatalogIsSealed(t *testing.T) {
	eachRoot(t, func(t *testing.T, catalogRoot string) {
		changed, err := Check(catalogRoot)
		if err != nil {
			t.Fatalf("sealing the committed catalog failed:\n%v", err)
		}
		if len(changed) > 0 {
			t.Fatalf("the committed catalog is not sealed; run `go tool mage catalog:seal`. Files that would change:\n%s", strings.Join(changed, "\n"))
		}
	})
}

var digestRe = regexp.MustCompile(`sha256:[0-9a-f]{64}`)

const zero = "sha256:0000000000000000000000000000000000000000000000000000000000000000"

// unsealedCopy copies the committed catalog into a temporary directory with every
// digest inside definitions, transitions.json and candidate-set.json listings zeroed
// and every package index removed: the state of a catalog just after hand authoring.
func unsealedCopy(t *testing.T, catalogRoot string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(catalogRoot, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(catalogRoot, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if d.Name() == indexName {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if d.Name() == definitionName || d.Name() == "transitions.json" || d.Name() == candidateSetName {
			b = digestRe.ReplaceAll(b, []byte(zero))
		}
		return os.WriteFile(target, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

func readAll(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		b, err := os.ReadFile(p)
		out[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Sealing a freshly authored copy reproduces the committed catalog byte for byte,
// which proves the seal touches nothing but digests and indexes, chains digests in
// dependency order, and that the committed digests are the recomputed ones.
func TestSealReproducesCommittedCatalog(t *testing.T) {
	eachRoot(t, testSealReproduces)
}

func testSealReproduces(t *testing.T, catalogRoot string) {
	dir := unsealedCopy(t, catalogRoot)
	pending, err := Check(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(pending) == 0 {
		t.Fatal("Check reported nothing to do on a catalog with zeroed digests")
	}
	if got := readAll(t, dir); got["transitions.json"] == readAll(t, catalogRoot)["transitions.json"] {
		t.Fatal("Check wrote transitions.json; check mode must not write")
	}
	changed, err := Seal(dir)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(changed, ",") != strings.Join(pending, ",") {
		t.Errorf("Seal changed %v, Check predicted %v", changed, pending)
	}
	want, got := readAll(t, catalogRoot), readAll(t, dir)
	for p, w := range want {
		if got[p] != w {
			t.Errorf("%s differs from the committed file after sealing", p)
		}
	}
	for p := range got {
		if _, ok := want[p]; !ok {
			t.Errorf("seal created %s, which the committed catalog does not have", p)
		}
	}
	again, err := Seal(dir)
	if err != nil || len(again) != 0 {
		t.Errorf("second seal: changed %v, err %v; sealing must be idempotent", again, err)
	}
}

func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for p, body := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func form(kind, extra string) string {
	return `{"apiVersion": "x.example.dev/v1", "kind": "` + kind + `", "definitionVersion": "0.1.0"` + extra + "}\n"
}

func formRef(kind string) string {
	return `{"apiVersion": "x.example.dev/v1", "kind": "` + kind + `", "definitionVersion": "0.1.0", "schemaDigest": "` + zero + `"}`
}

func TestSealRefusesUnknownRefAndWritesNothing(t *testing.T) {
	files := map[string]string{
		"forms/x/a/0.1.0/definition.json": form("A", `, "providedInterfaces": [{"apiVersion": "interfaces.takoform.com/v1alpha1", "name": "missing.iface", "version": "1.0.0", "schemaDigest": "`+zero+`"}]`),
		"forms/x/b/0.1.0/definition.json": form("B", ""),
	}
	dir := writeTree(t, files)
	_, err := Seal(dir)
	if err == nil {
		t.Fatal("Seal accepted a ref to an interface that is not in the catalog")
	}
	for _, frag := range []string{"forms/x/a/0.1.0/definition.json", "/providedInterfaces/0", "Interface missing.iface@1.0.0", "not in this catalog"} {
		if !strings.Contains(err.Error(), frag) {
			t.Errorf("error %q does not mention %q", err, frag)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "forms/x/b/0.1.0", indexName)); !os.IsNotExist(err) {
		t.Error("Seal wrote a package index although the catalog could not be sealed")
	}
}

func TestSealRefusesReferenceCycle(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"forms/x/a/0.1.0/definition.json": form("A", `, "x": `+formRef("B")),
		"forms/x/b/0.1.0/definition.json": form("B", `, "x": `+formRef("A")),
	})
	_, err := Seal(dir)
	if err == nil || !strings.Contains(err.Error(), "cycle") {
		t.Fatalf("want a cycle error, got %v", err)
	}
}

func TestSealChainsDigestsAndKeepsFormatting(t *testing.T) {
	b := form("B", "")
	a := "{\n\"kind\":   \"A\", \"apiVersion\": \"x.example.dev/v1\",\n  \"definitionVersion\": \"0.1.0\",\n \"dep\": " + formRef("B") + "}\n"
	dir := writeTree(t, map[string]string{
		"forms/x/a/0.1.0/definition.json":  a,
		"forms/x/b/0.1.0/definition.json":  b,
		"forms/x/b/0.1.0/fixtures/x.json":  "{}\n",
		"forms/x/b/0.1.0/notes/README.md":  "# b\n",
		"transitions.json":                 `{"transitions": [{"from": ` + formRef("B") + `}]}`,
		"interfaces/v1alpha1/none/.keep":   "",
		"bindings/v1alpha1/none/notes.txt": "",
	})
	if _, err := Seal(dir); err != nil {
		t.Fatal(err)
	}
	got := readAll(t, dir)
	bDigest, err := digestOf([]byte(b))
	if err != nil {
		t.Fatal(err)
	}
	wantA := strings.Replace(a, zero, bDigest, 1)
	if got["forms/x/a/0.1.0/definition.json"] != wantA {
		t.Errorf("A after seal:\n%s\nwant only the digest replaced:\n%s", got["forms/x/a/0.1.0/definition.json"], wantA)
	}
	if !strings.Contains(got["transitions.json"], bDigest) {
		t.Errorf("transitions.json does not carry B's digest: %s", got["transitions.json"])
	}
	idx := got["forms/x/b/0.1.0/"+indexName]
	for _, frag := range []string{`"schemaDigest": "` + bDigest + `"`, `"path": "fixtures/x.json"`, `"mediaType": "text/markdown"`, "\n  \"files\": [\n"} {
		if !strings.Contains(idx, frag) {
			t.Errorf("index lacks %q:\n%s", frag, idx)
		}
	}
	if strings.Index(idx, "definition.json") > strings.Index(idx, "fixtures/x.json") || !strings.HasSuffix(idx, "}\n") {
		t.Errorf("index files are not sorted by path or lack the trailing newline:\n%s", idx)
	}
}
