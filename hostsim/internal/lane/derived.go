package lane

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/takokit/takokit/hostsim/internal/rules"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// Derived rendering (host-api.md §14.4, §14.6, §15.4): the Ready condition of a
// resource computed from other resources — relation drift, and a worker's
// readiness from its active deployment. Drift wins over readiness.

// ready is one Ready condition's content.
type ready struct {
	Status, Reason, HostReason, Message string
}

// derived computes the derived Ready of r; nil means nothing derived applies
// (the resource renders its own stored Ready).
func (c *call) derived(q store.Q, r *store.Resource) (*ready, error) {
	pins, err := store.PinsOf(q, r.UID)
	if err != nil {
		return nil, err
	}
	if len(pins) > 0 && !c.noDrift(r) {
		states := make([]rules.PinState, 0, len(pins))
		for _, p := range pins {
			st := rules.PinState{Pin: rules.Pin{Pointer: p.Pointer, Relation: p.Relation, TargetAPIVersion: p.TargetAPIVersion,
				TargetKind: p.TargetKind, TargetName: p.TargetName, TargetUID: p.TargetUID, TargetFormRef: pinRef(p)}}
			t, err := store.GetResource(q, r.Tenant, r.Space, p.TargetAPIVersion, p.TargetKind, p.TargetName)
			if err != nil {
				return nil, err
			}
			if t != nil {
				st.Current = &rules.Target{Found: true, APIVersion: t.APIVersion, Kind: t.Kind, Name: t.Name, UID: t.UID, FormRef: ref(t)}
			}
			states = append(states, st)
		}
		if d := rules.EvaluateDrift(states); d.Drifted {
			return &ready{"False", d.Reason, d.HostReason, d.Message}, nil
		}
	}
	if roles.worker(r.Kind) != nil {
		rd, err := c.readiness(q, r)
		if err != nil {
			return nil, err
		}
		st := "False"
		if rd.Ready {
			st = "True"
		}
		return &ready{st, rd.Reason, rd.HostReason, rd.Message}, nil
	}
	return nil, nil
}

// readiness is §15.4 for a worker.
func (c *call) readiness(q store.Q, w *store.Resource) (rules.Readiness, error) {
	active, err := c.activeDeployment(q, w)
	if err != nil {
		return rules.Readiness{}, err
	}
	return rules.WorkerReadiness(active), nil
}

// activeDeployment finds the worker's one live deployment (by its worker pin)
// and the versions it weights; nil when there is none.
func (c *call) activeDeployment(q store.Q, w *store.Resource) (*rules.ActiveDeployment, error) {
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
		var spec map[string]any
		_ = json.Unmarshal(h.Source.Spec, &spec)
		vs, err := c.weighted(q, dr, pins, spec)
		if err != nil {
			return nil, err
		}
		return &rules.ActiveDeployment{Name: h.Source.Name, Versions: vs}, nil
	}
	return nil, nil
}

// weighted reads the weighted versions of a deployment from its pins and spec.
func (c *call) weighted(q store.Q, dr *deploymentRole, pins []store.Pin, spec map[string]any) ([]rules.WeightedVersion, error) {
	var out []rules.WeightedVersion
	for _, p := range pinsOf(pins, dr.Versions) {
		wv := rules.WeightedVersion{Pointer: p.Pointer, Name: p.TargetName, UID: p.TargetUID}
		wv.Weight, _ = toInt(valueAt(spec, parentPointer(p.Pointer)+"/"+dr.Weight))
		v, err := store.GetResourceByUID(q, p.TargetUID)
		if err != nil {
			return nil, err
		}
		if v != nil {
			if err := c.versionFacts(q, v, &wv); err != nil {
				return nil, err
			}
		}
		out = append(out, wv)
	}
	return out, nil
}

// versionFacts fills the worker pin, handlers, readiness and pending delete of a version.
func (c *call) versionFacts(q store.Q, v *store.Resource, wv *rules.WeightedVersion) error {
	vr := roles.version(v.Kind)
	if vr == nil {
		return nil
	}
	var spec map[string]any
	_ = json.Unmarshal(v.Spec, &spec)
	for _, h := range asList(valueAt(spec, vr.Handlers)) {
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
	d, err := c.derived(q, v)
	if err != nil {
		return err
	}
	wv.Ready = (d == nil && v.ReadyStatus == "True") || (d != nil && d.Status == "True")
	wv.Deleting, err = store.PendingDelete(q, v.UID)
	return err
}

// readyOf renders the Ready condition of r: derived when something derived
// applies, else the stored one (a resource whose drift cleared is Available).
func (c *call) readyOf(q store.Q, r *store.Resource) (ready, error) {
	d, err := c.derived(q, r)
	if err != nil {
		return ready{}, err
	}
	if d != nil {
		return *d, nil
	}
	if r.ReadyStatus == "True" {
		return ready{r.ReadyStatus, r.ReadyReason, r.ReadyHostReason, r.ReadyMessage}, nil
	}
	return ready{"True", "Available", "", ""}, nil
}

// applyReady stores rd on r; it reports whether anything changed.
func (c *call) applyReady(r *store.Resource, rd ready) bool {
	cur := ready{r.ReadyStatus, r.ReadyReason, r.ReadyHostReason, r.ReadyMessage}
	if cur == rd {
		return false
	}
	if cur.Status != rd.Status {
		r.ReadyLTT = c.s.nowText()
	}
	r.ReadyStatus, r.ReadyReason, r.ReadyHostReason, r.ReadyMessage = rd.Status, rd.Reason, rd.HostReason, rd.Message
	return true
}

// recompute is the one bounded pass of §14.6 after a mutation of the name
// (apiVersion, kind, name) in (tenant, space): every source pinning that name
// and every worker of the space re-render; those that changed advance their
// revision by one (never their generation). skip is the mutated uid itself.
func (c *call) recompute(q store.Q, tenant, space, apiVersion, kind, name, skip string) error {
	if c.frozenRendering(kind, name) {
		return nil
	}
	uids, err := store.SourcesNaming(q, tenant, space, apiVersion, kind, name)
	if err != nil {
		return err
	}
	seen := map[string]bool{skip: true}
	var todo []*store.Resource
	for _, u := range uids {
		if r, err := store.GetResourceByUID(q, u); err != nil {
			return err
		} else if r != nil && !seen[u] {
			seen[u] = true
			todo = append(todo, r)
		}
	}
	for _, w := range roles.Workers {
		list, err := store.ListKind(q, tenant, space, w.Kind, false)
		if err != nil {
			return err
		}
		for _, r := range list {
			if !seen[r.UID] {
				seen[r.UID] = true
				todo = append(todo, r)
			}
		}
	}
	for _, r := range todo {
		rd, err := c.readyOf(q, r)
		if err != nil {
			return err
		}
		if c.applyReady(r, rd) {
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

// toInt reads a JSON integer decoded as float64 or json.Number.
func toInt(v any) (int64, bool) {
	switch n := v.(type) {
	case float64:
		return int64(n), true
	case json.Number:
		i, err := n.Int64()
		return i, err == nil
	case int64:
		return n, true
	case int:
		return int64(n), true
	}
	return 0, false
}

func asList(v any) []any { l, _ := v.([]any); return l }

// parentPointer drops the last token of a pointer.
func parentPointer(p string) string {
	if i := strings.LastIndex(p, "/"); i >= 0 {
		return p[:i]
	}
	return ""
}
