package catalog

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"
)

// storePkg is the Store package's directory in the test catalog.
const storePkg = "forms/" + tFamily + "/store"

// editStoreIndex edits the Store package's sealed package-index.json.
func editStoreIndex(edit func(idx obj)) func(c *tcat) {
	return func(c *tcat) {
		c.post = append(c.post, func(files map[string][]byte) {
			var idx obj
			if err := json.Unmarshal(files[storePkg+"/"+indexFile], &idx); err != nil {
				panic(err)
			}
			edit(idx)
			b, err := json.MarshalIndent(idx, "", "  ")
			if err != nil {
				panic(err)
			}
			files[storePkg+"/"+indexFile] = b
		})
	}
}

// entry is the i-th file entry of a package index.
func entry(idx obj, i int) obj { return idx["files"].([]any)[i].(obj) }

// Every rule of a package index and of the fixtures it lists, one broken at a
// time, with the whole list of problems (the Store package: its definition and
// two fixtures, desired and negative).
func TestPackageIndexRules(t *testing.T) {
	index := storePkg + "/" + indexFile
	checkProblems(t, []problemCase{
		{"no index", func(c *tcat) { c.post = append(c.post, func(files map[string][]byte) { delete(files, index) }) }, []string{
			`catalog: forms/example-v1alpha1/store: "": package has no package-index.json; write one listing every package file (mage catalog:seal does it)`,
		}},
		{"apiVersion", editStoreIndex(func(idx obj) { idx["apiVersion"] = "packages.example.dev/v1" }), []string{
			`catalog: forms/example-v1alpha1/store/package-index.json: /apiVersion: apiVersion must be "packages.forms.takoform.com/v1alpha4"`,
		}},
		{"kind", editStoreIndex(func(idx obj) { idx["kind"] = "Package" }), []string{
			`catalog: forms/example-v1alpha1/store/package-index.json: /kind: kind must be "FormPackage"`,
		}},
		{"formRef of another apiVersion", editStoreIndex(func(idx obj) { at(idx, "formRef")["apiVersion"] = "other.forms.takokit.dev/v1alpha1" }), []string{
			`catalog: forms/example-v1alpha1/store/package-index.json: /formRef: formRef names other.forms.takokit.dev/v1alpha1 Store@0.1.0 but the package holds example.forms.takokit.dev/v1alpha1 Store@0.1.0`,
		}},
		{"formRef of another kind", editStoreIndex(func(idx obj) { at(idx, "formRef")["kind"] = "Holder" }), []string{
			`catalog: forms/example-v1alpha1/store/package-index.json: /formRef: formRef names example.forms.takokit.dev/v1alpha1 Holder@0.1.0 but the package holds example.forms.takokit.dev/v1alpha1 Store@0.1.0`,
		}},
		{"formRef of another version", editStoreIndex(func(idx obj) { at(idx, "formRef")["definitionVersion"] = "0.2.0" }), []string{
			`catalog: forms/example-v1alpha1/store/package-index.json: /formRef: formRef names example.forms.takokit.dev/v1alpha1 Store@0.2.0 but the package holds example.forms.takokit.dev/v1alpha1 Store@0.1.0`,
		}},
		{"definitionPath", editStoreIndex(func(idx obj) { idx["definitionPath"] = "def.json" }), []string{
			`catalog: forms/example-v1alpha1/store/package-index.json: /definitionPath: definitionPath must be exactly "definition.json"`,
			`catalog: forms/example-v1alpha1/store/package-index.json: /files/0/path: the definition media type belongs only to definitionPath "def.json"`,
		}},
		{"no files", editStoreIndex(func(idx obj) { idx["files"] = []any{} }), []string{
			`catalog: forms/example-v1alpha1/store/definition.json: "": file is in the package directory but not listed in package-index.json; list it or remove it`,
			`catalog: forms/example-v1alpha1/store/definition.json: /conformanceFixtures/0/desiredPath: fixture "fixtures/desired.json" is not listed in package-index.json`,
			`catalog: forms/example-v1alpha1/store/definition.json: /negativeConformanceFixtures/0/inputPath: fixture "fixtures/negative-unexpected-property.json" is not listed in package-index.json`,
			`catalog: forms/example-v1alpha1/store/fixtures/desired.json: "": file is in the package directory but not listed in package-index.json; list it or remove it`,
			`catalog: forms/example-v1alpha1/store/fixtures/negative-unexpected-property.json: "": file is in the package directory but not listed in package-index.json; list it or remove it`,
			`catalog: forms/example-v1alpha1/store/package-index.json: /files: files must list at least the definition`,
			`catalog: forms/example-v1alpha1/store/package-index.json: /files: exactly one file must have media type "application/vnd.takoform.form-definition.v1+json" (found 0)`,
		}},
		{"a path outside the package", editStoreIndex(func(idx obj) { entry(idx, 2)["path"] = "../x.json" }), []string{
			`catalog: forms/example-v1alpha1/store/definition.json: /negativeConformanceFixtures/0/inputPath: fixture "fixtures/negative-unexpected-property.json" is not listed in package-index.json`,
			`catalog: forms/example-v1alpha1/store/fixtures/negative-unexpected-property.json: "": file is in the package directory but not listed in package-index.json; list it or remove it`,
			`catalog: forms/example-v1alpha1/store/package-index.json: /files/2/path: "../x.json" is not a package path`,
		}},
		{"unsorted", editStoreIndex(func(idx obj) { f := idx["files"].([]any); f[1], f[2] = f[2], f[1] }), []string{
			`catalog: forms/example-v1alpha1/store/package-index.json: /files/2/path: files must be sorted by path in byte order without duplicates; "fixtures/desired.json" comes after "fixtures/negative-unexpected-property.json"`,
		}},
		{"a file twice", editStoreIndex(func(idx obj) { f := idx["files"].([]any); idx["files"] = append(f[:2], f[1], f[2]) }), []string{
			`catalog: forms/example-v1alpha1/store/package-index.json: /files/2/path: files must be sorted by path in byte order without duplicates; "fixtures/desired.json" comes after "fixtures/desired.json"`,
		}},
		{"the index listing itself", editStoreIndex(func(idx obj) {
			idx["files"] = append(idx["files"].([]any), obj{"path": indexFile, "mediaType": mediaJSON, "digest": zeroDig, "size": 1})
		}), []string{
			`catalog: forms/example-v1alpha1/store/package-index.json: /files/3/path: the index never lists itself; remove this entry`,
		}},
		{"a media type", editStoreIndex(func(idx obj) { entry(idx, 2)["mediaType"] = "text/html" }), []string{
			`catalog: forms/example-v1alpha1/store/definition.json: /negativeConformanceFixtures/0/inputPath: fixture "fixtures/negative-unexpected-property.json" must be listed with media type application/json`,
			`catalog: forms/example-v1alpha1/store/package-index.json: /files/2/mediaType: media type "text/html" is not allowed; use one of [application/vnd.takoform.form-definition.v1+json application/json application/schema+json text/markdown text/plain]`,
		}},
		{"the definition media type on a fixture", editStoreIndex(func(idx obj) { entry(idx, 1)["mediaType"] = mediaDefinition }), []string{
			`catalog: forms/example-v1alpha1/store/definition.json: /conformanceFixtures/0/desiredPath: fixture "fixtures/desired.json" must be listed with media type application/json`,
			`catalog: forms/example-v1alpha1/store/package-index.json: /files: exactly one file must have media type "application/vnd.takoform.form-definition.v1+json" (found 2)`,
			`catalog: forms/example-v1alpha1/store/package-index.json: /files/1/path: the definition media type belongs only to definitionPath "definition.json"`,
		}},
		{"no definition media type", editStoreIndex(func(idx obj) { entry(idx, 0)["mediaType"] = mediaJSON }), []string{
			`catalog: forms/example-v1alpha1/store/package-index.json: /files: exactly one file must have media type "application/vnd.takoform.form-definition.v1+json" (found 0)`,
		}},
		{"a malformed digest", editStoreIndex(func(idx obj) { entry(idx, 1)["digest"] = "sha256:ABC" }), []string{
			`catalog: forms/example-v1alpha1/store/package-index.json: /files/1/digest: digest must be sha256: followed by 64 lowercase hex digits`,
			`catalog: forms/example-v1alpha1/store/package-index.json: /files/1/digest: digest sha256:ABC does not match the raw bytes of "fixtures/desired.json" (sha256:ca3d163bab055381827226140568f3bef7eaac187cebd76878e0b63e9e442356); reseal the catalog (mage catalog:seal)`,
		}},
		{"a negative size", editStoreIndex(func(idx obj) { entry(idx, 1)["size"] = -1 }), []string{
			`catalog: forms/example-v1alpha1/store/package-index.json: /files/1/size: size must be an integer from 0 to 67108864`,
			`catalog: forms/example-v1alpha1/store/package-index.json: /files/1/size: size -1 does not match the 3 bytes of "fixtures/desired.json"; reseal the catalog (mage catalog:seal)`,
		}},
		{"a size over the bound", editStoreIndex(func(idx obj) { entry(idx, 1)["size"] = maxPackageFile + 1 }), []string{
			`catalog: forms/example-v1alpha1/store/package-index.json: /files/1/size: size must be an integer from 0 to 67108864`,
			`catalog: forms/example-v1alpha1/store/package-index.json: /files/1/size: size 67108865 does not match the 3 bytes of "fixtures/desired.json"; reseal the catalog (mage catalog:seal)`,
		}},
		{"a size at the bound", editStoreIndex(func(idx obj) { entry(idx, 1)["size"] = maxPackageFile }), []string{
			`catalog: forms/example-v1alpha1/store/package-index.json: /files/1/size: size 67108864 does not match the 3 bytes of "fixtures/desired.json"; reseal the catalog (mage catalog:seal)`,
		}},
		{"a size of another file", editStoreIndex(func(idx obj) { entry(idx, 1)["size"] = 4 }), []string{
			`catalog: forms/example-v1alpha1/store/package-index.json: /files/1/size: size 4 does not match the 3 bytes of "fixtures/desired.json"; reseal the catalog (mage catalog:seal)`,
		}},
		{"a listed file that is missing", func(c *tcat) {
			c.post = append(c.post, func(files map[string][]byte) { delete(files, storePkg+"/fixtures/negative-unexpected-property.json") })
		}, []string{
			`catalog: forms/example-v1alpha1/store/package-index.json: /files/2/path: lists "fixtures/negative-unexpected-property.json", which does not exist in the package; add the file or drop the entry`,
		}},
		{"an unlisted file", func(c *tcat) {
			c.post = append(c.post, func(files map[string][]byte) { files[storePkg+"/notes.txt"] = []byte("x") })
		}, []string{
			`catalog: forms/example-v1alpha1/store/notes.txt: "": file is in the package directory but not listed in package-index.json; list it or remove it`,
		}},
		{"a fixture of another media type", editStoreIndex(func(idx obj) { entry(idx, 1)["mediaType"] = "text/plain" }), []string{
			`catalog: forms/example-v1alpha1/store/definition.json: /conformanceFixtures/0/desiredPath: fixture "fixtures/desired.json" must be listed with media type application/json`,
		}},
		{"a fixture that is no object", func(c *tcat) { c.form("Store", "0.1.0").fixtures["fixtures/desired.json"] = []any{} }, []string{
			`catalog: forms/example-v1alpha1/store/fixtures/desired.json: "": a fixture is a JSON object`,
		}},
		{"a fixture that is null", func(c *tcat) { c.form("Store", "0.1.0").fixtures["fixtures/desired.json"] = nil }, []string{
			"catalog: " + storePkg + `/fixtures/desired.json: "": a fixture is a JSON object`,
		}},
		{"a fixture that is no JSON", func(c *tcat) {
			c.form("Store", "0.1.0").fixtures["fixtures/desired.json"] = json.RawMessage(`{"a": 1, "a": 2}`)
		}, []string{
			`catalog: forms/example-v1alpha1/store/fixtures/desired.json: /a: duplicate member name "a"; every member name in an object must be unique (byte 17)`,
		}},
		{"no canonical fixture", func(c *tcat) {
			c.form("Store", "0.1.0").def["conformanceFixtures"].([]any)[0].(obj)["name"] = "positive"
		}, []string{
			`catalog: forms/example-v1alpha1/store/definition.json: /conformanceFixtures: exactly one positive fixture must be named "canonical" (found 0)`,
		}},
		{"two canonical fixtures", func(c *tcat) {
			d := c.form("Store", "0.1.0").def
			d["conformanceFixtures"] = append(d["conformanceFixtures"].([]any), obj{"name": "canonical", "desiredPath": "fixtures/desired.json"})
		}, []string{
			`catalog: forms/example-v1alpha1/store/definition.json: /conformanceFixtures/1/name: fixture name "canonical" must match ^[a-z0-9][a-z0-9._-]{0,127}$ and be unique`,
		}},
		{"an observed fixture without observedSchema", func(c *tcat) {
			c.form("Store", "0.1.0").def["conformanceFixtures"].([]any)[0].(obj)["observedPath"] = "fixtures/desired.json"
		}, []string{
			`catalog: forms/example-v1alpha1/store/definition.json: /conformanceFixtures/0/observedPath: fixture "canonical" has an observed document but the Form declares no observedSchema`,
		}},
		{"an output fixture without outputSchema", func(c *tcat) {
			c.form("Store", "0.1.0").def["conformanceFixtures"].([]any)[0].(obj)["outputPath"] = "fixtures/desired.json"
		}, []string{
			`catalog: forms/example-v1alpha1/store/definition.json: /conformanceFixtures/0/outputPath: fixture "canonical" has an output document but the Form declares no outputSchema`,
		}},
		{"a negative output fixture without outputSchema", func(c *tcat) {
			c.form("Store", "0.1.0").def["negativeConformanceFixtures"].([]any)[0].(obj)["stage"] = "output"
		}, []string{
			`catalog: forms/example-v1alpha1/store/definition.json: /negativeConformanceFixtures/0/stage: negative fixture "reject-unexpected-property" has stage output but the Form declares no outputSchema`,
		}},
		{"a negative observed fixture without observedSchema", func(c *tcat) {
			c.form("Store", "0.1.0").def["negativeConformanceFixtures"].([]any)[0].(obj)["stage"] = "observed"
		}, []string{
			`catalog: forms/example-v1alpha1/store/definition.json: /negativeConformanceFixtures/0/stage: negative fixture "reject-unexpected-property" has stage observed but the Form declares no observedSchema`,
		}},
	})
}

