package related

import (
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// A deployment weights only versions that render Ready True and are not being
// deleted: a version whose stored Ready is False, one whose own pins drifted
// (stored Ready True, but its bundle is gone) and one with a pending accepted
// delete are each refused at the version's pointer.
func TestDeploymentWeightsOnlyReadyStayingVersions(t *testing.T) {
	w := newWorld(t)
	pins := w.deployed()
	w.write(func(q store.Q) error {
		if e := w.redeploy(q, pins); e != nil {
			t.Fatalf("a ready version: %v; want the deployment accepted", e)
		}
		return nil
	})
	for _, tc := range []struct {
		name   string
		break_ func(w *world)
		want   string
	}{
		{"stored Ready False", func(w *world) {
			w.write(func(q store.Q) error {
				v, _ := store.GetResourceByUID(q, "u-v")
				v.ReadyStatus, v.ReadyReason = wire.StatusFalse, wire.ReasonFailed
				return store.UpdateResource(q, v)
			})
		}, "is not Ready=True"},
		{"drifted", func(w *world) {
			w.write(func(q store.Q) error {
				v, _ := store.GetResourceByUID(q, "u-v")
				v.Pins = 2
				return store.ReplacePins(q, "u-v", []store.Pin{w.pinTo("/worker", "/worker", "ModuleWorker", "module-worker", "u-w"),
					w.pinTo("/bundle", "/bundle", "WorkerBundle", "worker-bundle", "u-bundle-gone")}, true)
			})
		}, "is not Ready=True"},
		{"pending delete", func(w *world) {
			w.write(func(q store.Q) error {
				return store.InsertOperation(q, &store.Operation{ID: "op-del", Tenant: tenant, Action: "delete", Kind: "WorkerVersion", Name: "v1", TargetUID: "u-v", Request: []byte("{}"), Doc: []byte("{}")})
			})
		}, "is being deleted"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t)
			pins := w.deployed()
			tc.break_(w)
			w.write(func(q store.Q) error {
				if e := w.redeploy(q, pins); e == nil || e.Code != wire.CodeInvalidArgument || !strings.Contains(e.Message, `/versions/0/workerVersion: version "v1" (uid u-v) `+tc.want) {
					t.Fatalf("%s: %v; want invalid_argument at /versions/0/workerVersion: %s", tc.name, e, tc.want)
				}
				return nil
			})
		})
	}
}

// A worker whose deployment weights a version removed out of band renders
// Ready False: the missing version declares no handler, so nothing serves fetch.
func TestWorkerReadinessWithAVersionGoneOutOfBand(t *testing.T) {
	w := newWorld(t)
	worker := w.put("ModuleWorker", "module-worker", "u-w", nil)
	w.deployment("u-v-gone")
	w.write(func(q store.Q) error {
		rd, err := w.g.ReadyOf(q, worker, nil, nil)
		if err != nil || rd.Status != wire.StatusFalse || rd.Reason != "UnsupportedCapability" || !strings.Contains(rd.Message, `weights version(s) "v1"`) {
			t.Fatalf("a weighted version gone: %+v %v; want Ready False UnsupportedCapability naming v1", rd, err)
		}
		return nil
	})
}

// An attachment whose pinned worker uid is gone has no active deployment to
// serve it: refused unsupported_capability at /worker.
func TestAttachmentToAWorkerGone(t *testing.T) {
	w := newWorld(t)
	m, _ := w.mutation("WorkerCronTrigger", "nightly")
	pins := []store.Pin{w.pinTo("/worker", "/worker", "ModuleWorker", "module-worker", "u-w-gone")}
	w.write(func(q store.Q) error {
		e := w.g.attachmentRules(q, m, roles.attachment("WorkerCronTrigger"), pins, "", nil)
		if e == nil || e.Code != wire.CodeUnsupportedCapability || !strings.Contains(e.Message, `worker "module-worker" has no active deployment`) {
			t.Fatalf("the worker gone: %v; want unsupported_capability: no active deployment", e)
		}
		return nil
	})
}
