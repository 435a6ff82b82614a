package fault

import (
	"context"
	"encoding/json"
	"sync"
	"sync/atomic"
	"time"

	"github.com/takokit/takokit/hostsim/internal/store"
)

// Armed is one fault in force as /_sim/faults lists it.
type Armed struct {
	Source string // profile | runtime
	Spec   Spec
	Fired  int64
}

// MarshalJSON renders the fault object plus source and fired count.
func (a Armed) MarshalJSON() ([]byte, error) {
	type out struct {
		Spec
		Source string `json:"source"`
		Fired  int64  `json:"fired"`
	}
	return json.Marshal(out{Spec: a.Spec, Source: a.Source, Fired: a.Fired})
}

// armed is one row of the faults table as requests see it. remaining counts
// the firings left (< 0: always); it is spent in memory the moment a request
// fires it, so two concurrent requests never spend one count twice, and the
// row is updated in the firing request's own transaction.
type armed struct {
	id        int64
	rule      *Rule
	spec      Spec
	remaining atomic.Int64
}

// spend takes one firing; false when the count is used up.
func (a *armed) spend() bool {
	for {
		n := a.remaining.Load()
		switch {
		case n < 0:
			return true
		case n == 0:
			return false
		case a.remaining.CompareAndSwap(n, n-1):
			return true
		}
	}
}

// Armory keeps the armed faults: the store's faults table is the truth (it
// survives a restart on a --db file and lists fired counts); requests ask an
// immutable snapshot of it, replaced whenever faults are armed or disarmed.
// With nothing armed, asking costs one nil check.
type Armory struct {
	st      *store.Store
	profile []Spec
	mu      sync.Mutex // serializes changes to the table and the snapshot
	snap    atomic.Pointer[[]*armed]
}

// NewArmory arms the profile's faults (replacing any from an earlier start)
// and loads the run-time faults a --db file kept.
func NewArmory(ctx context.Context, st *store.Store, profile []Spec) (*Armory, error) {
	a := &Armory{st: st, profile: profile}
	return a, a.RearmProfile(ctx)
}

// RearmProfile arms the profile's faults afresh (at start and after a reset).
func (a *Armory) RearmProfile(ctx context.Context) error {
	return a.change(ctx, func(tx store.Q) error {
		if err := store.ClearProfileFaults(tx); err != nil {
			return err
		}
		for _, s := range a.profile {
			if err := store.InsertFault(tx, "profile", s.JSON(), s.Count); err != nil {
				return err
			}
		}
		return nil
	})
}

// Arm adds a run-time fault.
func (a *Armory) Arm(ctx context.Context, s Spec) error {
	return a.change(ctx, func(tx store.Q) error { return store.InsertFault(tx, "runtime", s.JSON(), s.Count) })
}

// DisarmRuntime removes every run-time fault.
func (a *Armory) DisarmRuntime(ctx context.Context) error {
	return a.change(ctx, store.ClearRuntimeFaults)
}

// Reset disarms the run-time faults and re-arms the profile's with fresh
// counts; fn runs first in the same transaction (the store's reset).
func (a *Armory) Reset(ctx context.Context, fn func(store.Q) error) error {
	return a.change(ctx, func(tx store.Q) error {
		if err := fn(tx); err != nil {
			return err
		}
		if err := store.ClearRuntimeFaults(tx); err != nil {
			return err
		}
		if err := store.ClearProfileFaults(tx); err != nil {
			return err
		}
		for _, s := range a.profile {
			if err := store.InsertFault(tx, "profile", s.JSON(), s.Count); err != nil {
				return err
			}
		}
		return nil
	})
}

// change writes the table and reloads the snapshot from it.
func (a *Armory) change(ctx context.Context, fn func(store.Q) error) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if err := a.st.Write(ctx, fn); err != nil {
		return err
	}
	return a.reload()
}

func (a *Armory) reload() error {
	rows, err := a.rows()
	if err != nil {
		return err
	}
	list := make([]*armed, 0, len(rows))
	for _, r := range rows {
		var s Spec
		if json.Unmarshal(r.Doc, &s) != nil {
			continue
		}
		rule, ok := Lookup(s.Fault)
		if !ok {
			continue // a fault a newer hostsim armed in this --db file
		}
		x := &armed{id: r.ID, rule: rule, spec: s}
		x.remaining.Store(r.Remaining)
		list = append(list, x)
	}
	a.snap.Store(&list)
	return nil
}

// List returns every armed fault with its fired count, profile ones first.
func (a *Armory) List() ([]Armed, error) {
	rows, err := a.rows()
	if err != nil {
		return nil, err
	}
	out := make([]Armed, 0, len(rows))
	for _, r := range rows {
		var s Spec
		if json.Unmarshal(r.Doc, &s) != nil {
			continue
		}
		out = append(out, Armed{Source: r.Source, Spec: s, Fired: r.Fired})
	}
	return out, nil
}

func (a *Armory) rows() ([]store.FaultRow, error) {
	var rows []store.FaultRow
	err := a.st.Read(context.Background(), func(q store.Q) error {
		var err error
		rows, err = store.ListFaults(q)
		return err
	})
	return rows, err
}

// Request is the fault set of one request scoped to (kind, name), the names
// its path (or body) gives; requestID goes into each firing's journal event.
func (a *Armory) Request(requestID, kind, name string) *Set {
	s := &Set{requestID: requestID, kind: kind, name: name, fired: &firings{}}
	if a != nil {
		s.armory = a
		if p := a.snap.Load(); p != nil && len(*p) > 0 {
			s.armed = *p
		}
	}
	return s
}

// record writes one firing in q: the fired count, the spent count (a spent
// fault is disarmed) and a fault event in the journal.
func (a *Armory) record(q store.Q, f *armed, requestID, kind, name string, at time.Time) error {
	if err := store.FireFault(q, f.id); err != nil {
		return err
	}
	// the firing's count survives the fault's disarming and a restart on a
	// --db file: it commits with the write the fault shaped
	if err := store.AddCounter(q, FiredCounter+f.spec.Fault+valueSuffix(f.spec.Value), 1); err != nil {
		return err
	}
	data, _ := json.Marshal(map[string]any{"fault": f.spec, "requestId": requestID, "kind": kind, "resource": name})
	store.AppendEvent(q, at.UnixNano(), "fault", data)
	return nil
}

// FiredCounter prefixes the counter of a fault's firings: fired:NAME, or
// fired:NAME=VALUE for a fault armed with a value (/_sim/counters "fired").
const FiredCounter = "fired:"

func valueSuffix(v string) string {
	if v == "" {
		return ""
	}
	return "=" + v
}

// spent drops faults whose count is used up from the snapshot, once their
// firings are committed.
func (a *Armory) spent() {
	a.mu.Lock()
	defer a.mu.Unlock()
	p := a.snap.Load()
	if p == nil {
		return
	}
	keep := make([]*armed, 0, len(*p))
	for _, x := range *p {
		if x.remaining.Load() != 0 {
			keep = append(keep, x)
		}
	}
	if len(keep) != len(*p) {
		a.snap.Store(&keep)
	}
}
