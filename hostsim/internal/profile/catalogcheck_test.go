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
// in a profile file is refused with the file, the line and the JSON Pointer,
// and so is a bundle limit on a kind it would never apply to. Each error is
// compared whole: the closest name and the list of known ones are the answer
// a user fixes the file from.
func TestProfileTyposNameFileLineAndPointer(t *testing.T) {
	cat := embedded(t)
	dir := t.TempDir()
	for _, tc := range []struct {
		doc  string
		want []string
	}{
		{"{\"name\": \"typo\", \"extends\": \"full\",\n \"supportedEnums\": {\"WorkerVersoin\": {\"handlerz\": [\"fetch\"]}}}",
			[]string{
				"typo.json:2: /supportedEnums/WorkerVersoin: the catalog has no kind \"WorkerVersoin\" (did you mean \"WorkerVersion\"?)"}},
		{"{\"name\": \"typo\", \"extends\": \"full\",\n \"supportedEnums\": {\"WorkerVersion\": {\n   \"handlerz\": [\"fetch\"]}}}",
			[]string{
				"typo.json:3: /supportedEnums/WorkerVersion/handlerz: WorkerVersion has no field \"handlerz\" (did you mean \"handlers\"?); its fields: assets, assets.bundle, assets.notFoundHandling, assets.runWorkerFirst, bucketBindings, bucketBindings.name, bucketBindings.resource, bundle, handlers, kvBindings, kvBindings.name, kvBindings.resource, queueProducerBindings, queueProducerBindings.name, queueProducerBindings.resource, requiredSensitiveVars, serviceBindings, serviceBindings.name, serviceBindings.resource, sqliteBindings, sqliteBindings.name, sqliteBindings.resource, vars, worker"}},
		{"{\"name\": \"typo\", \"extends\": \"full\",\n \"supportedEnums\": {\"WorkerVersion\": {\"handlers\": [\n \"fetch\",\n \"schedueld\"]}}}",
			[]string{
				"typo.json:4: /supportedEnums/WorkerVersion/handlers/1: \"schedueld\" is not a value of WorkerVersion.handlers (did you mean \"scheduled\"?); its values: fetch, scheduled, queue"}},
		{"{\"name\": \"typo\", \"extends\": \"full\",\n\n \"limits\": {\"WorkerDeployment\": {\"maximumVersion\": 2}}}",
			[]string{
				"typo.json:3: /limits/WorkerDeployment/maximumVersion: WorkerDeployment has no limit \"maximumVersion\" (did you mean \"maximumVersions\"?); its limits: maximumVersions"}},
		{"{\"name\": \"typo\", \"extends\": \"full\",\n \"limits\": {\"StaticAssetBundle\": {\"maximumBundleFile\": 2}}}",
			[]string{
				"typo.json:2: /limits/StaticAssetBundle/maximumBundleFile: StaticAssetBundle has no limit \"maximumBundleFile\" (did you mean \"maximumBundleFiles\"?); its limits: maximumBundleBytes, maximumBundleFiles"}},
		{"{\"name\": \"typo\", \"extends\": \"full\",\n \"limits\": {\"StaticAssetBundle\": {\"maximumBundleFiles\": 20000, \"maximumBundleBytes\": 20971520}}}",
			[]string{
				"typo.json:2: /limits/StaticAssetBundle/maximumBundleBytes: 20971520 is above the portable maximumBundleBytes 10485760; a host profile can only tighten it",
				"typo.json:2: /limits/StaticAssetBundle/maximumBundleFiles: 20000 is above the portable maximumBundleFiles 16384 of a StaticAssetBundle manifest; a host profile can only tighten it"}},
		{"{\"name\": \"typo\", \"extends\": \"full\",\n \"limits\": {\"WorkerVersion\": {\"maximumBundleFiles\": 2}}}",
			[]string{
				"typo.json:2: /limits/WorkerVersion/maximumBundleFiles: WorkerVersion is not artifact-backed, so it has no limit maximumBundleFiles; only a Form that commits to an artifact manifest (SQLiteMigrationSet, StaticAssetBundle, WorkerBundle) publishes it"}},
		{"{\"name\": \"typo\", \"extends\": \"full\",\n \"operations\": {\"AtLeastOnceQueue@0.2.0\": [\"create\", \"raed\"]}}",
			[]string{
				"typo.json:2: /operations/AtLeastOnceQueue@0.2.0/1: \"raed\" is not a lifecycle capability of AtLeastOnceQueue@0.2.0 (did you mean \"read\"?); it has create, read, update, delete, import, observe"}},
		{"{\"name\": \"typo\", \"extends\": \"full\",\n \"operations\": {\"AtLeastOnceQueue@9.0.0\": [\"read\"]}}",
			[]string{
				"typo.json:2: /operations/AtLeastOnceQueue@9.0.0: the catalog has no AtLeastOnceQueue 9.0.0 (it has 0.1.0, 0.2.0)"}},
		{"{\"name\": \"typo\", \"extends\": \"full\",\n \"forms\": {\"exclude\": [\"ObjectBucket\",\n  \"ObjectBukket\"]},\n \"bindings\": {\"exclude\": [\"module-worker.objekt-bucket@1.0.0\"]}}",
			[]string{
				"typo.json:3: /forms/exclude/1: the catalog has no kind \"ObjectBukket\" (did you mean \"ObjectBucket\"?)",
				"typo.json:4: /bindings/exclude/0: the catalog has no contract \"module-worker.objekt-bucket@1.0.0\" (did you mean \"module-worker.object-bucket@1.0.0\"?); it has module-worker.edge-kv@1.0.0, module-worker.object-bucket@1.0.0, module-worker.queue-producer@1.0.0, module-worker.service@1.0.0, module-worker.sqlite@1.0.0"}},
		{"{\"name\": \"typo\", \"extends\": \"full\",\n \"async\": {\"kinds\": [\"Queue\"]},\n \"faults\": [{\"fault\": \"latency\", \"value\": \"1ms\", \"kind\": \"Queue\"}]}",
			[]string{
				"typo.json:2: /async/kinds/0: the catalog has no kind \"Queue\"",
				"typo.json:3: /faults/0/kind: the catalog has no kind \"Queue\": the fault would never fire"}},
		{"{\"name\": \"typo\", \"extends\": \"full\",\n \"supportedRanges\": {\"AtLeastOnceQueue\": {\"messageRetentionSecs\": {\"maximum\": 60}}}}",
			[]string{
				"typo.json:2: /supportedRanges/AtLeastOnceQueue/messageRetentionSecs: AtLeastOnceQueue has no field \"messageRetentionSecs\"; its fields: deliveryDelaySeconds, maxMessageBytes, messageRetentionSeconds"}},
		{"{\"name\": \"typo\", \"extends\": \"full\",\n \"operations\": {\"AtLeastOnceQueue\": [\"reed\"]},\n \"limits\": {\"WorkerVersion\": {\"maximumHandler\": 1}}}",
			[]string{
				"typo.json:2: /operations/AtLeastOnceQueue/0: \"reed\" is not a lifecycle capability of AtLeastOnceQueue (did you mean \"read\"?); it has create, read, update, delete, import, observe",
				"typo.json:3: /limits/WorkerVersion/maximumHandler: WorkerVersion has no limit \"maximumHandler\" (did you mean \"maximumHandlers\"?); its limits: maximumBucketBindings, maximumHandlers, maximumKvBindings, maximumQueueProducerBindings, maximumRequiredSensitiveVars, maximumServiceBindings, maximumSqliteBindings, maximumVars, maximumBundleBytes"}},
		{"{\"name\": \"typo\", \"extends\": \"full\",\n \"interfaces\": {\"include\": [\"edge.queu@1.0.0\"]}}",
			[]string{
				"typo.json:2: /interfaces/include/0: the catalog has no contract \"edge.queu@1.0.0\" (did you mean \"edge.queue@1.0.0\"?); it has edge.kv@1.0.0, edge.objects@1.0.0, edge.queue@1.0.0, edge.sql@1.0.0, worker.runtime@1.0.0, worker.service@1.0.0"}},
		{"{\"name\": \"typo\", \"extends\": \"full\",\n \"supportedRanges\": {\"WorkerDeployment\": {\"versions.weight\": {\"maximum\": 60},\n \"versions.wieght\": {\"maximum\": 60}, \"weight\": {\"maximum\": 1}}}}",
			[]string{
				"typo.json:3: /supportedRanges/WorkerDeployment/versions.wieght: WorkerDeployment has no field \"versions.wieght\" (did you mean \"versions.weight\"?); its fields: versions, versions.weight, versions.workerVersion, worker",
				"typo.json:3: /supportedRanges/WorkerDeployment/weight: WorkerDeployment has no field \"weight\"; its fields: versions, versions.weight, versions.workerVersion, worker"}},
		{"{\"name\": \"typo\", \"extends\": \"full\",\n \"limits\": {\"AtLeastOnceQueue\": {\"maximumBundleBytes\": 5, \"maximumMessages\": 1},\n \"SQLiteMigrationApplication\": {\"maximumBundleBytes\": 5}}}",
			[]string{
				"typo.json:2: /limits/AtLeastOnceQueue/maximumBundleBytes: AtLeastOnceQueue neither commits to nor references an artifact manifest, so it has no limit maximumBundleBytes; only SQLiteMigrationApplication, SQLiteMigrationSet, StaticAssetBundle, WorkerBundle, WorkerVersion publish it",
				"typo.json:2: /limits/AtLeastOnceQueue/maximumMessages: AtLeastOnceQueue has no limit \"maximumMessages\"; it has none"}},
		{"{\"name\": \"typo\", \"extends\": \"full\",\n \"supportedEnums\": {\"WorkerCustomDomain\": {\"hostname\": [\"a.example.com\"]}, \"Worker~Version/x\": {}}}",
			[]string{
				"typo.json:2: /supportedEnums/Worker~0Version~1x: the catalog has no kind \"Worker~Version/x\""}},
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
		want := "the profile names what the catalog does not hold; correct or remove each member below (docs/guides/partial-hosts.md):"
		for _, w := range tc.want {
			want += "\n  " + filepath.Join(dir, w)
		}
		if err == nil || err.Error() != want {
			t.Errorf("profile %s:\n%v\nwant\n%s", tc.doc, err, want)
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

// A reference to an artifact-backed kind counts at any depth (a WorkerVersion's
// assets.bundle), so such a kind may state maximumBundleBytes.
func TestReferencesArtifactsLooksIntoMembers(t *testing.T) {
	ref := func(kind string) *catalog.RefTarget { return &catalog.RefTarget{Kind: kind} }
	nested := &catalog.Form{Fields: []catalog.Field{{Wire: "worker", Ref: ref("ModuleWorker")},
		{Wire: "assets", Members: []catalog.Field{{Wire: "bundle", Ref: ref("StaticAssetBundle")}}}}}
	plain := &catalog.Form{Fields: []catalog.Field{{Wire: "worker", Ref: ref("ModuleWorker")},
		{Wire: "assets", Members: []catalog.Field{{Wire: "site", Ref: ref("ObjectBucket")}}}}}
	if !referencesArtifacts([]*catalog.Form{plain, nested}) {
		t.Errorf("a nested reference to a StaticAssetBundle was not seen")
	}
	if referencesArtifacts([]*catalog.Form{plain}) {
		t.Errorf("references to a worker and a bucket counted as artifact references")
	}
}
