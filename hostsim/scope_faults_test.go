package hostsim_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/takokit/takokit/hostsim"
	"github.com/takokit/takokit/hostsim/hostsimtest"
)

// The strict JSON, error and SpaceID faults each let through exactly what
// their rule refuses, and the rule holds again once disarmed.
func TestStrictJSONAndErrorFaults(t *testing.T) {
	cat := testCatalog(t)
	f := updatable(t, cat)
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat})
	c := newClient(t, sim.URL, "sim-primary")
	spec := fixture(t, f)
	validate := func(b []byte) *reply { return c.do("POST", api+"/resources/validate", nil, b) }
	plain := string(body(f, "js", "prod", spec, nil))
	for _, tc := range []struct{ fault, doc string }{
		{"json.duplicates", strings.Replace(plain, `{`, `{"\u006bind":"X",`, 1)},
		{"json.unknown-members", strings.Replace(plain, `{`, `{"status":{},`, 1)},
		{"space.lenient", string(body(f, "js", " leading", spec, nil))},
	} {
		t.Run(tc.fault, func(t *testing.T) {
			validate([]byte(tc.doc)).refused("invalid_argument", 400)
			arm(t, sim, tc.fault)
			validate([]byte(tc.doc)).status(200)
			disarm(t, sim)
			validate([]byte(tc.doc)).refused("invalid_argument", 400)
		})
	}
	t.Run("errors.request-id-fixed", func(t *testing.T) {
		ids := func() [2]string {
			var out [2]string
			for i := range out {
				var env struct{ Error struct{ RequestID string } }
				_ = json.Unmarshal(c.do("GET", api+"/nowhere", nil, nil).refused("resource_not_found", 404).body, &env)
				out[i] = env.Error.RequestID
			}
			return out
		}
		arm(t, sim, "errors.request-id-fixed")
		if got := ids(); got[0] != got[1] || got[0] != "req_00000000000000000000" {
			t.Fatalf("errors.request-id-fixed: two error answers carry requestIds %q", got)
		}
		disarm(t, sim)
		if got := ids(); got[0] == got[1] || !strings.HasPrefix(got[0], "req_") {
			t.Fatalf("disarmed, two error answers carry requestIds %q", got)
		}
	})
	t.Run("errors.retryable-wrong", func(t *testing.T) {
		retryable := func() bool {
			var env struct{ Error struct{ Retryable bool } }
			_ = json.Unmarshal(c.do("GET", api+"/nowhere", nil, nil).refused("resource_not_found", 404).body, &env)
			return env.Error.Retryable
		}
		arm(t, sim, "errors.retryable-wrong")
		if !retryable() {
			t.Fatalf("errors.retryable-wrong kept resource_not_found not retryable")
		}
		disarm(t, sim)
		if retryable() {
			t.Fatalf("disarmed, resource_not_found is still retryable")
		}
	})
}

// The tenancy faults merge what tenants must keep apart.
func TestTenancyFaults(t *testing.T) {
	cat := testCatalog(t)
	f := updatable(t, cat)
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat})
	c := newClient(t, sim.URL, "sim-primary")
	other := newClient(t, sim.URL, "sim-other-tenant")
	spec := fixture(t, f)
	c.create(f, "mine", "prod", spec).status(201)
	t.Run("tenant.ignore", func(t *testing.T) {
		other.read(f, "mine", "prod").refused("resource_not_found", 404)
		arm(t, sim, "tenant.ignore")
		other.read(f, "mine", "prod").status(200)
		disarm(t, sim)
		other.read(f, "mine", "prod").refused("resource_not_found", 404)
	})
	t.Run("prepare.host-wide", func(t *testing.T) {
		spend := func(name string) *reply {
			pd := c.prepare(f, name, "prod", spec, 0)
			return other.do("PUT", resPath(f, name), map[string]string{"If-None-Match": "*", "Idempotency-Key": newKey()},
				body(f, name, "prod", spec, map[string]any{"review": map[string]any{"prepareDigest": pd}}))
		}
		arm(t, sim, "prepare.host-wide")
		spend("pa").status(201)
		disarm(t, sim)
		spend("pb").refused("invalid_argument", 400)
	})
}

