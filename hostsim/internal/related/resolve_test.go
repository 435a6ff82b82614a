package related

import (
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/fault"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// queueRef is a reference to the AtLeastOnceQueue name.
func queueRef(name string) map[string]any {
	return map[string]any{"apiVersion": "edge.forms.takokit.dev/v1beta1", "kind": "AtLeastOnceQueue", "name": name}
}

// bindings.unchecked lets a binding entry that fails its checks through, and
// its found target is pinned like any other (the fault fires once).
func TestBindingsUncheckedPinsTheFoundTarget(t *testing.T) {
	w := newWorld(t)
	w.put("AtLeastOnceQueue", "events", "u-events", nil)
	version := w.form("WorkerVersion")
	spec := map[string]any{"queueProducerBindings": []any{map[string]any{"name": "not a binding name", "resource": queueRef("events")}}}
	w.write(func(q store.Q) error {
		if _, e, _ := w.g.Resolve(q, version, tenant, space, spec, nil); e == nil || e.Code != wire.CodeInvalidArgument {
			t.Fatalf("a binding entry failing its checks: %v; want invalid_argument", e)
		}
		fs := fault.Fixed(fault.Spec{Fault: fault.BindingsUnchecked.Name})
		pins, e, err := w.g.Resolve(q, version, tenant, space, spec, fs)
		if err != nil || e != nil || len(pins) != 1 || pins[0].Pointer != "/queueProducerBindings/0/resource" || pins[0].TargetUID != "u-events" || len(fs.Firings()) != 1 {
			t.Fatalf("bindings.unchecked: %+v %v, fired %v; want the entry pinned to u-events and one firing", pins, e, fs.Firings())
		}
		return nil
	})
}

// bindings.unchecked lapses only binding entries: a plain relation naming a
// target of the wrong kind is still refused and the fault does not fire.
func TestBindingsUncheckedLeavesPlainRelationsChecked(t *testing.T) {
	w := newWorld(t)
	w.put("AtLeastOnceQueue", "events", "u-events", nil)
	trigger := w.form("WorkerCronTrigger")
	spec := map[string]any{"worker": queueRef("events")}
	w.write(func(q store.Q) error {
		fs := fault.Fixed(fault.Spec{Fault: fault.BindingsUnchecked.Name})
		pins, e, _ := w.g.Resolve(q, trigger, tenant, space, spec, fs)
		if e == nil || e.Code != wire.CodeInvalidArgument || !strings.Contains(e.Message, "accepts only") || len(fs.Firings()) != 0 {
			t.Fatalf("a worker reference naming a queue under bindings.unchecked: %+v %v, fired %v; want invalid_argument (accepts only) and no firing", pins, e, fs.Firings())
		}
		return nil
	})
}
