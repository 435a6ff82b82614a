package hostsim_test

import (
	"fmt"
	"testing"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/synthetic"
	"github.com/takokit/takokit/hostsim"
	"github.com/takokit/takokit/hostsim/hostsimtest"
)

// --conformance-probes installs the synthetic definitions a conformance run asks
// for (docs/protocol.md#probes): a ModuleWorker 0.2.0 that withholds worker.runtime,
// so a version's worker relation refuses a worker created under it, and an
// EdgeKVNamespace in a second group, which holds the same name as another kind.
// Without the option neither is installed.
func TestConformanceProbesInstallTheSyntheticForms(t *testing.T) {
	base := testCatalog(t)
	ext, err := synthetic.Extend(base)
	if err != nil {
		t.Fatal(err)
	}
	var worker2, kv2 *catalog.Form
	for _, f := range ext.Forms() {
		if _, ok := base.Form(f.Ref); ok {
			continue
		}
		switch f.Ref.Kind {
		case kWorker:
			worker2 = f
		case kKV:
			kv2 = f
		}
	}
	if worker2 == nil || kv2 == nil {
		t.Fatalf("the synthetic Forms: %v %v", worker2, kv2)
	}
	plain := hostsimtest.Start(t, hostsim.Config{Catalog: base})
	pc := newClient(t, plain.URL, "sim-primary")
	pc.do("POST", api+"/resources/prepare", nil, body(kv2, "cache", "prod", map[string]any{}, nil)).refused("form_unknown", 404)

	_, w := deployedWorld(t, hostsim.Config{ConformanceProbes: true})
	for _, f := range []*catalog.Form{worker2, kv2} {
		doc := w.c.do("GET", fmt.Sprintf("%s/support/forms/%s/%s/%s", api, f.Ref.APIVersion, f.Ref.Kind, f.Ref.DefinitionVersion), nil, nil).status(200).json()
		if fmt.Sprint(doc["formRef"].(map[string]any)["schemaDigest"]) != f.Ref.SchemaDigest {
			t.Fatalf("support of %s: %v", f.Ref, doc)
		}
	}
	// The same name in the second group is another resource.
	first := uidOf(t, w.read(kKV, "cache"))
	second := w.c.create(kv2, "cache", "prod", map[string]any{}).status(201)
	if uid, _, _ := meta(t, second); uid == first {
		t.Fatalf("two groups share uid %s", uid)
	}
	// A worker created under the definition that withholds worker.runtime cannot run a version.
	w.c.create(worker2, "bare", "prod", map[string]any{}).status(201)
	r := w.create(kVersion, "v-bare", map[string]any{"worker": w.ref(kWorker, "bare"), "bundle": w.ref(kBundle, "b1"), "handlers": []any{"fetch"}}).refused("invalid_argument", 400)
	if !contains(r.body, "worker.runtime") || fieldOf(t, r) != "/worker" {
		t.Fatalf("a version of a worker without worker.runtime: %s", r.body)
	}
}