// The operation faults: shared, uncancellable and unstable Operations.
func TestOperationFaults(t *testing.T) {
	cat := testCatalog(t)
	f := updatable(t, cat)
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat, ConformanceProbes: true})
	c := newClient(t, sim.URL, "sim-primary")
	alt := newClient(t, sim.URL, "sim-alternate")
	spec := fixture(t, f)
	async := func(name string) opDoc {
		pd := c.prepare(f, name, "prod", spec, 0)
		h := map[string]string{"If-None-Match": "*", "Idempotency-Key": newKey(), "Takoform-Conformance-Probe": "async"}
		return accepted(t, c.do("PUT", resPath(f, name), h, body(f, name, "prod", spec, map[string]any{"review": map[string]any{"prepareDigest": pd}})))
	}
	t.Run("operation.tenant-wide", func(t *testing.T) {
		op := async("ot")
		alt.do("GET", api+"/operations/"+op.ID, nil, nil).refused("operation_not_found", 404)
		arm(t, sim, "operation.tenant-wide")
		alt.do("GET", api+"/operations/"+op.ID, nil, nil).status(200)
		disarm(t, sim)
		alt.do("GET", api+"/operations/"+op.ID, nil, nil).refused("operation_not_found", 404)
	})
	cancel := func(id string) opDoc {
		var d opDoc
		_ = json.Unmarshal(c.do("POST", api+"/operations/"+id+"/cancel", map[string]string{"Idempotency-Key": newKey()}, nil).status(200).body, &d)
		return d
	}
	t.Run("operation.uncancellable", func(t *testing.T) {
		arm(t, sim, "operation.uncancellable")
		if d := cancel(async("oc").ID); d.Metadata.Phase != "Succeeded" {
			t.Fatalf("operation.uncancellable: the cancel answered phase %s", d.Metadata.Phase)
		}
		c.read(f, "oc", "prod").status(200)
		disarm(t, sim)
		if d := cancel(async("od").ID); d.Error == nil || d.Error.Code != "operation_cancelled" {
			t.Fatalf("disarmed, the cancel answered %+v", d)
		}
		c.read(f, "od", "prod").refused("resource_not_found", 404)
	})
	t.Run("operation.unstable", func(t *testing.T) {
		op := async("ou")
		for d, _ := poll(t, c, op.ID); !d.Done; d, _ = poll(t, c, op.ID) {
		}
		_, first := poll(t, c, op.ID)
		arm(t, sim, "operation.unstable")
		_, later := poll(t, c, op.ID)
		var a, b any
		_ = json.Unmarshal(first.body, &a)
		_ = json.Unmarshal(later.body, &b)
		if bytes.Equal(first.body, later.body) || marshalT(a) != marshalT(b) {
			t.Fatalf("operation.unstable: want the same value in other bytes, got %s then %s", first.body, later.body)
		}
		disarm(t, sim)
		if _, again := poll(t, c, op.ID); !bytes.Equal(first.body, again.body) {
			t.Fatalf("disarmed, the terminal operation answered %s, not %s", again.body, first.body)
		}
	})
}

// The uid, nativeId, space and FormRef-collapse faults.
func TestIdentityLeakFaults(t *testing.T) {
	cat := testCatalog(t)
	f := updatable(t, cat)
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat})
	c := newClient(t, sim.URL, "sim-primary")
	spec := fixture(t, f)
	c.create(f, "home", "prod", spec).status(201)
	broken(t, sim, "space.ignore",
		func() { c.read(f, "home", "staging").refused("resource_not_found", 404) },
		func() { c.read(f, "home", "staging").status(200) })
	n := 0
	uid := func() string {
		n++
		u, _, _ := meta(t, c.create(f, "uid"+string(rune('a'+n)), "prod", spec).status(201))
		return u
	}
	broken(t, sim, "uid.invalid", func() {
		if u := uid(); strings.HasPrefix(u, "-") {
			t.Fatalf("uid %s breaks the uid grammar", u)
		}
	}, func() {
		if u := uid(); !strings.HasPrefix(u, "-") {
			t.Fatalf("uid.invalid minted the valid uid %s", u)
		}
	})
	c.do("POST", resPath(f, "adopted")+"/import", map[string]string{"If-None-Match": "*", "Idempotency-Key": newKey()},
		body(f, "adopted", "prod", spec, map[string]any{"nativeId": "native-secret-7"})).status(201)
	broken(t, sim, "import.echo-native", func() {
		if contains(c.read(f, "adopted", "prod").status(200).body, "native-secret-7") {
			t.Fatalf("the nativeId is echoed")
		}
	}, func() {
		if !contains(c.read(f, "adopted", "prod").status(200).body, "native-secret-7") {
			t.Fatalf("import.echo-native did not echo the nativeId")
		}
	})
	kind, ok := cat.Kind(f.Ref.APIVersion, f.Ref.Kind)
	if !ok || len(kind.Versions) < 2 {
		t.Skipf("%s has one version; formref.collapse has nothing to collapse", f.Ref.Kind)
	}
	old := kind.Versions[0]
	answered := func() string {
		r := c.do("GET", api+"/forms"+exactQuery(old, "prod"), nil, nil).status(200)
		var fr struct {
			Forms []struct {
				Identity struct {
					FormRef struct{ DefinitionVersion string }
				}
			}
		}
		_ = json.Unmarshal(r.body, &fr)
		return fr.Forms[0].Identity.FormRef.DefinitionVersion
	}
	// the definition read collapses too: it answers the newest version's identity
	defined := func() string {
		r := c.do("GET", api+"/form-definitions/"+old.Ref.APIVersion+"/"+old.Ref.Kind+exactQuery(old, "prod"), nil, nil).status(200)
		var d struct {
			Identity struct {
				FormRef struct{ DefinitionVersion string }
			}
		}
		_ = json.Unmarshal(r.body, &d)
		return d.Identity.FormRef.DefinitionVersion
	}
	broken(t, sim, "formref.collapse", func() {
		if v, d := answered(), defined(); v != old.Ref.DefinitionVersion || d != old.Ref.DefinitionVersion {
			t.Fatalf("forms of %s answered version %s, its definition %s", old.Ref, v, d)
		}
	}, func() {
		if v, d := answered(), defined(); v == old.Ref.DefinitionVersion || d == old.Ref.DefinitionVersion {
			t.Fatalf("formref.collapse still answered %s, its definition %s", v, d)
		}
	})
}
