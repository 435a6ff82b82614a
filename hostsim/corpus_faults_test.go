package hostsim_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/catalogtest"
	"github.com/takokit/takokit/hostsim"
	"github.com/takokit/takokit/hostsim/hostsimtest"
)

// The faults of the v1beta1 corpus's worker, hostname, runtime and import rules:
// each breaks its rule while armed, and the rule holds again once disarmed.
func TestCorpusRuleFaults(t *testing.T) {
	sim, w := deployedWorld(t, hostsim.Config{})
	domain := func(name, host string) *reply {
		return w.create(kDomain, name, map[string]any{"worker": w.ref(kWorker, "api"), "hostname": host})
	}
	t.Run("cron.pattern-only", func(t *testing.T) {
		arm(t, sim, "cron.pattern-only")
		w.create(kCron, "c-lax", map[string]any{"worker": w.ref(kWorker, "api"), "cron": "0 24 * * *"}).status(201)
		disarm(t, sim)
		w.create(kCron, "c-strict", map[string]any{"worker": w.ref(kWorker, "api"), "cron": "0 24 * * *"}).refused("invalid_argument", 400)
	})
	t.Run("hostname.as-sent", func(t *testing.T) {
		arm(t, sim, "hostname.as-sent")
		mustSay(t, domain("d-sent", "Sent.Example.COM.").status(201), `"hostname":"Sent.Example.COM."`)
		disarm(t, sim)
		mustSay(t, domain("d-canon", "Canon.Example.COM.").status(201), `"hostname":"canon.example.com"`)
	})
	t.Run("hostname.idna-map", func(t *testing.T) {
		arm(t, sim, "hostname.idna-map")
		mustSay(t, domain("d-idna", "b\u00fccher.example.com").status(201), `"hostname":"xn--bcher-kva.example.com"`)
		disarm(t, sim)
		domain("d-ulabel", "b\u00fccher.example.org").refused("invalid_argument", 400)
	})
	t.Run("hostname.space-scoped", func(t *testing.T) {
		stage := &world{t: t, c: w.c, cat: w.cat, space: "stage"}
		stage.served("api")
		domain("d-prod", "scoped.example.com").status(201)
		spec := map[string]any{"worker": stage.ref(kWorker, "api"), "hostname": "scoped.example.com"}
		arm(t, sim, "hostname.space-scoped")
		stage.create(kDomain, "d-stage", spec).status(201)
		disarm(t, sim)
		stage.create(kDomain, "d-stage2", spec).refused("invalid_argument", 400)
	})
	t.Run("hostname.host-wide", func(t *testing.T) {
		other := &world{t: t, c: newClient(t, sim.URL, "sim-other-tenant"), cat: w.cat, space: "prod"}
		other.served("api")
		domain("d-mine", "tenant.example.com").status(201)
		spec := map[string]any{"worker": other.ref(kWorker, "api"), "hostname": "tenant.example.com"}
		arm(t, sim, "hostname.host-wide")
		mustSay(t, other.create(kDomain, "d-theirs", spec).refused("invalid_argument", 400), "d-mine")
		disarm(t, sim)
		other.create(kDomain, "d-theirs", spec).status(201)
	})
	t.Run("deadletter.one-hop", func(t *testing.T) {
		for _, q := range []string{"qa", "qb", "qc", "qd"} {
			w.settled(kQueue, q, fixture(t, w.f(kQueue)))
		}
		w.create(kConsumer, "ca", consumerSpec(w, "api", "qa", "qb")).status(201)
		w.create(kConsumer, "cb", consumerSpec(w, "api", "qb", "qc")).status(201)
		w.create(kConsumer, "cc", consumerSpec(w, "api", "qc", "qa")).refused("invalid_argument", 400)
		arm(t, sim, "deadletter.one-hop")
		w.create(kConsumer, "cc", consumerSpec(w, "api", "qc", "qa")).status(201)
		disarm(t, sim)
		w.create(kConsumer, "cd", consumerSpec(w, "api", "qd", "qd")).refused("invalid_argument", 400)
	})
	t.Run("attachment.many-per-target", func(t *testing.T) {
		w.settled(kQueue, "qm", fixture(t, w.f(kQueue)))
		w.create(kConsumer, "cm1", consumerSpec(w, "api", "qm", "")).status(201)
		arm(t, sim, "attachment.many-per-target")
		w.create(kConsumer, "cm2", consumerSpec(w, "api", "qm", "")).status(201)
		disarm(t, sim)
		w.create(kConsumer, "cm3", consumerSpec(w, "api", "qm", "")).refused("invalid_argument", 400)
	})
	t.Run("handlers.open-vocabulary", func(t *testing.T) {
		spec := map[string]any{"worker": w.ref(kWorker, "api"), "bundle": w.ref(kBundle, "b1"), "handlers": []any{"fetch", "alarm"}}
		f := w.f(kVersion)
		arm(t, sim, "handlers.open-vocabulary")
		mustSay(t, w.c.do("POST", api+"/resources/validate", nil, body(f, "vo", "prod", spec, nil)).status(200), `"valid":true`)
		disarm(t, sim)
		mustSay(t, w.c.do("POST", api+"/resources/validate", nil, body(f, "vo", "prod", spec, nil)).status(200), `"valid":false`)
	})
	// A bundle whose mainModule names no module passes only while
	// artifacts.any-main-module is armed; a version on it is still refused by the
	// export scan, naming the missing module rather than missing bytes.
	t.Run("artifacts.any-main-module, at a version", func(t *testing.T) {
		arm(t, sim, "artifacts.any-main-module")
		defer disarm(t, sim)
		digest := w.c.uploadManifest(kBundle, "absent.js", file{"index.js", "application/javascript+module", allHandlers})
		w.create(kBundle, "b-absent", map[string]any{"manifestDigest": digest}).status(201)
		r := w.version("v-absent", "api", "b-absent", []string{"fetch"}, nil).refused("artifact_invalid", 400)
		mustSay(t, r, `mainModule \"absent.js\" names no declared module`)
	})
	t.Run("gate.stored-versions", func(t *testing.T) {
		w.create(kWorker, "gw", map[string]any{}).status(201)
		w.bundle("gb", allHandlers)
		w.version("gv-sched", "gw", "gb", []string{"scheduled"}, nil).status(201)
		w.version("gv-fetch", "gw", "gb", []string{"fetch"}, nil).status(201)
		w.create(kDeployment, "gd", w.deployment("gw", map[string]int{"gv-sched": 10000})).status(201)
		ep := map[string]any{"worker": w.ref(kWorker, "gw")}
		arm(t, sim, "gate.stored-versions")
		w.create(kEndpoint, "gep", ep).status(201)
		w.del(kEndpoint, "gep", 1).status(204)
		disarm(t, sim)
		w.create(kEndpoint, "gep2", ep).refused("unsupported_capability", 422)
	})
	t.Run("import.first-claim-unrecorded", func(t *testing.T) {
		kv := w.f(kKV)
		imp := func(f *catalog.Form, name, native, fence string) *reply {
			h := map[string]string{"Idempotency-Key": newKey()}
			if fence == "" {
				h["If-None-Match"] = "*"
			} else {
				h["Takoform-Expected-Generation"] = fence
			}
			return w.c.do("POST", resPath(f, name)+"/import", h, body(f, name, "prod", map[string]any{}, map[string]any{"nativeId": native}))
		}
		w.create(kKV, "made1", map[string]any{}).status(201)
		arm(t, sim, "import.first-claim-unrecorded")
		imp(kv, "made1", "native-1", "1").status(200)
		disarm(t, sim)
		imp(kv, "rival1", "native-1", "").status(201) // nothing was recorded
		w.create(kKV, "made2", map[string]any{}).status(201)
		imp(kv, "made2", "native-2", "1").status(200)
		imp(kv, "rival2", "native-2", "").refused("import_conflict", 409)
	})
}

