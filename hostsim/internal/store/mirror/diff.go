package mirror

import (
	"fmt"
	"reflect"
	"slices"
)

// Diff names the first index in which m and o differ, with both contents
// ("" when they agree). Records and prepares are compared by hashed key, so
// o must hash as m does (Empty). The store checks with it that the mirror it
// kept equals one loaded afresh from SQLite; skip names indexes not compared
// (the in-memory database keeps records, prepares and counters in the mirror
// alone).
func (m *Mirror[R, P]) Diff(o *Mirror[R, P], skip ...string) string {
	for _, c := range []struct {
		name string
		a, b any
	}{
		{"resources by address", m.res, o.res}, {"resources by uid", m.uid, o.uid},
		{"pins", m.pins, o.pins},
		{"pins by target uid", m.pinUID, o.pinUID}, {"pins by target name", m.pinName, o.pinName},
		{"sources by target uid", m.srcUID, o.srcUID}, {"sources by target name", m.srcName, o.srcName},
		{"resources by kind", m.ofKind, o.ofKind},
		{"records", m.records, o.records}, {"records waiting on operations", m.waiting, o.waiting},
		{"prepares", m.prepares, o.prepares}, {"counters", m.counters, o.counters},
		{"dictionaries", dictBodies(m), dictBodies(o)},
	} {
		if !slices.Contains(skip, c.name) && !reflect.DeepEqual(c.a, c.b) {
			return fmt.Sprintf("%s differ:\n%v\n%v", c.name, c.a, c.b)
		}
	}
	return ""
}

func dictBodies[R, P any](m *Mirror[R, P]) map[int64]string {
	out := map[int64]string{}
	for d := range m.dicts.All() {
		out[d.ID()] = string(d.Body())
	}
	return out
}
