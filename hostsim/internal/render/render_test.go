package render

import (
	"database/sql"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/fault"
	"github.com/takokit/takokit/hostsim/internal/profile"
	"github.com/takokit/takokit/hostsim/internal/related"
	"github.com/takokit/takokit/hostsim/internal/store"
)

var renderNow = time.Date(2026, 2, 3, 4, 5, 6, 700, time.UTC)

// renderer renders for host h at the fixed time renderNow.
func renderer(h *profile.Host) *Renderer {
	return &Renderer{Host: h, G: related.New(h), Now: func() time.Time { return renderNow }}
}

// stored is a resource of kind at version as the store holds it: Ready True
// Available since 2026-01-01, no pins, no claim, not imported.
func stored(t *testing.T, h *profile.Host, kind, version string) *store.Resource {
	t.Helper()
	f := installed(t, h, kind, version)
	return &store.Resource{Tenant: "tenant-a", Space: "prod", APIVersion: f.Ref.APIVersion, Kind: kind, Name: "r-1", UID: "u-1",
		DefVersion: f.Ref.DefinitionVersion, SchemaDigest: f.Ref.SchemaDigest, Generation: 1, Revision: 1, Spec: []byte(`{}`),
		ReadyStatus: wire.StatusTrue, ReadyReason: wire.ReasonAvailable, ReadyLTT: "2026-01-01T00:00:00Z"}
}

func render(t *testing.T, x *Renderer, q store.Q, r *store.Resource, fs *fault.Set) *Representation {
	t.Helper()
	rep, err := x.Render(q, r, nil, fs)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// Ready's lastTransitionTime stays where it was while the rendered status is
// the stored one, and is the render time once it differs (a stored False
// whose cause cleared renders True Available).
func TestReadyTransitionTimeMovesOnlyWithTheStatus(t *testing.T) {
	h := embedded(t)
	x := renderer(h)
	r := stored(t, h, "EdgeKVNamespace", "0.1.0")
	if c := render(t, x, nil, r, nil).Status.Conditions[0]; c.Status != wire.StatusTrue || c.LastTransitionTime != "2026-01-01T00:00:00Z" {
		t.Fatalf("an unchanged Ready: %+v; want True since 2026-01-01T00:00:00Z", c)
	}
	r.ReadyStatus, r.ReadyReason = wire.StatusFalse, wire.ReasonDependencyMissing
	if c := render(t, x, nil, r, nil).Status.Conditions[0]; c.Status != wire.StatusTrue || c.LastTransitionTime != "2026-02-03T04:05:06Z" {
		t.Fatalf("a stored False rendered True: %+v; want True since the render time 2026-02-03T04:05:06Z", c)
	}
}

// import.echo-native names the native object in the Ready message of an
// imported resource only: a resource without a nativeId keeps its message
// and the fault does not fire for it.
func TestImportEchoNativeOnlyOnAnImportedResource(t *testing.T) {
	h := embedded(t)
	x := renderer(h)
	r := stored(t, h, "EdgeKVNamespace", "0.1.0")
	fs := fault.Fixed(fault.Spec{Fault: fault.ImportEchoNative.Name})
	if c := render(t, x, nil, r, fs).Status.Conditions[0]; c.Message != "" || len(fs.Firings()) != 0 {
		t.Fatalf("a resource created here: message %q, fired %v; want no message, no firing", c.Message, fs.Firings())
	}
	r.NativeID = "kv-0042"
	if c := render(t, x, nil, r, fs).Status.Conditions[0]; c.Message != "adopted native object kv-0042" || len(fs.Firings()) != 1 {
		t.Fatalf("an imported resource: message %q, fired %v; want the nativeId named, one firing", c.Message, fs.Firings())
	}
}

// A resource a Form transition holds carries a Reconciling condition after
// Ready naming the transition and where its outcome is; any other carries
// Ready alone.
func TestReconcilingConditionOnlyUnderATransitionClaim(t *testing.T) {
	h := embedded(t)
	x := renderer(h)
	r := stored(t, h, "EdgeKVNamespace", "0.1.0")
	if cs := render(t, x, nil, r, nil).Status.Conditions; len(cs) != 1 || cs[0].Type != wire.ConditionReady {
		t.Fatalf("an unclaimed resource: conditions %+v; want Ready alone", cs)
	}
	r.ClaimOp, r.ClaimSince, r.ClaimPath = "op-7", "2026-01-05T00:00:00Z", "/v1/transitions/op-7"
	cs := render(t, x, nil, r, nil).Status.Conditions
	want := Condition{Type: wire.ConditionReconciling, Status: wire.StatusTrue, Reason: wire.ReasonReconciling,
		LastTransitionTime: "2026-01-05T00:00:00Z", HostReason: "form-transition",
		Message: "Form transition op-7 holds this resource; its outcome is at /v1/transitions/op-7"}
	if len(cs) != 2 || cs[0].Type != wire.ConditionReady || cs[1] != want {
		t.Fatalf("a claimed resource: conditions %+v; want Ready then %+v", cs, want)
	}
}

// brokenQ is a store whose every statement fails.
type brokenQ struct{}

var errBroken = errors.New("the store is gone")

func (brokenQ) Exec(string, ...any) (sql.Result, error) { return nil, errBroken }
func (brokenQ) Query(string, ...any) (*sql.Rows, error) { return nil, errBroken }
func (brokenQ) QueryRow(string, ...any) *sql.Row        { panic("QueryRow on a broken store") }

// A store error while deriving Ready (the pins cannot be read) is the
// render's error: nothing is served with a Ready it could not compute.
func TestRenderFailsWhenReadyCannotBeDerived(t *testing.T) {
	h := embedded(t)
	r := stored(t, h, "EdgeKVNamespace", "0.1.0")
	r.Pins = 1
	if rep, err := renderer(h).Render(brokenQ{}, r, nil, nil); !errors.Is(err, errBroken) || rep != nil {
		t.Fatalf("pins unreadable: %v, %v; want the store's error and no representation", rep, err)
	}
}

// Outputs the outputSchema refuses (a domain with upper case makes an
// invalid hostname) fail the render, never served.
func TestRenderFailsOnOutputsTheSchemaRefuses(t *testing.T) {
	h := embedded(t)
	p := *h.P
	p.Endpoints = &profile.Endpoints{Domain: "Upper.Case"}
	bad := *h
	bad.P = &p
	rep, err := renderer(&bad).Render(nil, stored(t, h, "WorkerEndpoint", "0.2.0"), nil, nil)
	if err == nil || rep != nil || !strings.Contains(err.Error(), "cannot assign outputs of WorkerEndpoint 0.2.0") {
		t.Fatalf("outputs under domain Upper.Case: %v, %v; want the outputSchema's refusal", rep, err)
	}
}
