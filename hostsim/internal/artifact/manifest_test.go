package artifact_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/artifact"
)

func sha(b []byte) string { s := sha256.Sum256(b); return "sha256:" + hex.EncodeToString(s[:]) }

var (
	indexJS  = []byte(`export default { async fetch() { return new Response("ok"); } };`)
	indexMap = []byte(`{"version":3}`)
)

// doc builds a manifest document; mutate edits the generic form before encoding.
func doc(t testing.TB, mutate func(m map[string]any)) []byte {
	t.Helper()
	m := map[string]any{
		"apiVersion": "artifacts.takoform.com/v1alpha1",
		"kind":       "WorkerBundle",
		"mainModule": "index.js",
		"modules": []any{
			map[string]any{"name": "index.js", "mediaType": "application/javascript+module", "size": len(indexJS), "digest": sha(indexJS)},
			map[string]any{"name": "index.js.map", "mediaType": "application/source-map+json", "size": len(indexMap), "digest": sha(indexMap)},
		},
	}
	if mutate != nil {
		mutate(m)
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func mod(i int) func(m map[string]any) map[string]any {
	return func(m map[string]any) map[string]any { return m["modules"].([]any)[i].(map[string]any) }
}

// bytesAtMost holds every kind to its portable entry ceiling and max bytes (0: the
// portable byte ceiling).
func bytesAtMost(max int64) artifact.Limits {
	return func(k *wire.ManifestKind) artifact.Ceilings {
		c := artifact.Portable(k)
		if max > 0 {
			c.Bytes = max
		}
		return c
	}
}

func filesDoc(kind string) func(m map[string]any) {
	return func(m map[string]any) {
		delete(m, "mainModule")
		delete(m, "modules")
		m["kind"] = kind
		m["files"] = []any{map[string]any{"path": "db/0001.sql", "mediaType": "application/sql", "size": 3, "digest": sha([]byte("abc"))}}
	}
}

func TestParseManifestAccepts(t *testing.T) {
	raw := doc(t, nil)
	m, r := artifact.ParseManifest(raw, nil)
	if r != nil {
		t.Fatal(r)
	}
	want, _ := wire.Digest(raw)
	if m.Digest != want || m.Kind != wire.WorkerBundleManifest || m.MainModule != "index.js" || len(m.List) != 2 || string(m.Raw) != string(raw) {
		t.Fatalf("manifest = %+v", m)
	}
	if got := m.TotalSize(); got != int64(len(indexJS)+len(indexMap)) {
		t.Errorf("TotalSize = %d", got)
	}
	// The digest is the canonical one: member order and whitespace do not matter.
	var generic map[string]any
	_ = json.Unmarshal(raw, &generic)
	pretty, _ := json.MarshalIndent(generic, "", "   ")
	m2, r := artifact.ParseManifest(pretty, nil)
	if r != nil || m2.Digest != m.Digest {
		t.Fatalf("reformatted manifest digest %v differs (%v)", m2, r)
	}
	for _, kind := range []string{"StaticAssetBundle", "MigrationBundle"} {
		m, r := artifact.ParseManifest(doc(t, filesDoc(kind)), nil)
		if r != nil || len(m.List) != 1 || m.Kind.Kind != kind || len(m.Entries()) != 1 {
			t.Fatalf("%s: %+v %v", kind, m, r)
		}
	}
	// Every loadable media type may be the main module; sizes may be 0; size 2.0 is an integer.
	for _, mt := range wire.WorkerBundleManifest.Loadable {
		raw := doc(t, func(m map[string]any) { mod(0)(m)["mediaType"] = mt })
		if _, r := artifact.ParseManifest(raw, nil); r != nil {
			t.Errorf("main module of media type %s refused: %v", mt, r)
		}
	}
	raw = []byte(strings.Replace(string(doc(t, nil)), fmt.Sprintf(`"size":%d`, len(indexMap)), `"size":13.0`, 1))
	if _, r := artifact.ParseManifest(raw, nil); r != nil {
		t.Errorf("integral size written as 13.0 refused: %v", r)
	}
}

func TestParseManifestRefuses(t *testing.T) {
	cases := []struct {
		name string
		raw  []byte
		max  int64
		ptr  string
		says string
	}{
		{"not JSON", []byte(`{"apiVersion":`), 0, "/manifest", "not strict JSON"},
		{"duplicate member", []byte(`{"kind":"WorkerBundle","kind":"WorkerBundle"}`), 0, "/manifest", "not strict JSON"},
		{"not an object", []byte(`[]`), 0, "/manifest", "must be a JSON object"},
		{"wrong apiVersion", doc(t, func(m map[string]any) { m["apiVersion"] = "artifacts.takoform.com/v1" }), 0, "/manifest/apiVersion", `must be "artifacts.takoform.com/v1alpha1"`},
		{"missing kind", doc(t, func(m map[string]any) { delete(m, "kind") }), 0, "/manifest/kind", "accepted: WorkerBundle, StaticAssetBundle, MigrationBundle"},
		{"unknown kind", doc(t, func(m map[string]any) { m["kind"] = "Archive" }), 0, "/manifest/kind", `kind is "Archive"`},
		{"unknown member", doc(t, func(m map[string]any) { m["compression"] = "zip" }), 0, "/manifest/compression", `unknown member "compression"`},
		{"worker bundle with files", doc(t, func(m map[string]any) { m["files"] = []any{} }), 0, "/manifest/files", "never files"},
		{"worker bundle without mainModule", doc(t, func(m map[string]any) { delete(m, "mainModule") }), 0, "/manifest/mainModule", "requires mainModule"},
		{"worker bundle without modules", doc(t, func(m map[string]any) { delete(m, "modules") }), 0, "/manifest/modules", "requires modules"},
		{"static bundle with modules", doc(t, func(m map[string]any) { filesDoc("StaticAssetBundle")(m); m["modules"] = []any{} }), 0, "/manifest/modules", "files only"},
		{"migration bundle with mainModule", doc(t, func(m map[string]any) { filesDoc("MigrationBundle")(m); m["mainModule"] = "a" }), 0, "/manifest/mainModule", "files only"},
		{"static bundle without files", doc(t, func(m map[string]any) { filesDoc("StaticAssetBundle")(m); delete(m, "files") }), 0, "/manifest/files", "requires files"},
		{"empty modules", doc(t, func(m map[string]any) { m["modules"] = []any{} }), 0, "/manifest/modules", "has 0 entries; accepted 1..4096"},
		{"modules not an array", doc(t, func(m map[string]any) { m["modules"] = "index.js" }), 0, "/manifest/modules", "must be an array"},
		{"entry unknown member", doc(t, func(m map[string]any) { mod(0)(m)["encoding"] = "gzip" }), 0, "/manifest/modules/0/encoding", `unknown member "encoding"`},
		{"entry missing digest", doc(t, func(m map[string]any) { delete(mod(0)(m), "digest") }), 0, "/manifest/modules/0/digest", "missing required member"},
		{"application/json module", doc(t, func(m map[string]any) { mod(1)(m)["mediaType"] = "application/json" }), 0, "/manifest/modules/1/mediaType", `"application/json" is not accepted`},
		{"text/javascript module", doc(t, func(m map[string]any) { mod(0)(m)["mediaType"] = "text/javascript" }), 0, "/manifest/modules/0/mediaType", "loadable: application/javascript+module"},
		{"negative size", doc(t, func(m map[string]any) { mod(0)(m)["size"] = -1 }), 0, "/manifest/modules/0/size", "outside 0..268435456"},
		{"size over the entry bound", doc(t, func(m map[string]any) { mod(0)(m)["size"] = 268435457 }), 0, "/manifest/modules/0/size", "outside 0..268435456"},
		{"fractional size", doc(t, func(m map[string]any) { mod(0)(m)["size"] = 1.5 }), 0, "/manifest/modules/0/size", "not an integer"},
		{"string size", doc(t, func(m map[string]any) { mod(0)(m)["size"] = "10" }), 0, "/manifest/modules/0/size", "must be an integer"},
		{"uppercase digest", doc(t, func(m map[string]any) { mod(0)(m)["digest"] = strings.ToUpper(sha(indexJS)) }), 0, "/manifest/modules/0/digest", "64 lowercase hex"},
		{"path with ..", doc(t, func(m map[string]any) { mod(0)(m)["name"] = "lib/../index.js" }), 0, "/manifest/modules/0/name", ". or .. segment"},
		{"path with .", doc(t, func(m map[string]any) { mod(0)(m)["name"] = "./index.js" }), 0, "/manifest/modules/0/name", ". or .. segment"},
		{"absolute path", doc(t, func(m map[string]any) { mod(0)(m)["name"] = "/index.js" }), 0, "/manifest/modules/0/name", "not a relative artifact path"},
		{"path with space", doc(t, func(m map[string]any) { mod(0)(m)["name"] = "my file.js" }), 0, "/manifest/modules/0/name", "not a relative artifact path"},
		{"path too long", doc(t, func(m map[string]any) { mod(0)(m)["name"] = strings.Repeat("a", 241) }), 0, "/manifest/modules/0/name", "241 characters"},
		{"bad mainModule path", doc(t, func(m map[string]any) { m["mainModule"] = "../x.js" }), 0, "/manifest/mainModule", ". or .. segment"},
		{"mainModule undeclared", doc(t, func(m map[string]any) { m["mainModule"] = "main.js" }), 0, "/manifest/mainModule", `"main.js" names no declared module`},
		{"mainModule is a source map", doc(t, func(m map[string]any) { m["mainModule"] = "index.js.map" }), 0, "/manifest/mainModule", "not loadable"},
		{"duplicate module name", doc(t, func(m map[string]any) { mod(1)(m)["name"] = "index.js"; mod(1)(m)["mediaType"] = "text/plain" }), 0, "/manifest/modules/1", "declared twice"},
		{"source map not named .map", doc(t, func(m map[string]any) { mod(1)(m)["name"] = "index.js.sourcemap" }), 0, "/manifest/modules/1/name", "not named <module>.map"},
		{"source map target undeclared", doc(t, func(m map[string]any) { mod(1)(m)["name"] = "other.js.map" }), 0, "/manifest/modules/1/name", `maps module "other.js"`},
		{"one digest two sizes", doc(t, func(m map[string]any) { mod(1)(m)["digest"] = sha(indexJS) }), 0, "/manifest/modules/1/size", "one digest has one size"},
		{"over maximumBundleBytes", doc(t, nil), int64(len(indexJS)), "/manifest", "over maximumBundleBytes"},
		{"bad file media type", doc(t, func(m map[string]any) {
			filesDoc("StaticAssetBundle")(m)
			m["files"].([]any)[0].(map[string]any)["mediaType"] = "Text/HTML"
		}), 0, "/manifest/files/0/mediaType", "lowercase type/subtype"},
		{"duplicate file path", doc(t, func(m map[string]any) {
			filesDoc("StaticAssetBundle")(m)
			f := m["files"].([]any)[0]
			m["files"] = []any{f, f}
		}), 0, "/manifest/files/1", "declared twice"},
		{"file sizes over the bound", doc(t, filesDoc("MigrationBundle")), 2, "/manifest", "file sizes sum to 3"},
		{"migration file of another media type", doc(t, func(m map[string]any) {
			filesDoc("MigrationBundle")(m)
			m["files"].([]any)[0].(map[string]any)["mediaType"] = "text/plain"
		}), 0, "/manifest/files/0/mediaType", "accepted: exactly application/sql"},
		{"static file type with parameters", doc(t, func(m map[string]any) {
			filesDoc("StaticAssetBundle")(m)
			m["files"].([]any)[0].(map[string]any)["mediaType"] = "text/html; charset=utf-8"
		}), 0, "/manifest/files/0/mediaType", "without parameters"},
		{"migration bundle with modules", doc(t, func(m map[string]any) { filesDoc("MigrationBundle")(m); m["modules"] = []any{} }), 0, "/manifest/modules", "never modules"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, r := artifact.ParseManifest(c.raw, bytesAtMost(c.max))
			if r == nil {
				t.Fatalf("accepted: %+v", m)
			}
			if r.Code != wire.CodeArtifactInvalid || r.Pointer != c.ptr || !strings.Contains(r.Message, c.says) {
				t.Fatalf("refusal = %+v, want artifact_invalid at %s saying %q", r, c.ptr, c.says)
			}
			if !strings.HasPrefix(r.Message, strings.TrimPrefix(c.ptr, "/")) {
				t.Errorf("message %q does not start with the pointer", r.Message)
			}
		})
	}
}

func TestParseManifestEntryCountBound(t *testing.T) {
	raw := doc(t, func(m map[string]any) {
		var mods []any
		for i := 0; i < int(wire.WorkerBundleManifest.MaxEntries)+1; i++ {
			mods = append(mods, map[string]any{"name": fmt.Sprintf("m%d.js", i), "mediaType": "text/plain", "size": 0, "digest": sha(nil)})
		}
		m["modules"] = mods
		m["mainModule"] = "m0.js"
	})
	if _, r := artifact.ParseManifest(raw, nil); r == nil || !strings.Contains(r.Message, "4097 entries") {
		t.Fatalf("4097 modules: %v", r)
	}
}

// Each manifest kind's entries are held to its maximumBundleFiles: the portable
// ceiling of the kind unless the host's profile publishes a lower one.
func TestParseManifestFilesCeiling(t *testing.T) {
	files := func(n int) func(m map[string]any) {
		return func(m map[string]any) {
			filesDoc("StaticAssetBundle")(m)
			var fs []any
			for i := 0; i < n; i++ {
				fs = append(fs, map[string]any{"path": fmt.Sprintf("f%d.txt", i), "mediaType": "text/plain", "size": 0, "digest": sha(nil)})
			}
			m["files"] = fs
		}
	}
	two := func(k *wire.ManifestKind) artifact.Ceilings {
		c := artifact.Portable(k)
		c.LowerFiles(2, artifact.ProfileLimits("small", "StaticAssetBundle"))
		return c
	}
	if _, r := artifact.ParseManifest(doc(t, files(2)), two); r != nil {
		t.Fatalf("two files under maximumBundleFiles 2 refused: %v", r)
	}
	_, r := artifact.ParseManifest(doc(t, files(3)), two)
	if r == nil || r.Code != wire.CodeArtifactInvalid || r.Pointer != "/manifest/files" ||
		!strings.Contains(r.Message, "declares 3 files, over maximumBundleFiles 2") || !strings.Contains(r.Message, `profile "small"`) {
		t.Fatalf("three files under maximumBundleFiles 2: %+v", r)
	}
	// Without a profile statement each kind has its portable ceiling.
	for _, k := range wire.ManifestKinds {
		if c := artifact.Portable(k); c.Files != k.MaxEntries || c.Bytes != 10485760 {
			t.Errorf("%s portable ceilings %+v", k.Kind, c)
		}
	}
	if _, r := artifact.ParseManifest(doc(t, files(3)), nil); r != nil {
		t.Fatalf("three files under the portable ceiling refused: %v", r)
	}
}

// A manifest's digest is wire.Digest of the bytes as uploaded, however they
// spell the document: escapes, number forms, member order, whitespace. The
// parser digests the decoded document (the canonical form of a spec), so
// each spelling is checked against the digest of its own bytes.
func TestParseManifestDigestsItsBytes(t *testing.T) {
	base := string(doc(t, nil))
	spellings := []func(string) string{
		func(s string) string { return s },
		func(s string) string { return strings.ReplaceAll(s, `"index.js"`, `"index\u002ejs"`) },
		func(s string) string {
			return strings.ReplaceAll(s, `"application/javascript+module"`, `"application\/javascript\u002bmodule"`)
		},
		func(s string) string { return strings.ReplaceAll(s, `"kind"`, `"\u006bind"`) },
		func(s string) string { return strings.ReplaceAll(s, `,`, ",\n\t ") },
		func(s string) string { return strings.ReplaceAll(s, `:`, ` : `) },
		func(s string) string { return strings.ReplaceAll(s, `"size":`, `"size":0.0e0+`) }, // refused: not JSON
	}
	var generic map[string]any
	if err := json.Unmarshal([]byte(base), &generic); err != nil {
		t.Fatal(err)
	}
	for _, indent := range []string{"", " ", "\t"} {
		b, _ := json.MarshalIndent(generic, "", indent)
		s := string(b)
		spellings = append(spellings, func(string) string { return s })
	}
	accepted := 0
	digests, seen := map[string]bool{}, map[string]bool{}
	for i, spell := range spellings {
		raw := []byte(spell(base))
		if seen[string(raw)] {
			t.Fatalf("spelling %d spells the manifest as an earlier one did: it checks nothing new", i)
		}
		seen[string(raw)] = true
		m, r := artifact.ParseManifest(raw, nil)
		if r != nil {
			continue
		}
		want, err := wire.Digest(raw)
		if err != nil || m.Digest != want {
			t.Fatalf("spelling %d: digest %s; the digest of its bytes is %s (%v)\n%s", i, m.Digest, want, err, raw)
		}
		accepted++
		digests[m.Digest] = true
	}
	if accepted < 8 || len(digests) != 1 {
		t.Fatalf("%d spellings accepted, %d digests: want at least 8 spellings of one document", accepted, len(digests))
	}
}
