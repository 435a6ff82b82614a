// Package hostview holds a running host as typed Go values, read from one
// place (docs/protocol.md#admin): its counters, resources with their served
// representation and pins, operations, the Form-transition ledger and
// backend, armed faults and the fault table, the profile and what it refuses,
// the journal, the SQLite databases and static-asset lookups — and the two
// things the admin API does to a host (reset, settle an operation). The admin
// API's JSON handlers and the dashboard read it; so can any other view of a
// host (Host.State). Reading it never fires a fault.
package hostview

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/fault"
	"github.com/takokit/takokit/hostsim/internal/journal"
	"github.com/takokit/takokit/hostsim/internal/lifecycle"
	"github.com/takokit/takokit/hostsim/internal/profile"
	"github.com/takokit/takokit/hostsim/internal/render"
	"github.com/takokit/takokit/hostsim/internal/sqldb"
	"github.com/takokit/takokit/hostsim/internal/store"
	"github.com/takokit/takokit/hostsim/internal/transition"
	"github.com/takokit/takokit/hostsim/internal/transition/backend"
)

// Source is what the state is read from: one host's parts.
type Source struct {
	Store    *store.Store
	Host     *profile.Host
	Armory   *fault.Armory
	Journal  *journal.Journal
	Renderer *render.Renderer
	Engine   *lifecycle.Engine
	Ledger   *transition.Service // nil: no Form transitions served
	Now      func() time.Time
	// DBs are the real databases of the SQLiteDatabase resources.
	DBs *sqldb.Registry
}

// Counters are the host's counters since start or the last reset.
type Counters struct {
	Requests     int64            `json:"requests"`     // requests to the Takoform API (admin routes not counted)
	Mutations    int64            `json:"mutations"`    // requests that changed stored state
	Uploads      int64            `json:"uploads"`      // artifact requests that succeeded
	SupportReads int64            `json:"supportReads"` // requests to the support routes
	Dispatch     map[string]int64 `json:"dispatch"`     // per Form transition operation: backend calls made
	// Fired counts firings per fault (NAME, or NAME=VALUE when armed with a
	// value); each is written with the write the firing shaped, so it
	// outlives the fault's disarming and a restart on a --db file.
	Fired map[string]int64 `json:"fired"`
}

// Counters reads the counters (the journal is flushed first, so every
// request answered so far is counted).
func (s *Source) Counters(ctx context.Context) (*Counters, error) {
	s.Journal.Flush()
	var c map[string]int64
	err := s.Store.Read(ctx, func(q store.Q) error {
		var err error
		c, err = store.CounterValues(q)
		return err
	})
	if err != nil {
		return nil, err
	}
	out := &Counters{Requests: c["requests"], Mutations: c["mutations"], Uploads: c["uploads"],
		SupportReads: c["supportReads"], Dispatch: map[string]int64{}, Fired: map[string]int64{}}
	for k, v := range c {
		if id, ok := strings.CutPrefix(k, "dispatch:"); ok {
			out.Dispatch[id] = v
		}
		if f, ok := strings.CutPrefix(k, fault.FiredCounter); ok {
			out.Fired[f] = v
		}
	}
	return out, nil
}

// Resource is one stored resource as the admin sees it.
type Resource struct {
	Tenant, Space, APIVersion, Kind, Name string
	DefinitionVersion, SchemaDigest, UID  string
	Generation, Revision                  int64
	// Claim is the Form transition holding the resource ("" = none);
	// LastTransition the last one that advanced it.
	Claim, LastTransition string
	NativeClaimed         bool
	// Served is the representation the lane serves now (Ready with derived
	// rendering, conditions, typed outputs), rendered without faults.
	Served *render.Representation
	// Pins are the relation pins the resource holds.
	Pins []store.Pin
}

// Ready is the served Ready condition.
func (r *Resource) Ready() render.Condition {
	for _, c := range r.Served.Status.Conditions {
		if c.Type == wire.ConditionReady {
			return c
		}
	}
	return render.Condition{}
}

// Outputs are the served typed outputs (nil for a Form that declares none).
func (r *Resource) Outputs() map[string]any {
	var out map[string]any
	if len(r.Served.Status.Outputs) > 0 {
		_ = json.Unmarshal(r.Served.Status.Outputs, &out)
	}
	return out
}

// Resources lists every stored resource by tenant, space, group, kind and name.
func (s *Source) Resources(ctx context.Context) ([]Resource, error) {
	var out []Resource
	err := s.Store.Read(ctx, func(q store.Q) error {
		rows, err := store.ListResources(q)
		if err != nil {
			return err
		}
		out = make([]Resource, 0, len(rows))
		for _, r := range rows {
			x, err := s.resource(q, r)
			if err != nil {
				return err
			}
			out = append(out, *x)
		}
		return nil
	})
	return out, err
}

