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

// pathRule is what every refusal of a manifest path says is accepted.
const pathRule = "; accepted: 1..240 characters of /-separated segments, each starting with a letter, digit or _ " +
	"and holding only letters, digits, ., _ and -; no . or .. segment"

// Each refusal is compared whole: a host answers these messages to the uploader,
// and a check that fell through to a later one would still say part of them.
func TestParseManifestRefuses(t *testing.T) {
	cases := []struct {
		name string
		raw  []byte
		max  int64
		ptr  string
		want string
	}{
		{"not JSON", []byte(`{"apiVersion":`), 0, "/manifest", "manifest: not strict JSON: JSON at /apiVersion (byte 14): unexpected end of input; the JSON value is incomplete"},
		{"duplicate member", []byte(`{"kind":"WorkerBundle","kind":"WorkerBundle"}`), 0, "/manifest", `manifest: not strict JSON: JSON at /kind (byte 29): duplicate member name "kind"; every member name in an object must be unique`},
		{"not an object", []byte(`[]`), 0, "/manifest", "manifest: must be a JSON object {apiVersion, kind, \u2026}"},
		{"wrong apiVersion", doc(t, func(m map[string]any) { m["apiVersion"] = "artifacts.takoform.com/v1" }), 0, "/manifest/apiVersion", `manifest/apiVersion: apiVersion is "artifacts.takoform.com/v1"; it must be "artifacts.takoform.com/v1alpha1"`},
		{"missing kind", doc(t, func(m map[string]any) { delete(m, "kind") }), 0, "/manifest/kind", "manifest/kind: kind is absent or null; accepted: WorkerBundle, StaticAssetBundle, MigrationBundle"},
		{"unknown kind", doc(t, func(m map[string]any) { m["kind"] = "Archive" }), 0, "/manifest/kind", `manifest/kind: kind is "Archive"; accepted: WorkerBundle, StaticAssetBundle, MigrationBundle`},
		{"unknown member", doc(t, func(m map[string]any) { m["compression"] = "zip" }), 0, "/manifest/compression", `manifest/compression: unknown member "compression"; a manifest has only apiVersion, kind, mainModule, modules, files`},
		{"worker bundle with files", doc(t, func(m map[string]any) { m["files"] = []any{} }), 0, "/manifest/files", "manifest/files: a WorkerBundle manifest carries modules and mainModule only, never files; files belongs to another manifest kind"},
		{"worker bundle without mainModule", doc(t, func(m map[string]any) { delete(m, "mainModule") }), 0, "/manifest/mainModule", "manifest/mainModule: a WorkerBundle manifest requires mainModule (the path of its loadable entry module)"},
		{"worker bundle without modules", doc(t, func(m map[string]any) { delete(m, "modules") }), 0, "/manifest/modules", "manifest/modules: a WorkerBundle manifest requires modules (1..4096 entries)"},
		{"static bundle with modules", doc(t, func(m map[string]any) { filesDoc("StaticAssetBundle")(m); m["modules"] = []any{} }), 0, "/manifest/modules", "manifest/modules: a StaticAssetBundle manifest carries files only, never modules; modules belongs to another manifest kind"},
		{"migration bundle with mainModule", doc(t, func(m map[string]any) { filesDoc("MigrationBundle")(m); m["mainModule"] = "a" }), 0, "/manifest/mainModule", "manifest/mainModule: a MigrationBundle manifest carries files only, never mainModule; mainModule belongs to another manifest kind"},
		{"static bundle without files", doc(t, func(m map[string]any) { filesDoc("StaticAssetBundle")(m); delete(m, "files") }), 0, "/manifest/files", "manifest/files: a StaticAssetBundle manifest requires files (1..16384 entries)"},
		{"empty modules", doc(t, func(m map[string]any) { m["modules"] = []any{} }), 0, "/manifest/modules", "manifest/modules: has 0 entries; accepted 1..4096"},
		{"modules not an array", doc(t, func(m map[string]any) { m["modules"] = "index.js" }), 0, "/manifest/modules", `manifest/modules: must be an array of {name, mediaType, size, digest}; got "index.js"`},
		{"entry unknown member", doc(t, func(m map[string]any) { mod(0)(m)["encoding"] = "gzip" }), 0, "/manifest/modules/0/encoding", `manifest/modules/0/encoding: unknown member "encoding"; an entry has only name, mediaType, size, digest`},
		{"entry missing digest", doc(t, func(m map[string]any) { delete(mod(0)(m), "digest") }), 0, "/manifest/modules/0/digest", `manifest/modules/0/digest: missing required member "digest"`},
		{"application/json module", doc(t, func(m map[string]any) { mod(1)(m)["mediaType"] = "application/json" }), 0, "/manifest/modules/1/mediaType", `manifest/modules/1/mediaType: module media type "application/json" is not accepted in a WorkerBundle manifest; loadable: application/javascript+module, text/plain, application/octet-stream, application/wasm; auxiliary: application/source-map+json`},
		{"text/javascript module", doc(t, func(m map[string]any) { mod(0)(m)["mediaType"] = "text/javascript" }), 0, "/manifest/modules/0/mediaType", `manifest/modules/0/mediaType: module media type "text/javascript" is not accepted in a WorkerBundle manifest; loadable: application/javascript+module, text/plain, application/octet-stream, application/wasm; auxiliary: application/source-map+json`},
		{"negative size", doc(t, func(m map[string]any) { mod(0)(m)["size"] = -1 }), 0, "/manifest/modules/0/size", "manifest/modules/0/size: size -1 is outside 0..268435456"},
		{"size over the entry bound", doc(t, func(m map[string]any) { mod(0)(m)["size"] = 268435457 }), 0, "/manifest/modules/0/size", "manifest/modules/0/size: size 268435457 is outside 0..268435456"},
		{"fractional size", doc(t, func(m map[string]any) { mod(0)(m)["size"] = 1.5 }), 0, "/manifest/modules/0/size", "manifest/modules/0/size: size 1.5 is not an integer 0..268435456"},
		{"string size", doc(t, func(m map[string]any) { mod(0)(m)["size"] = "10" }), 0, "/manifest/modules/0/size", `manifest/modules/0/size: size must be an integer 0..268435456; got "10"`},
		{"uppercase digest", doc(t, func(m map[string]any) { mod(0)(m)["digest"] = strings.ToUpper(sha(indexJS)) }), 0, "/manifest/modules/0/digest", `manifest/modules/0/digest: digest "SHA256:9446721AF283345388F87D42E9E3A164E0E7B074893C17141205DEB6B8C504C4" is not sha256: followed by 64 lowercase hex characters`},
		{"path with ..", doc(t, func(m map[string]any) { mod(0)(m)["name"] = "lib/../index.js" }), 0, "/manifest/modules/0/name", "manifest/modules/0/name: path \"lib/../index.js\" has a . or .. segment" + pathRule},
		{"path with .", doc(t, func(m map[string]any) { mod(0)(m)["name"] = "./index.js" }), 0, "/manifest/modules/0/name", "manifest/modules/0/name: path \"./index.js\" has a . or .. segment" + pathRule},
		{"absolute path", doc(t, func(m map[string]any) { mod(0)(m)["name"] = "/index.js" }), 0, "/manifest/modules/0/name", "manifest/modules/0/name: path \"/index.js\" is not a relative artifact path" + pathRule},
		{"path with space", doc(t, func(m map[string]any) { mod(0)(m)["name"] = "my file.js" }), 0, "/manifest/modules/0/name", "manifest/modules/0/name: path \"my file.js\" is not a relative artifact path" + pathRule},
		{"path too long", doc(t, func(m map[string]any) { mod(0)(m)["name"] = strings.Repeat("a", 241) }), 0, "/manifest/modules/0/name", "manifest/modules/0/name: path \"" + strings.Repeat("a", 241) + "\" is 241 characters long" + pathRule},
		{"empty path", doc(t, func(m map[string]any) { mod(0)(m)["name"] = "" }), 0, "/manifest/modules/0/name", `manifest/modules/0/name: path "" is 0 characters long` + pathRule},
		{"mainModule not a string", doc(t, func(m map[string]any) { m["mainModule"] = 3 }), 0, "/manifest/mainModule", "manifest/mainModule: mainModule is 3; it must be a path string"},
		{"mainModule null", doc(t, func(m map[string]any) { m["mainModule"] = nil }), 0, "/manifest/mainModule", "manifest/mainModule: mainModule is absent or null; it must be a path string"},
		{"entry not an object", doc(t, func(m map[string]any) { m["modules"] = []any{"index.js"} }), 0, "/manifest/modules/0", `manifest/modules/0: must be an object {name, mediaType, size, digest}; got "index.js"`},
		{"long kind shown cut", doc(t, func(m map[string]any) { m["kind"] = strings.Repeat("K", 100) }), 0, "/manifest/kind", `manifest/kind: kind is "` + strings.Repeat("K", 79) + `…; accepted: WorkerBundle, StaticAssetBundle, MigrationBundle`},
		{"negative size as a float", doc(t, func(m map[string]any) { mod(0)(m)["size"] = json.Number("-1.0") }), 0, "/manifest/modules/0/size", "manifest/modules/0/size: size -1.0 is not an integer 0..268435456"},
		{"size over the entry bound as a float", doc(t, func(m map[string]any) { mod(0)(m)["size"] = json.Number("3e8") }), 0, "/manifest/modules/0/size", "manifest/modules/0/size: size 3e8 is not an integer 0..268435456"},
		{"bad mainModule path", doc(t, func(m map[string]any) { m["mainModule"] = "../x.js" }), 0, "/manifest/mainModule", "manifest/mainModule: path \"../x.js\" has a . or .. segment" + pathRule},
		{"mainModule undeclared", doc(t, func(m map[string]any) { m["mainModule"] = "main.js" }), 0, "/manifest/mainModule", `manifest/mainModule: mainModule "main.js" names no declared module; declare it in modules`},
		{"mainModule is a source map", doc(t, func(m map[string]any) { m["mainModule"] = "index.js.map" }), 0, "/manifest/mainModule", `manifest/mainModule: mainModule "index.js.map" has media type "application/source-map+json", which is not loadable; accepted: application/javascript+module, text/plain, application/octet-stream, application/wasm`},
		{"duplicate module name", doc(t, func(m map[string]any) { mod(1)(m)["name"] = "index.js"; mod(1)(m)["mediaType"] = "text/plain" }), 0, "/manifest/modules/1", `manifest/modules/1: "index.js" is declared twice (first at manifest/modules/0); names and paths are unique`},
		{"source map not named .map", doc(t, func(m map[string]any) { mod(1)(m)["name"] = "index.js.sourcemap" }), 0, "/manifest/modules/1/name", `manifest/modules/1/name: source map "index.js.sourcemap" is not named <module>.map`},
		{"source map target undeclared", doc(t, func(m map[string]any) { mod(1)(m)["name"] = "other.js.map" }), 0, "/manifest/modules/1/name", `manifest/modules/1/name: source map "other.js.map" maps module "other.js", which is not declared`},
		{"one digest two sizes", doc(t, func(m map[string]any) { mod(1)(m)["digest"] = sha(indexJS) }), 0, "/manifest/modules/1/size", "manifest/modules/1/size: digest sha256:9446721af283345388f87d42e9e3a164e0e7b074893c17141205deb6b8c504c4 is declared with size 13 here and 64 at manifest/modules/0; one digest has one size"},
		{"over maximumBundleBytes", doc(t, nil), int64(len(indexJS)), "/manifest", "manifest: declared module sizes sum to 77 bytes, over maximumBundleBytes 64 (the portable ceiling); shrink the bundle or use a host that accepts more"},
		{"bad file media type", doc(t, func(m map[string]any) {
			filesDoc("StaticAssetBundle")(m)
			m["files"].([]any)[0].(map[string]any)["mediaType"] = "Text/HTML"
		}), 0, "/manifest/files/0/mediaType", `manifest/files/0/mediaType: file media type "Text/HTML" is not a lowercase type/subtype without parameters of at most 255 characters`},
		{"duplicate file path", doc(t, func(m map[string]any) {
			filesDoc("StaticAssetBundle")(m)
			f := m["files"].([]any)[0]
			m["files"] = []any{f, f}
		}), 0, "/manifest/files/1", `manifest/files/1: "db/0001.sql" is declared twice (first at manifest/files/0); names and paths are unique`},
		{"file sizes over the bound", doc(t, filesDoc("MigrationBundle")), 2, "/manifest", "manifest: declared file sizes sum to 3 bytes, over maximumBundleBytes 2 (the portable ceiling); shrink the bundle or use a host that accepts more"},
		{"migration file of another media type", doc(t, func(m map[string]any) {
			filesDoc("MigrationBundle")(m)
			m["files"].([]any)[0].(map[string]any)["mediaType"] = "text/plain"
		}), 0, "/manifest/files/0/mediaType", `manifest/files/0/mediaType: file media type "text/plain" is not accepted in a MigrationBundle manifest; accepted: exactly application/sql`},
		{"static file type with parameters", doc(t, func(m map[string]any) {
			filesDoc("StaticAssetBundle")(m)
			m["files"].([]any)[0].(map[string]any)["mediaType"] = "text/html; charset=utf-8"
		}), 0, "/manifest/files/0/mediaType", `manifest/files/0/mediaType: file media type "text/html; charset=utf-8" is not a lowercase type/subtype without parameters of at most 255 characters`},
		{"migration bundle with modules", doc(t, func(m map[string]any) { filesDoc("MigrationBundle")(m); m["modules"] = []any{} }), 0, "/manifest/modules", "manifest/modules: a MigrationBundle manifest carries files only, never modules; modules belongs to another manifest kind"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, r := artifact.ParseManifest(c.raw, bytesAtMost(c.max))
			if r == nil {
				t.Fatalf("accepted: %+v", m)
			}
			if r.Code != wire.CodeArtifactInvalid || r.Pointer != c.ptr || r.Message != c.want {
				t.Fatalf("refusal = %+v\nwant artifact_invalid at %s saying\n%s", r, c.ptr, c.want)
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

// The lowest ceiling wins: a profile (or a second Form) stating a higher or equal
// one leaves the ceiling, and the name of where it comes from, as they were
// (docs/protocol.md#support).
func TestCeilingsKeepTheLowest(t *testing.T) {
	k := wire.StaticAssetBundleManifest
	c := artifact.Portable(k)
	c.LowerFiles(k.MaxEntries, "profile \"same\"")
	c.LowerBytes(wire.MaxBundleBytes, "profile \"same\"")
	c.LowerFiles(k.MaxEntries+1, "profile \"more\"")
	c.LowerBytes(wire.MaxBundleBytes+1, "profile \"more\"")
	if want := artifact.Portable(k); c != want {
		t.Fatalf("an equal or higher ceiling changed the portable one: %+v, want %+v", c, want)
	}
	c.LowerFiles(5, "A")
	c.LowerBytes(500, "A")
	c.LowerFiles(7, "B")
	c.LowerBytes(700, "B")
	if want := (artifact.Ceilings{Files: 5, Bytes: 500, FilesFrom: "A", BytesFrom: "A"}); c != want {
		t.Fatalf("a later higher ceiling raised a lower one: %+v, want %+v", c, want)
	}
}

// maximumBundleBytes bounds the summed sizes inclusively: a manifest declaring
// exactly the ceiling passes, one byte more is refused.
func TestParseManifestBytesCeilingIsInclusive(t *testing.T) {
	total := int64(len(indexJS) + len(indexMap))
	if _, r := artifact.ParseManifest(doc(t, nil), bytesAtMost(total)); r != nil {
		t.Fatalf("modules summing to exactly maximumBundleBytes %d refused: %v", total, r)
	}
	if _, r := artifact.ParseManifest(doc(t, nil), bytesAtMost(total-1)); r == nil {
		t.Fatalf("modules summing to %d accepted under maximumBundleBytes %d", total, total-1)
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
