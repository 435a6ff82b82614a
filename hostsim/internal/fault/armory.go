package fault

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/takokit/takokit/hostsim/internal/store"
)

// Armed is one fault in force with its firing state.
type Armed struct {
	ID        int64  `json:"-"`
	Source    string `json:"source"`
	Spec      Spec   `json:"-"`
	Remaining int64  `json:"-"`
	Fired     int64  `json:"fired"`
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

// Armory keeps the armed faults in the store. The table is the truth; a copy
// is cached between changes (every change goes through the Armory, or calls
// Invalidate) because every request consults it.
type Armory struct {
	st      *store.Store
	profile []Spec
	mu      sync.Mutex
	cached  []Armed
	valid   bool
}

// Invalidate drops the cached copy (after a store reset).
func (a *Armory) Invalidate() {
	a.mu.Lock()
	a.valid = false
	a.mu.Unlock()
}

// NewArmory arms the profile's faults (replacing any from an earlier start).
func NewArmory(ctx context.Context, st *store.Store, profile []Spec) (*Armory, error) {
	a := &Armory{st: st, profile: profile}
	return a, a.RearmProfile(ctx)
}

// RearmProfile arms the profile's faults afresh (at start and after a reset).
func (a *Armory) RearmProfile(ctx context.Context) error {
	defer a.Invalidate()
	profile := a.profile
	return a.st.Write(ctx, func(tx store.Q) error {
		if err := store.ClearProfileFaults(tx); err != nil {
			return err
		}
		for _, s := range profile {
			if err := store.InsertFault(tx, "profile", s.JSON(), s.Count); err != nil {
				return err
			}
		}
		return nil
	})
}

// Arm adds a run-time fault.
func (a *Armory) Arm(ctx context.Context, s Spec) error {
	defer a.Invalidate()
	return a.st.Write(ctx, func(tx store.Q) error { return store.InsertFault(tx, "runtime", s.JSON(), s.Count) })
}

// DisarmRuntime removes every run-time fault.
func (a *Armory) DisarmRuntime(ctx context.Context) error {
	defer a.Invalidate()
	return a.st.Write(ctx, func(tx store.Q) error { return store.ClearRuntimeFaults(tx) })
}

// List returns every armed fault, profile ones first.
func (a *Armory) List(q store.Q) ([]Armed, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.valid {
		return append([]Armed(nil), a.cached...), nil
	}
	rows, err := store.ListFaults(q)
	if err != nil {
		return nil, err
	}
	out := make([]Armed, 0, len(rows))
	for _, r := range rows {
		var s Spec
		if err := json.Unmarshal(r.Doc, &s); err != nil {
			continue
		}
		out = append(out, Armed{ID: r.ID, Source: r.Source, Spec: s, Remaining: r.Remaining, Fired: r.Fired})
	}
	a.cached, a.valid = out, true
	return append([]Armed(nil), out...), nil
}

// Find returns the first armed fault named name scoped to (kind, resource).
func (a *Armory) Find(q store.Q, name, kind, resource string) (*Armed, error) {
	list, err := a.List(q)
	if err != nil {
		return nil, err
	}
	for i := range list {
		if list[i].Spec.Fault == name && list[i].Spec.Matches(kind, resource) {
			return &list[i], nil
		}
	}
	return nil, nil
}

// Fire counts one firing of f (disarming it when its count is spent).
// The caller calls Invalidate once its transaction committed.
func (a *Armory) Fire(q store.Q, f *Armed) error { return store.FireFault(q, f.ID) }
