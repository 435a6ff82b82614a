package related

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/decide"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// internalFrom reports whether e is the internal_error of the failure failQ injected.
func internalFrom(e *wire.Error) bool {
	return e != nil && e.Code == wire.CodeInternalError && (strings.Contains(e.Message, errStoreFailed.Error()) || strings.Contains(e.Message, goneTable))
}

// A store query failing anywhere in the aggregate rules — even after others
// worked — is an internal_error naming the failure, never read as "nothing
// there": the rule would otherwise decide on half the facts.
func TestAggregateRulesSurfaceStoreErrors(t *testing.T) {
	for _, tc := range []struct {
		name, stmt, arg string
		nth             int
		run             func(w *world, q store.Q, pins []store.Pin) *wire.Error
	}{
		{"deployment: the worker's pin holders", sqlPinsTo, "u-w", 1, redeployWith},
		{"deployment: a weighted version's pins", sqlPinsOf, "u-v", 1, redeployWith},
		{"deployment: a weighted version's drift", sqlByName, "module-worker", 1, redeployWith},
		{"deployment: a weighted version's pending delete", sqlPendingDel, "u-v", 1, redeployWith},
		{"deployment: the worker's dependents", sqlPinsTo, "u-w", 2, redeployWith},
		{"attachment: the worker", sqlByUID, "u-w", 1, attachWith},
		{"attachment: the worker's active deployment", sqlPinsTo, "u-w", 1, attachWith},
		{"delete of a deployment: its pins", sqlPinsOf, "u-d", 1, func(w *world, q store.Q, _ []store.Pin) *wire.Error {
			d, _ := store.GetResourceByUID(q, "u-d")
			return w.g.DeleteScans(q, d, false, nil)
		}},
		{"delete of a deployment: the worker's dependents", sqlPinsTo, "u-w", 1, func(w *world, q store.Q, _ []store.Pin) *wire.Error {
			d, _ := store.GetResourceByUID(q, "u-d")
			return w.g.DeleteScans(q, d, false, nil)
		}},
		{"delete of a worker: who pins it", sqlByUID, "u-v", 1, func(w *world, q store.Q, _ []store.Pin) *wire.Error {
			wk, _ := store.GetResourceByUID(q, "u-w")
			return w.g.DeleteScans(q, wk, false, nil)
		}},
		{"resolve: the target", sqlByName, "module-worker", 1, func(w *world, q store.Q, _ []store.Pin) *wire.Error {
			f := w.form("WorkerCronTrigger")
			var spec map[string]any
			_ = json.Unmarshal(f.Fixtures[0].Desired, &spec)
			// the store failing comes back as err, never as a refusal (a
			// decision a caller could act on as "the reference is gone")
			_, e, err := w.g.Resolve(q, f, tenant, space, spec, nil)
			if e != nil {
				return wire.NewError(wire.CodeInvalidArgument, "Resolve answered a refusal where the store failed: "+e.Message)
			}
			return decide.Internal(err)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t)
			pins := w.deployed()
			var e *wire.Error
			f := w.failing(tc.stmt, tc.arg, tc.nth, func(q store.Q) { e = tc.run(w, q, pins) })
			if !f.fired || !internalFrom(e) {
				t.Fatalf("the store failing (fired %v): %v; want internal_error naming the failure", f.fired, e)
			}
		})
	}
}

func redeployWith(w *world, q store.Q, pins []store.Pin) *wire.Error { return w.redeploy(q, pins) }

func attachWith(w *world, q store.Q, _ []store.Pin) *wire.Error {
	m, _ := w.mutation("WorkerCronTrigger", "nightly")
	pins := []store.Pin{w.pinTo("/worker", "/worker", "ModuleWorker", "module-worker", "u-w")}
	return w.g.attachmentRules(q, m, roles.attachment("WorkerCronTrigger"), pins, "", nil)
}

// A store query failing while Ready is derived (a resource's pins, a worker's
// deployment and what it weights) or while the recompute pass stores a
// changed Ready is the caller's error, never a Ready computed without it.
func TestReadySurfacesStoreErrors(t *testing.T) {
	ready := func(uid string) func(w *world, q store.Q) error {
		return func(w *world, q store.Q) error {
			r, _ := store.GetResourceByUID(q, uid)
			_, err := w.g.ReadyOf(q, r, nil, nil)
			return err
		}
	}
	for _, tc := range []struct {
		name, stmt, arg string
		run             func(w *world, q store.Q) error
	}{
		{"a source's pins", sqlPinsOf, "u-trigger", ready("u-trigger")},
		{"the worker's deployment's pins", sqlPinsOf, "u-d", ready("u-w")},
		{"the worker's weighted version's pins", sqlPinsOf, "u-v", ready("u-w")},
		{"the recompute pass storing a changed Ready", sqlUpdateResRow, "u-trigger", func(w *world, q store.Q) error {
			return w.g.Recompute(q, tenant, space, "edge.forms.takokit.dev/v1beta1", "ModuleWorker", "module-worker", "", "t1", nil)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t)
			w.deployed()
			w.put("WorkerCronTrigger", "nightly", "u-trigger", nil, w.pinTo("/worker", "/worker", "ModuleWorker", "module-worker", "u-w-old"))
			var err error
			f := w.failing(tc.stmt, tc.arg, 1, func(q store.Q) { err = tc.run(w, q) })
			if !f.fired || !storeFailed(err) {
				t.Fatalf("the store failing (fired %v): %v; want the store's error", f.fired, err)
			}
		})
	}
}
