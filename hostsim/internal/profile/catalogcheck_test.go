package profile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog"
)

func embedded(t *testing.T) *catalog.Catalog {
	t.Helper()
	cat, err := catalog.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

// Every built-in profile names only what the built-in catalog holds.
func TestBuiltinProfilesNameOnlyCatalogThings(t *testing.T) {
	cat := embedded(t)
	for _, name := range BuiltinNames {
		data, err := builtinFS.ReadFile("builtin/" + name + ".json")
		if err != nil {
			t.Fatal(err)
		}
		_, doc, err := decode(data)
		if err != nil {
			t.Fatal(err)
		}
		c := &checker{cat: cat, f: file{path: name, data: data, doc: doc}}
		c.doc()
		if len(c.problems) > 0 {
			t.Errorf("built-in profile %s: %v", name, c.problems)
		}
	}
}

// A misspelled kind, field, value, limit, operation, contract or fault scope
// in a profile file is refused with the file, the line and the JSON Pointer.
func TestProfileTyposNameFileLineAndPointer(t *testing.T) {
	cat := embedded(t)
	dir := t.TempDir()
	for _, tc := range []struct {
		doc  string
		want []string
	}{
		{"{\"name\": \"typo\", \"extends\": \"full\",\n \"supportedEnums\": {\"WorkerVersoin\": {\"handlerz\": [\"fetch\"]}}}",
			[]string{"typo.json:2: /supportedEnums/WorkerVersoin: the catalog has no kind \"WorkerVersoin\" (did you mean \"WorkerVersion\"?)"}},
		{"{\"name\": \"typo\", \"extends\": \"full\",\n \"supportedEnums\": {\"WorkerVersion\": {\n   \"handlerz\": [\"fetch\"]}}}",
			[]string{"typo.json:3: /supportedEnums/WorkerVersion/handlerz: WorkerVersion has no field \"handlerz\" (did you mean \"handlers\"?)"}},
		{"{\"name\": \"typo\", \"extends\": \"full\",\n \"supportedEnums\": {\"WorkerVersion\": {\"handlers\": [\n \"fetch\",\n \"schedueld\"]}}}",
			[]string{"typo.json:4: /supportedEnums/WorkerVersion/handlers/1: \"schedueld\" is not a value of WorkerVersion.handlers", "did you mean \"scheduled\"?"}},
		{"{\"name\": \"typo\", \"extends\": \"full\",\n\n \"limits\": {\"WorkerDeployment\": {\"maximumVersion\": 2}}}",
			[]string{"typo.json:3: /limits/WorkerDeployment/maximumVersion:", "did you mean \"maximumVersions\"?"}},
		{"{\"name\": \"typo\", \"extends\": \"full\",\n \"limits\": {\"StaticAssetBundle\": {\"maximumBundleFile\": 2}}}",
			[]string{"typo.json:2: /limits/StaticAssetBundle/maximumBundleFile:", "did you mean \"maximumBundleFiles\"?"}},
		{"{\"name\": \"typo\", \"extends\": \"full\",\n \"limits\": {\"StaticAssetBundle\": {\"maximumBundleFiles\": 20000, \"maximumBundleBytes\": 20971520}}}",
			[]string{"typo.json:2: /limits/StaticAssetBundle/maximumBundleFiles: 20000 is above the portable maximumBundleFiles 16384 of a StaticAssetBundle manifest",
				"typo.json:2: /limits/StaticAssetBundle/maximumBundleBytes: 20971520 is above the portable maximumBundleBytes 10485760"}},
		{"{\"name\": \"typo\", \"extends\": \"full\",\n \"limits\": {\"WorkerVersion\": {\"maximumBundleFiles\": 2}}}",
			[]string{"typo.json:2: /limits/WorkerVersion/maximumBundleFiles: WorkerVersion is not artifact-backed", "SQLiteMigrationSet", "StaticAssetBundle", "WorkerBundle"}},
		{"{\"name\": \"typo\", \"extends\": \"full\",\n \"operations\": {\"AtLeastOnceQueue@0.2.0\": [\"create\", \"raed\"]}}",
			[]string{"typo.json:2: /operations/AtLeastOnceQueue@0.2.0/1: \"raed\" is not a lifecycle capability"}},
		{"{\"name\": \"typo\", \"extends\": \"full\",\n \"operations\": {\"AtLeastOnceQueue@9.0.0\": [\"read\"]}}",
			[]string{"typo.json:2: /operations/AtLeastOnceQueue@9.0.0: the catalog has no AtLeastOnceQueue 9.0.0 (it has 0.1.0, 0.2.0)"}},
		{"{\"name\": \"typo\", \"extends\": \"full\",\n \"forms\": {\"exclude\": [\"ObjectBucket\",\n  \"ObjectBukket\"]},\n \"bindings\": {\"exclude\": [\"module-worker.objekt-bucket@1.0.0\"]}}",
			[]string{"typo.json:3: /forms/exclude/1: the catalog has no kind \"ObjectBukket\"", "typo.json:4: /bindings/exclude/0: the catalog has no contract \"module-worker.objekt-bucket@1.0.0\""}},
		{"{\"name\": \"typo\", \"extends\": \"full\",\n \"async\": {\"kinds\": [\"Queue\"]},\n \"faults\": [{\"fault\": \"latency\", \"value\": \"1ms\", \"kind\": \"Queue\"}]}",
			[]string{"typo.json:2: /async/kinds/0: the catalog has no kind \"Queue\"", "typo.json:3: /faults/0/kind: the catalog has no kind \"Queue\""}},
		{"{\"name\": \"typo\", \"extends\": \"full\",\n \"supportedRanges\": {\"AtLeastOnceQueue\": {\"messageRetentionSecs\": {\"maximum\": 60}}}}",
			[]string{"typo.json:2: /supportedRanges/AtLeastOnceQueue/messageRetentionSecs: AtLeastOnceQueue has no field \"messageRetentionSecs\""}},
	} {
		path := filepath.Join(dir, "typo.json")
		if err := os.WriteFile(path, []byte(tc.doc), 0o644); err != nil {
			t.Fatal(err)
		}
		p, err := Load(path)
		if err != nil {
			t.Fatalf("%s: %v", tc.doc, err)
		}
		err = p.CheckCatalog(cat)
		for _, w := range tc.want {
			if err == nil || !strings.Contains(err.Error(), filepath.Join(dir, w)) && !strings.Contains(err.Error(), w) {
				t.Errorf("profile %s:\n%v\nwant %q", tc.doc, err, w)
			}
		}
	}
	// A correct file, extending a built-in and extended by another file, passes.
	base := filepath.Join(dir, "base.json")
	os.WriteFile(base, []byte(`{"name": "base", "extends": "tight-limits", "forms": {"exclude": ["ObjectBucket@0.1.0"]}}`), 0o644)
	top := filepath.Join(dir, "top.json")
	os.WriteFile(top, []byte(`{"name": "top", "extends": "base.json", "supportedEnums": {"WorkerVersion": {"handlers": ["fetch"]}}}`), 0o644)
	p, err := Load(top)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.CheckCatalog(cat); err != nil {
		t.Fatalf("a correct chain of profile files was refused: %v", err)
	}
	// The parent file's typo is reported under the parent's name.
	os.WriteFile(base, []byte("{\"name\": \"base\", \"extends\": \"full\",\n \"forms\": {\"exclude\": [\"Bukket\"]}}"), 0o644)
	p, _ = Load(top)
	if err := p.CheckCatalog(cat); err == nil || !strings.Contains(err.Error(), "base.json:2: /forms/exclude/0") {
		t.Fatalf("a typo in the parent file: %v", err)
	}
}