// The target-contract faults, on a catalog with two more worker definitions: one
// no reference lists, one withholding its Interfaces.
func TestTargetContractFaults(t *testing.T) {
	cat, vers, err := catalogtest.SecondDefinitions(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat})
	w := &world{t: t, c: newClient(t, sim.URL, "sim-primary"), cat: cat, space: "prod"}
	w.bundle("b1", allHandlers)
	worker := func(version string) *catalog.Form {
		for _, f := range cat.Forms() {
			if f.Ref.Kind == kWorker && f.Ref.DefinitionVersion == version {
				return f
			}
		}
		t.Fatalf("no %s %s", kWorker, version)
		return nil
	}
	put := func(f *catalog.Form, name string, spec map[string]any) *reply {
		pr := w.c.do("POST", api+"/resources/prepare", nil, body(f, name, "prod", spec, nil))
		pd := "sha256:" + strings.Repeat("0", 64)
		if pr.code == 200 {
			pd = fmt.Sprint(pr.json()["review"].(map[string]any)["prepareDigest"])
		}
		return w.c.do("PUT", resPath(f, name), map[string]string{"If-None-Match": "*", "Idempotency-Key": newKey()},
			body(f, name, "prod", spec, map[string]any{"review": map[string]any{"prepareDigest": pd}}))
	}
	put(worker(vers[0]), "unlisted", map[string]any{}).status(201)
	put(worker(vers[1]), "withheld", map[string]any{}).status(201)
	// A version of the unlisted worker (it provides the runtime), then its deployment:
	// the deployment's worker reference lists only the original definition.
	w.version("uv", "unlisted", "b1", []string{"fetch"}, nil).status(201)
	dep := w.deployment("unlisted", map[string]int{"uv": 10000})
	w.create(kDeployment, "ud", dep).refused("invalid_argument", 400)
	arm(t, sim, "relations.unlisted-formref")
	w.create(kDeployment, "ud", dep).status(201)
	disarm(t, sim)
	// A version of the withheld worker: its worker reference requires the runtime.
	w.version("wv", "withheld", "b1", []string{"fetch"}, nil).refused("invalid_argument", 400)
	arm(t, sim, "relations.interface-unverified")
	w.version("wv", "withheld", "b1", []string{"fetch"}, nil).status(201)
	disarm(t, sim)
	w.version("wv2", "withheld", "b1", []string{"fetch"}, nil).refused("invalid_argument", 400)
}
