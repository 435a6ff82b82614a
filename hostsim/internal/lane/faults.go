package lane

import (
	"context"
	"encoding/json"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/hostsim/internal/fault"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// fired notes a fault firing; firings are counted and journaled once the
// request's own transaction is over (flushFires).
func (c *call) fired(f *fault.Armed) { c.fires = append(c.fires, f) }

func (c *call) flushFires() {
	if len(c.fires) == 0 || c.s.Armory == nil {
		return
	}
	_ = c.s.Store.Write(context.Background(), func(tx store.Q) error {
		for _, f := range c.fires {
			if err := c.s.Armory.Fire(tx, f); err != nil {
				return err
			}
			if err := Append(tx, c.s.Now(), "fault", map[string]any{"fault": f.Spec, "requestId": c.id,
				"kind": c.kind, "resource": c.name}); err != nil {
				return err
			}
		}
		return nil
	})
	c.s.Armory.Invalidate()
	c.fires = nil
}

// armed returns the armed fault named name scoped to (kind, resource), or nil.
func (c *call) armed(name, kind, resource string) *fault.Armed {
	if c.s.Armory == nil {
		return nil
	}
	f, err := c.s.Armory.Find(c.s.Store.DB(), name, kind, resource)
	if err != nil {
		return nil
	}
	return f
}

// outputFaults applies armed outputs.* faults to rendered outputs.
func (c *call) outputFaults(_ store.Q, f *catalog.Form, r *store.Resource, out json.RawMessage) json.RawMessage {
	if c.s.Armory == nil {
		return out
	}
	list, err := c.s.Armory.List(c.s.Store.DB())
	if err != nil {
		return out
	}
	for i := range list {
		a := &list[i]
		if !a.Spec.Matches(r.Kind, r.Name) {
			continue
		}
		var m map[string]any
		if out != nil {
			_ = json.Unmarshal(out, &m)
		}
		member := a.Spec.Value
		if member == "" && len(f.Outputs) > 0 {
			member = f.Outputs[0].Wire
		}
		switch a.Spec.Fault {
		case "outputs.omit":
			if m == nil {
				continue
			}
			delete(m, member)
		case "outputs.wrong-type":
			v, ok := m[member]
			if !ok {
				continue
			}
			m[member] = otherType(v)
		case "outputs.extra":
			if m == nil {
				m = map[string]any{}
			}
			if a.Spec.Value == "" {
				member = "unexpected"
			}
			m[member] = "injected by hostsim fault outputs.extra"
		case "outputs.empty-when-undeclared":
			if f.HasOutputs() {
				continue
			}
			m = map[string]any{}
		default:
			continue
		}
		c.fired(a)
		out = marshal(m)
	}
	return out
}

// otherType returns v as another JSON type.
func otherType(v any) any {
	switch t := v.(type) {
	case string:
		return 1
	case bool:
		return "true"
	case float64:
		return marshalString(t)
	}
	return true
}

func marshalString(v any) string { return string(marshal(v)) }
