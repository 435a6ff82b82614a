package related

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/decide"
	"github.com/takokit/takokit/hostsim/internal/fault"
	"github.com/takokit/takokit/hostsim/internal/rules"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// Derived rendering (docs/protocol.md#relations): the Ready condition of a
// resource computed from other resources — relation drift, a worker's
// readiness from its active deployment, and a migration application's from
// its database's ledger (docs/protocol.md#migrations). Drift wins over both.

// Ready is one Ready condition's content.
type Ready struct {
	Status, Reason, HostReason, Message string
}

// derived computes the derived Ready of r; nil means nothing derived applies
// (the resource renders its own stored Ready). pins are r's pins when the
// caller holds them (nil: read them when r.Pins says there are some).
func (g *G) derived(q store.Q, r *store.Resource, pins []store.Pin, fs *fault.Set) (*Ready, error) {
	if pins == nil && r.Pins > 0 {
		var err error
		if pins, err = store.PinsOf(q, r.UID); err != nil {
			return nil, err
		}
	}
	if len(pins) > 0 {
		if d, err := g.drift(q, r, pins, fs); d != nil || err != nil {
			return d, err
		}
	}
	if roles.migration(r.Kind) != nil {
		return g.ledgerReadiness(q, r, pins, fs)
	}
	if roles.worker(r.Kind) != nil {
		rd, err := g.readiness(q, r, fs)
		if err != nil {
			return nil, err
		}
		st := wire.StatusFalse
		if rd.Ready {
			st = wire.StatusTrue
		}
		return &Ready{st, rd.Reason, rd.HostReason, rd.Message}, nil
	}
	return nil, nil
}

// drift checks each pin against what now holds the pinned name.
func (g *G) drift(q store.Q, r *store.Resource, pins []store.Pin, fs *fault.Set) (*Ready, error) {
	states := make([]rules.PinState, 0, len(pins))
	for _, p := range pins {
		st := rules.PinState{Pin: rules.Pin{Pointer: p.Pointer, Relation: p.Relation, TargetAPIVersion: p.TargetAPIVersion,
			TargetKind: p.TargetKind, TargetName: p.TargetName, TargetUID: p.TargetUID, TargetFormRef: g.pinRef(p)}}
		t, err := store.GetResource(q, r.Tenant, r.Space, p.TargetAPIVersion, p.TargetKind, p.TargetName)
		if err != nil {
			return nil, err
		}
		if t != nil {
			st.Current = &rules.Target{Found: true, APIVersion: t.APIVersion, Kind: t.Kind, Name: t.Name, UID: t.UID, FormRef: decide.Ref(t)}
		}
		states = append(states, st)
	}
	d := rules.EvaluateDrift(states)
	if !d.Drifted {
		return nil, nil
	}
	if fs.About(r.Kind, r.Name).On(fault.RelationsNoDrift) {
		return nil, nil
	}
	return &Ready{wire.StatusFalse, d.Reason, d.HostReason, d.Message}, nil
}

// readiness is a worker's readiness from its active deployment.
func (g *G) readiness(q store.Q, w *store.Resource, fs *fault.Set) (rules.Readiness, error) {
	active, err := g.activeDeployment(q, w, fs)
	if err != nil {
		return rules.Readiness{}, err
	}
	return rules.WorkerReadiness(w.Name, active), nil
}

// activeDeployment finds the worker's one live deployment (by its worker pin)
// and the versions it weights; nil when there is none.
func (g *G) activeDeployment(q store.Q, w *store.Resource, fs *fault.Set) (*rules.ActiveDeployment, error) {
	holders, err := store.PinHolders(q, w.UID)
	if err != nil {
		return nil, err
	}
	for _, h := range holders {
		dr := roles.deployment(h.Source.Kind)
		if dr == nil || h.Pin.Relation != dr.Worker {
			continue
		}
		pins, err := store.PinsOf(q, h.Source.UID)
		if err != nil {
			return nil, err
		}
		vs, err := g.weighted(q, dr, pins, g.spec(h.Source.Spec), fs)
		if err != nil {
			return nil, err
		}
		return &rules.ActiveDeployment{Name: h.Source.Name, Versions: vs}, nil
	}
	return nil, nil
}

// weighted reads the weighted versions of a deployment from its pins and spec.
func (g *G) weighted(q store.Q, dr *deploymentRole, pins []store.Pin, spec map[string]any, fs *fault.Set) ([]rules.WeightedVersion, error) {
	var out []rules.WeightedVersion
	for _, p := range pinsOf(pins, dr.Versions) {
		wv := rules.WeightedVersion{Pointer: p.Pointer, Name: p.TargetName, UID: p.TargetUID}
		wv.Weight = toInt(valueAt(spec, parentPointer(p.Pointer)+"/"+dr.Weight))
		v, err := store.GetResourceByUID(q, p.TargetUID)
		if err != nil {
			return nil, err
		}
		if v != nil {
			if err := g.versionFacts(q, v, &wv, fs); err != nil {
				return nil, err
			}
		}
		out = append(out, wv)
	}
	return out, nil
}