// An output fixture is validated against the Form's outputSchema.
func TestAnOutputFixtureItsOutputSchemaRefuses(t *testing.T) {
	k, _ := loadBase(t).Kind(tGroup, "Gadget")
	gadget, _ := k.Version("0.1.0")
	c := baseCatalog()
	c.form("Gadget", "0.1.0").fixtures["fixtures/outputs.json"] = obj{"address": "here", "port": "443"}
	want := []string{fmt.Sprintf(`catalog: %s: /conformanceFixtures/0/outputPath: fixture "canonical" should validate against outputSchema but does not: outputs does not match %s: /port: got string, want integer`, gadget1, gadget.Ref)}
	if got := problemLines(t, c); !slices.Equal(got, want) {
		t.Errorf("problems:\n got %q\nwant %q", got, want)
	}
}

// A file the index lists that the package directory holds but that cannot be
// read is its entry's one problem (the fixture reading it adds none).
func TestAnUnreadablePackageFileIsItsEntrysProblem(t *testing.T) {
	fixture := storePkg + "/fixtures/desired.json"
	want := []string{fmt.Sprintf(`catalog: %s/%s: /files/1/path: cannot read "fixtures/desired.json": open %s: permission denied`, storePkg, indexFile, fixture)}
	if got := loadProblems(t, unreadable{mapFS(baseCatalog().seal(t)), fixture}); !slices.Equal(got, want) {
		t.Errorf("loading with %s unreadable:\n got %q\nwant %q", fixture, got, want)
	}
}
