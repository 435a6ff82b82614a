package store

import (
	"sort"

	"github.com/takokit/takokit/hostsim/internal/store/bodycodec"
	"github.com/takokit/takokit/hostsim/internal/store/mirror"
)

// The mirror (package mirror) answers what requests look up by key without a
// query; every write still goes to SQLite, and the mirror learns of it when
// its transaction commits (docs/decisions.md: hostsim speed). Lookups the
// mirror cannot answer run their query, inside the same transaction.
type (
	rowMirror = mirror.Mirror[Resource, Pin]
	overlay   = mirror.Overlay[Resource, Pin]
	view      = mirror.View[Resource, Pin]
)

func newMirror() *rowMirror {
	return mirror.New(addrOf, func(p Pin) (string, mirror.Target) {
		return p.TargetUID, mirror.Target{APIVersion: p.TargetAPIVersion, Kind: p.TargetKind, Name: p.TargetName}
	})
}

func addrOf(r *Resource) mirror.Addr {
	return mirror.Addr{Tenant: r.Tenant, Space: r.Space, APIVersion: r.APIVersion, Kind: r.Kind, Name: r.Name}
}

// viewOf returns the view of a Store's Q; ok is false for any other Q, whose
// lookups then run their queries.
func viewOf(q Q) (view, bool) {
	switch x := q.(type) {
	case writeQ:
		return x.w.m.View(x.w.ov), x.w.m != nil
	case poolQ:
		return x.m.View(nil), x.m != nil
	case txQ:
		return x.m.View(nil), x.m != nil
	}
	return view{}, false
}

// lookupView is viewOf for a lookup the mirror answers. Inside a write that
// lookup is a read of the store as much as a query is: the write's before
// (WriteWith) is asked first, so store.read-fail fails it as it fails a query.
func lookupView(q Q) (view, bool, error) {
	v, ok := viewOf(q)
	if wq, inWrite := q.(writeQ); ok && inWrite && wq.w.before != nil {
		if err := wq.w.before(true); err != nil {
			return view{}, false, err
		}
	}
	return v, ok, nil
}

// sortedPins is pins as stored for source: SourceUID filled in, by pointer.
func sortedPins(source string, pins []Pin) []Pin {
	out := make([]Pin, len(pins))
	for i, p := range pins {
		p.SourceUID = source
		out[i] = p
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Pointer < out[j].Pointer })
	return out
}

// loadMirror fills a new mirror from the database (a --db file opened
// again), as one transaction that empties every table and writes it anew.
func loadMirror(q Q, m *rowMirror) error {
	ov := mirror.NewOverlay[Resource, Pin]()
	v := m.View(ov)
	v.Reset()
	rs, err := ListResources(q)
	if err != nil {
		return err
	}
	for _, r := range rs {
		v.SetResource(r.UID, r)
	}
	pins, err := queryPins(q, `ORDER BY source_uid, pointer`)
	if err != nil {
		return err
	}
	for i := 0; i < len(pins); {
		j := i + 1
		for j < len(pins) && pins[j].SourceUID == pins[i].SourceUID {
			j++
		}
		v.SetPins(pins[i].SourceUID, pins[i:j:j])
		i = j
	}
	rows, err := q.Query(`SELECT tenant, principal, space, key, created_at, bound_op FROM idempotency`)
	if err != nil {
		return err
	}
	for rows.Next() {
		var t, p, s, k, op string
		var at int64
		if err := rows.Scan(&t, &p, &s, &k, &at, &op); err != nil {
			rows.Close()
			return err
		}
		v.SetRecord(v.Hash(t, p, s, k), &mirror.Record{At: at, Op: op})
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	rows, err = q.Query(`SELECT digest, tenant, minted_at FROM prepares`)
	if err != nil {
		return err
	}
	for rows.Next() {
		var d []byte
		var t string
		var at int64
		if err := rows.Scan(&d, &t, &at); err != nil {
			rows.Close()
			return err
		}
		v.SetPrepare(v.Hash(digestText(d), t), at)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	rows, err = q.Query(`SELECT id, body FROM dictionaries`)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var body []byte
		if err := rows.Scan(&id, &body); err != nil {
			return err
		}
		v.AddDict(bodycodec.NewDict(id, body))
	}
	if err := rows.Err(); err != nil {
		return err
	}
	m.Apply(ov)
	return nil
}
