package lane

import (
	"fmt"
	"time"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// nowText is a condition time: UTC, whole seconds.
func (s *Server) nowText() string { return s.Now().UTC().Truncate(time.Second).Format(time.RFC3339) }

// nextState computes the stored resource after the mutation (step 16).
func (c *call) nextState(f *catalog.Form, m *mutation, cur *store.Resource, g *gated, pins []store.Pin, specChanged bool) (*outcome, *apiError) {
	if cur == nil {
		uid := c.s.mint("u-")
		if c.faultOn("uid.invalid") {
			uid = "-" + uid // outside ^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$
		}
		if gone := c.s.lastGone(); gone != "" && c.faultOn("uid.reuse") {
			uid = gone
		}
		if f.HasOutputs() {
			if _, err := c.outputs(f, uid); err != nil {
				return nil, fail(wire.CodeUnsupportedCapability, "%s %q: this host cannot assign the outputs %s declares: %v",
					m.Ref.Kind, m.Name, m.Ref, err)
			}
		}
		now := c.s.nowText()
		next := &store.Resource{Tenant: m.Tenant, Space: m.Space, APIVersion: m.Ref.APIVersion, Kind: m.Ref.Kind,
			Name: m.Name, UID: uid, DefVersion: m.Ref.DefinitionVersion, SchemaDigest: m.Ref.SchemaDigest,
			Generation: 1, Revision: 1, Spec: g.jcs, SpecDigest: g.digest, NativeID: m.NativeID,
			ReadyStatus: "True", ReadyReason: "Available", ReadyLTT: now, CreatedAt: now}
		return &outcome{next: next, created: true, changed: true, pins: pins}, nil
	}
	next := *cur
	out := &outcome{next: &next, pins: pins, keepPins: c.faultOn("relations.no-repin")}
	if specChanged {
		if !c.faultOn("generation.frozen") {
			next.Generation++
		}
		next.Revision++
		next.Spec, next.SpecDigest = g.jcs, g.digest
		out.changed = true
	}
	if m.Action == "import" && cur.NativeID == "" {
		next.NativeID = m.NativeID
		out.changed = true
	}
	return out, nil
}

// commitOutcome writes the decided state and its pins.
func (c *call) commitOutcome(q store.Q, o *outcome) error {
	var err error
	if o.created {
		err = store.InsertResource(q, o.next)
	} else if o.changed {
		err = store.UpdateResource(q, o.next)
	}
	if err != nil {
		return err
	}
	if !(o.keepPins && !o.created) {
		if err := store.ReplacePins(q, o.next.UID, o.pins); err != nil {
			return err
		}
	}
	// Derived rendering (host-api.md §14.6): the resource itself first — its
	// revision moves only if this mutation did not move it already — then one
	// bounded pass over what the mutation can affect.
	rd, err := c.readyOf(q, o.next)
	if err != nil {
		return err
	}
	if c.applyReady(o.next, rd) {
		if !o.created && !o.changed {
			o.next.Revision++
		}
		if err := store.UpdateResource(q, o.next); err != nil {
			return err
		}
	}
	n := o.next
	if err := c.recompute(q, n.Tenant, n.Space, n.APIVersion, n.Kind, n.Name, n.UID); err != nil {
		return err
	}
	if o.changed {
		if err := store.AddCounter(q, "mutations", 1); err != nil {
			return err
		}
	}
	return Append(q, c.s.Now(), "mutation", map[string]any{"tenant": o.next.Tenant, "space": o.next.Space,
		"kind": o.next.Kind, "name": o.next.Name, "uid": o.next.UID, "generation": o.next.Generation,
		"revision": o.next.Revision, "created": o.created, "changed": o.changed})
}

// describe names a resource in messages.
func describe(r *store.Resource) string {
	return fmt.Sprintf("%s %q in space %q", r.Kind, r.Name, r.Space)
}