// versionFacts fills the worker pin, handlers, readiness and pending delete of a version.
func (g *G) versionFacts(q store.Q, v *store.Resource, wv *rules.WeightedVersion, fs *fault.Set) error {
	vr := roles.version(v.Kind)
	if vr == nil {
		return nil
	}
	for _, h := range asList(valueAt(g.spec(v.Spec), vr.Handlers)) {
		if s, ok := h.(string); ok {
			wv.Handlers = append(wv.Handlers, s)
		}
	}
	vpins, err := store.PinsOf(q, v.UID)
	if err != nil {
		return err
	}
	if p, ok := pinAt(vpins, vr.Worker); ok {
		wv.WorkerUID = p.TargetUID
	}
	d, err := g.derived(q, v, vpins, fs)
	if err != nil {
		return err
	}
	wv.Ready = (d == nil && v.ReadyStatus == wire.StatusTrue) || (d != nil && d.Status == wire.StatusTrue)
	wv.Deleting, err = store.PendingDelete(q, v.UID)
	return err
}

// ReadyOf renders the Ready condition of r: derived when something derived
// applies, else the stored one (a resource whose drift cleared is Available).
// pins are r's pins when the caller holds them (nil: read them if any).
func (g *G) ReadyOf(q store.Q, r *store.Resource, pins []store.Pin, fs *fault.Set) (Ready, error) {
	d, err := g.derived(q, r, pins, fs)
	if err != nil {
		return Ready{}, err
	}
	if d != nil {
		return *d, nil
	}
	if r.ReadyStatus == wire.StatusTrue {
		return Ready{r.ReadyStatus, r.ReadyReason, r.ReadyHostReason, r.ReadyMessage}, nil
	}
	return Ready{wire.StatusTrue, wire.ReasonAvailable, "", ""}, nil
}

// ApplyReady stores rd on r (now is the transition time when the status
// changes); it reports whether anything changed.
func ApplyReady(r *store.Resource, rd Ready, now string) bool {
	cur := Ready{r.ReadyStatus, r.ReadyReason, r.ReadyHostReason, r.ReadyMessage}
	if cur == rd {
		return false
	}
	if cur.Status != rd.Status {
		r.ReadyLTT = now
	}
	r.ReadyStatus, r.ReadyReason, r.ReadyHostReason, r.ReadyMessage = rd.Status, rd.Reason, rd.HostReason, rd.Message
	return true
}

// Recompute is the one bounded pass after a mutation of the name (apiVersion,
// kind, name) in (tenant, space): every source pinning that name and every
// worker of the space re-render; those that changed advance their revision by
// one (never their generation). skip is the mutated uid itself.
func (g *G) Recompute(q store.Q, tenant, space, apiVersion, kind, name, skip, now string, fs *fault.Set) error {
	if fs.About(kind, name).On(fault.RenderingFrozen) {
		return nil
	}
	todo, err := store.Affected(q, tenant, space, apiVersion, kind, name, roles.workerKinds(), skip)
	if err != nil {
		return err
	}
	for _, r := range todo {
		rd, err := g.ReadyOf(q, r, nil, fs)
		if err != nil {
			return err
		}
		if ApplyReady(r, rd, now) {
			r.Revision++
			if err := store.UpdateResource(q, r); err != nil {
				return err
			}
		}
	}
	return nil
}

// valueAt reads a JSON Pointer (unescaped tokens) from a decoded value.
func valueAt(v any, ptr string) any {
	if ptr == "" {
		return v
	}
	for _, tok := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch x := v.(type) {
		case map[string]any:
			v = x[tok]
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(x) {
				return nil
			}
			v = x[i]
		default:
			return nil
		}
	}
	return v
}

// toInt reads a JSON integer decoded as float64 or json.Number; anything
// else reads as 0 (a json.Number that is no int64: 0 or its clamp), which the
// deployment rules refuse as a weight out of range.
func toInt(v any) int64 {
	switch n := v.(type) {
	case float64:
		return int64(n)
	case json.Number:
		i, _ := n.Int64()
		return i
	case int64:
		return n
	case int:
		return int64(n)
	}
	return 0
}

func asList(v any) []any { l, _ := v.([]any); return l }

// parentPointer drops the last token of a pointer.
func parentPointer(p string) string {
	if i := strings.LastIndex(p, "/"); i >= 0 {
		return p[:i]
	}
	return ""
}
