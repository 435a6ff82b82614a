package related

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/decide"
	"github.com/takokit/takokit/hostsim/internal/fault"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// claiming runs the hostname claims of a kind's fixture spec as a mutation of
// name in space prod; curUID is the incarnation being changed.
func (w *world) claiming(q store.Q, kind, name, curUID string, fs *fault.Set) *wire.Error {
	f := w.form(kind)
	var spec map[string]any
	_ = json.Unmarshal(f.Fixtures[0].Desired, &spec)
	m := &decide.Mutation{Tenant: tenant, Space: space, Ref: f.Ref, Name: name, Spec: spec}
	return w.g.hostnameClaims(q, f, m, &decide.Gated{Form: f, Spec: spec}, curUID, fs)
}

// The tenant-wide hostname claim: a resource changing keeps its own hostname,
// a new one is refused the hostname another holds in its space even with
// hostname.space-scoped armed (which passes over other spaces only, firing
// once for each resource it passes over), and a mutation claiming no
// hostname looks at nothing and fires nothing.
func TestHostnameClaimsSkipOnlyItselfAndOtherSpaces(t *testing.T) {
	w := newWorld(t)
	w.insertIn("staging", "ModuleWorker", "module-worker", "u-worker-s")
	w.insertIn("staging", "WorkerCustomDomain", "shop-domain", "u-domain-s")
	w.insert("ModuleWorker", "module-worker", "u-worker-1")
	w.insert("WorkerCustomDomain", "shop-domain", "u-domain-1")
	scoped := func() *fault.Set { return fault.Fixed(fault.Spec{Fault: fault.HostnameSpaceScoped.Name}) }
	one := []string{fault.HostnameSpaceScoped.Name}
	w.write(func(q store.Q) error {
		fs := scoped()
		if e := w.claiming(q, "WorkerCustomDomain", "shop-domain", "u-domain-1", fs); e != nil || !reflect.DeepEqual(fs.Firings(), one) {
			t.Errorf("the holder keeps its hostname (staging passed over): %v, fired %v; want no refusal, one firing", e, fs.Firings())
		}
		fs = scoped()
		if e := w.claiming(q, "WorkerCustomDomain", "other-domain", "", fs); e == nil ||
			!strings.Contains(e.Message, `WorkerCustomDomain "shop-domain" in space "prod"`) {
			t.Errorf("a second domain in prod under hostname.space-scoped: %v; want the hostname refused as held by the prod domain", e)
		}
		fs = scoped()
		if e := w.claiming(q, "WorkerCronTrigger", "nightly", "", fs); e != nil || len(fs.Firings()) != 0 {
			t.Errorf("a mutation claiming no hostname: %v, fired %v; want nothing", e, fs.Firings())
		}
		return nil
	})
}
