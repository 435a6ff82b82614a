package lane

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// refNode is one reference found in a spec.
type refNode struct {
	pointer               string
	apiVersion, kind, nam string
}

// nodesAt finds the reference nodes at a relation pointer ("*" = every element).
func nodesAt(spec map[string]any, pointer string) []refNode {
	type at struct {
		ptr string
		v   any
	}
	cur := []at{{"", spec}}
	for _, tok := range strings.Split(strings.TrimPrefix(pointer, "/"), "/") {
		var next []at
		for _, c := range cur {
			switch v := c.v.(type) {
			case map[string]any:
				if tok == "*" {
					continue
				}
				if x, ok := v[tok]; ok {
					next = append(next, at{c.ptr + "/" + wire.EscapePointerToken(tok), x})
				}
			case []any:
				if tok != "*" {
					continue
				}
				for i, x := range v {
					next = append(next, at{c.ptr + "/" + strconv.Itoa(i), x})
				}
			}
		}
		cur = next
	}
	var out []refNode
	for _, c := range cur {
		m, ok := c.v.(map[string]any)
		if !ok {
			continue
		}
		av, _ := m["apiVersion"].(string)
		k, _ := m["kind"].(string)
		n, _ := m["name"].(string)
		out = append(out, refNode{c.ptr, av, k, n})
	}
	return out
}

// resolveRelations resolves and pins every reference of the spec (host-api.md
// §14.3). Binding lists are not implemented yet and are refused, never accepted.
func (c *call) resolveRelations(q store.Q, f *catalog.Form, m *mutation, g *gated) ([]store.Pin, *apiError) {
	var pins []store.Pin
	for _, rel := range f.Relations {
		nodes := nodesAt(g.spec, rel.Pointer)
		if len(nodes) == 0 {
			continue
		}
		if rel.Binding != nil {
			return nil, fail(wire.CodeUnsupportedCapability,
				"%s %q: %s holds a binding of %s; hostsim does not implement binding resolution yet, so it refuses the spec rather than accept it unchecked",
				m.Ref.Kind, m.Name, nodes[0].pointer, rel.Binding.Name).at(nodes[0].pointer)
		}
		for _, n := range nodes {
			p, e := c.resolveOne(q, m, rel, n)
			if e != nil {
				return nil, e
			}
			pins = append(pins, p)
		}
	}
	return pins, nil
}

func (c *call) resolveOne(q store.Q, m *mutation, rel catalog.Relation, n refNode) (store.Pin, *apiError) {
	t, err := store.GetResource(q, m.Tenant, m.Space, n.apiVersion, n.kind, n.nam)
	if err != nil {
		return store.Pin{}, internal(err)
	}
	if t == nil {
		return store.Pin{}, notFound("relation %s: %s %q does not exist in space %q; create it first", n.pointer, n.kind, n.nam, m.Space).at(n.pointer)
	}
	if n.apiVersion != rel.TargetAPIVersion || n.kind != rel.TargetKind {
		return store.Pin{}, invalid("relation %s must name a %s %s, not %s %s", n.pointer, rel.TargetAPIVersion, rel.TargetKind, n.apiVersion, n.kind).at(n.pointer)
	}
	tref := ref(t)
	switch {
	case len(rel.TargetFormRefs) > 0:
		ok := false
		for _, r := range rel.TargetFormRefs {
			ok = ok || r == tref
		}
		if !ok {
			return store.Pin{}, invalid("relation %s: %s %q is recorded under %s, which is not one of the Forms the relation accepts", n.pointer, n.kind, n.nam, tref).at(n.pointer)
		}
	case rel.RequiredInterface != nil:
		tf, ok := c.s.Host.Cat.Form(tref)
		if !ok || !tf.Provides(*rel.RequiredInterface) {
			return store.Pin{}, invalid("relation %s: %s %q (%s) does not provide interface %s", n.pointer, n.kind, n.nam, tref, rel.RequiredInterface).at(n.pointer)
		}
		if !c.s.Host.Implements(*rel.RequiredInterface) {
			return store.Pin{}, fail(wire.CodeUnsupportedCapability, "relation %s needs interface %s, which this host (profile %q) does not implement",
				n.pointer, rel.RequiredInterface, c.s.Host.P.Name).at(n.pointer)
		}
	}
	return store.Pin{Pointer: n.pointer, Relation: rel.Pointer, TargetAPIVersion: t.APIVersion, TargetKind: t.Kind,
		TargetName: t.Name, TargetUID: t.UID, TargetRef: fmt.Sprint(tref)}, nil
}