// Resource is one resource of a tenant, or nil when nothing holds the name.
func (s *Source) Resource(ctx context.Context, tenant, space, apiVersion, kind, name string) (*Resource, error) {
	var out *Resource
	err := s.Store.Read(ctx, func(q store.Q) error {
		r, err := store.GetResource(q, tenant, space, apiVersion, kind, name)
		if err != nil || r == nil {
			return err
		}
		out, err = s.resource(q, r)
		return err
	})
	return out, err
}

func (s *Source) resource(q store.Q, r *store.Resource) (*Resource, error) {
	pins, err := store.PinsOf(q, r.UID)
	if err != nil {
		return nil, err
	}
	served, err := s.Renderer.Render(q, r, pins, nil)
	if err != nil {
		return nil, err
	}
	return &Resource{Tenant: r.Tenant, Space: r.Space, APIVersion: r.APIVersion, Kind: r.Kind, Name: r.Name,
		DefinitionVersion: r.DefVersion, SchemaDigest: r.SchemaDigest, UID: r.UID, Generation: r.Generation,
		Revision: r.Revision, Claim: r.ClaimOp, LastTransition: r.LastTransition, NativeClaimed: r.NativeID != "",
		Served: served, Pins: pins}, nil
}

// Operation is one long-running operation of the lane.
type Operation struct {
	ID, Tenant, Principal string
	Action, Kind, Name    string
	TargetUID             string
	Done                  bool
	Polls                 int64
	CompleteAfter         int64           // polls until it settles; < 0: only through Complete
	Document              json.RawMessage // the Operation document as served
}

// Operations lists every operation, oldest first (pending ones have Done false).
func (s *Source) Operations(ctx context.Context) ([]Operation, error) {
	var out []Operation
	err := s.Store.Read(ctx, func(q store.Q) error {
		ops, err := store.ListOperations(q)
		if err != nil {
			return err
		}
		out = make([]Operation, 0, len(ops))
		for _, o := range ops {
			out = append(out, Operation{ID: o.ID, Tenant: o.Tenant, Principal: o.Principal, Action: o.Action, Kind: o.Kind,
				Name: o.Name, TargetUID: o.TargetUID, Done: o.Done, Polls: o.Polls, CompleteAfter: o.CompleteAfter, Document: o.Doc})
		}
		return nil
	})
	return out, err
}

// Complete finishes a pending operation now: it commits, or fails with code
// when code is not empty (an unknown id is operation_not_found). It returns
// the Operation document.
func (s *Source) Complete(ctx context.Context, id string, code wire.Code) ([]byte, error) {
	return s.Engine.Complete(ctx, s.Store, s.Armory, id, code)
}

// Transitions is the Form transition ledger and the simulated backend.
func (s *Source) Transitions(ctx context.Context) (*transition.State, error) {
	out := &transition.State{Transitions: []transition.OpState{}, Backend: []backend.Object{},
		BackendLedger: []backend.Record{}}
	if s.Ledger == nil {
		return out, nil
	}
	err := s.Store.Read(ctx, func(q store.Q) error {
		st, err := s.Ledger.State(q, s.Now())
		if err == nil {
			out = st
		}
		return err
	})
	return out, err
}

// Faults are the armed faults with their fired counts, profile ones first.
func (s *Source) Faults() ([]fault.Armed, error) { return s.Armory.List() }

// FaultTable is every fault hostsim knows, with its effect.
func FaultTable() []*fault.Rule { return append([]*fault.Rule(nil), fault.Table...) }

// Profile is the merged profile in force.
func (s *Source) Profile() *profile.Profile { return s.Host.P }

// Events returns up to limit journal events after the sequence number after
// (see journal.Journal.Since); Subscribe wakes a reader when there may be more.
// Every event is in the journal by the time its request is answered.
func (s *Source) Events(ctx context.Context, after int64, limit int) ([]journal.Event, error) {
	return s.Journal.Since(ctx, after, limit)
}

// Subscribe is journal.Journal.Subscribe: a wake-up channel and its cancel.
func (s *Source) Subscribe() (<-chan struct{}, func()) { return s.Journal.Subscribe() }

// Reset empties every table of protocol state, disarms run-time faults and
// re-arms the profile's (POST /_sim/reset); the catalog and profile stay.
func (s *Source) Reset(ctx context.Context) error {
	s.Journal.Flush()
	if err := s.Armory.Reset(ctx, s.Store.ResetTables); err != nil {
		return err
	}
	s.Journal.Clear()
	return s.DBs.DropAll()
}
