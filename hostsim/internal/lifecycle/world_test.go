package lifecycle_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/datadriven"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/artifact"
	"github.com/takokit/takokit/hostsim/internal/fault"
	"github.com/takokit/takokit/hostsim/internal/lifecycle"
	"github.com/takokit/takokit/hostsim/internal/profile"
	"github.com/takokit/takokit/hostsim/internal/related"
	"github.com/takokit/takokit/hostsim/internal/render"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// The world the order scripts (order_test.go) and the operation tests run
// in: one host's engine over a private store, resources stored as they are,
// and the faults armed.

// world is one host's engine over a private store, and the faults armed.
type world struct {
	t      *testing.T
	cat    *catalog.Catalog
	st     *store.Store
	en     *lifecycle.Engine
	faults []fault.Spec
	file   string          // the database file, "" for the in-memory database
	events []store.Pending // the journal events committed since host
}

func (w *world) close() {
	if w.st != nil {
		w.st.Close()
	}
}

func (w *world) host(name string, data []byte) {
	w.t.Helper()
	w.close()
	var err error
	if w.cat == nil {
		if w.cat, err = catalog.Embedded(); err != nil {
			w.t.Fatal(err)
		}
	}
	var p *profile.Profile
	if data != nil {
		p, err = profile.Parse("order test", data)
	} else {
		p, err = profile.Load(name)
	}
	if err != nil {
		w.t.Fatal(err)
	}
	if w.st, err = store.Open(w.file); err != nil {
		w.t.Fatal(err)
	}
	w.events = nil
	w.st.OnEvents(func(ps []store.Pending) { w.events = append(w.events, ps...) })
	if err := w.st.Extend(artifact.Schema, artifact.Tables...); err != nil {
		w.t.Fatal(err)
	}
	h := profile.Resolve(p, w.cat)
	g := related.New(h)
	clock := func() time.Time { return now }
	w.en = &lifecycle.Engine{Host: h, Related: g, Renderer: &render.Renderer{Host: h, G: g, Now: clock}, Now: clock,
		PrepareLife: 15 * time.Minute, Mint: lifecycle.NewMinter(1)}
	w.faults = nil
}

// form is the Form of kind K (version V, else its first) in the catalog.
func (w *world) form(d *datadriven.TestData) *catalog.Form {
	var kind, version string
	d.ScanArgs(w.t, "kind", &kind)
	d.MaybeScanArgs(w.t, "version", &version)
	for _, f := range w.cat.Forms() {
		if f.Ref.Kind == kind && (version == "" || f.Ref.DefinitionVersion == version) {
			return f
		}
	}
	d.Fatalf(w.t, "the catalog holds no %s %s", kind, version)
	return nil
}

// spec is the input as JSON, else f's first fixture, its numbers decoded as
// the lane decodes them (json.Number).
func (w *world) spec(d *datadriven.TestData, f *catalog.Form) map[string]any {
	raw := []byte(d.Input)
	if strings.TrimSpace(d.Input) == "" {
		raw = f.Fixtures[0].Desired
	}
	var m map[string]any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&m); err != nil {
		d.Fatalf(w.t, "spec: %v", err)
	}
	return m
}

func (w *world) resource(d *datadriven.TestData) string {
	f := w.form(d)
	var name string
	d.ScanArgs(w.t, "name", &name)
	spec, err := wire.CanonicalValue(f.Materialize(w.spec(d, f)))
	if err != nil {
		d.Fatalf(w.t, "%v", err)
	}
	r := &store.Resource{Tenant: tenant, Space: space, APIVersion: f.Ref.APIVersion, Kind: f.Ref.Kind, Name: name,
		UID: "u-" + name, DefVersion: f.Ref.DefinitionVersion, SchemaDigest: f.Ref.SchemaDigest, Generation: 1, Revision: 1,
		Spec: spec, SpecDigest: wire.RawDigest(spec), ReadyStatus: wire.StatusTrue, ReadyReason: wire.ReasonAvailable,
		ReadyLTT: render.NowText(now), CreatedAt: render.NowText(now)}
	d.MaybeScanArgs(w.t, "gen", &r.Generation)
	d.MaybeScanArgs(w.t, "rev", &r.Revision)
	d.MaybeScanArgs(w.t, "uid", &r.UID)
	d.MaybeScanArgs(w.t, "native", &r.NativeID)
	if d.MaybeScanArgs(w.t, "claim", &r.ClaimOp) {
		r.ClaimPath = "/form-transitions/" + r.ClaimOp
	}
	w.write(func(q store.Q) error { return store.InsertResource(q, r) })
	return fmt.Sprintf("%s %q uid %s at generation %d revision %d", r.Kind, r.Name, r.UID, r.Generation, r.Revision)
}

// write runs fn in a write transaction that commits.
func (w *world) write(fn func(q store.Q) error) {
	w.t.Helper()
	if err := w.st.Write(context.Background(), fn); err != nil {
		w.t.Fatal(err)
	}
}

// decided runs fn in a write transaction that rolls back unless keep: a
// decision stores nothing.
func (w *world) decided(keep bool, fn func(q store.Q) error) {
	w.t.Helper()
	err := w.st.Write(context.Background(), func(q store.Q) error {
		if err := fn(q); err != nil {
			return err
		}
		if keep {
			return nil
		}
		return errRolledBack
	})
	if err != nil && !errors.Is(err, errRolledBack) {
		w.t.Fatal(err)
	}
}

var errRolledBack = errors.New("rolled back: a decision stores nothing")

// set is a fault set of the armed faults scoped to the request.
func (w *world) set(kind, name, route string) *fault.Set {
	fs := fault.Fixed(w.faults...)
	fs.Route(route)
	fs.Scope(kind, name)
	return fs
}

// formOf is the first Form of kind in the catalog.
func (w *world) formOf(kind string) *catalog.Form {
	w.t.Helper()
	for _, f := range w.cat.Forms() {
		if f.Ref.Kind == kind {
			return f
		}
	}
	w.t.Fatalf("the catalog holds no %s", kind)
	return nil
}

// stored is the queue named name as stored, or nil.
func (w *world) stored(name string) *store.Resource {
	w.t.Helper()
	f := w.formOf("AtLeastOnceQueue")
	var r *store.Resource
	w.write(func(q store.Q) error {
		var err error
		r, err = store.GetResource(q, tenant, space, f.Ref.APIVersion, f.Ref.Kind, name)
		return err
	})
	return r
}

// storeQueue stores a queue named name with uid and its fixture spec.
func (w *world) storeQueue(name, uid string) {
	w.t.Helper()
	f := w.formOf("AtLeastOnceQueue")
	spec, _ := wire.CanonicalValue(f.Materialize(map[string]any{}))
	w.write(func(q store.Q) error {
		return store.InsertResource(q, &store.Resource{Tenant: tenant, Space: space, APIVersion: f.Ref.APIVersion, Kind: f.Ref.Kind,
			Name: name, UID: uid, DefVersion: f.Ref.DefinitionVersion, SchemaDigest: f.Ref.SchemaDigest, Generation: 1, Revision: 1,
			Spec: spec, SpecDigest: wire.RawDigest(spec), ReadyStatus: wire.StatusTrue, ReadyReason: wire.ReasonAvailable})
	})
}
