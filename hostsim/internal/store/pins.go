package store

import "slices"

// Pin records the incarnation a reference resolved to (docs/protocol.md#relations).
type Pin struct {
	SourceUID, Pointer, Relation             string
	TargetAPIVersion, TargetKind, TargetName string
	TargetUID, TargetRef, BindingRef         string
}

// ReplacePins swaps every pin of source for pins; existing is false for a
// source that holds none yet.
func ReplacePins(q Q, source string, pins []Pin, existing bool) error {
	v, mirrored := viewOf(q)
	held := pins
	if mirrored && !existing {
		held = append(append([]Pin(nil), v.PinsOf(source)...), pins...)
	}
	if existing {
		if _, err := q.Exec(`DELETE FROM pins WHERE source_uid=?`, source); err != nil {
			return err
		}
	}
	for _, p := range pins {
		if _, err := q.Exec(`INSERT INTO pins (source_uid, pointer, relation, target_api_version, target_kind,
			target_name, target_uid, target_ref, binding_ref) VALUES (?,?,?,?,?,?,?,?,?)`,
			source, p.Pointer, p.Relation, p.TargetAPIVersion, p.TargetKind, p.TargetName, p.TargetUID,
			p.TargetRef, p.BindingRef); err != nil {
			return err
		}
	}
	if mirrored {
		v.SetPins(source, sortedPins(source, held))
	}
	return nil
}

// PinsOf lists what source pins.
func PinsOf(q Q, source string) ([]Pin, error) {
	if v, ok, err := lookupView(q); err != nil {
		return nil, err
	} else if ok {
		return append([]Pin(nil), v.PinsOf(source)...), nil
	}
	return queryPins(q, `WHERE source_uid=? ORDER BY pointer`, source)
}

// PinsTo lists the pins naming target by uid, self-pins excluded, by source
// and pointer. The mirror answers it; none naming it reads nothing, as the
// store's query was skipped then (a read fault does not fire).
func PinsTo(q Q, target string) ([]Pin, error) {
	if v, ok := viewOf(q); ok && v.PinsNamingUID(target) == 0 {
		return nil, nil
	}
	v, ok, err := lookupView(q)
	if err != nil {
		return nil, err
	}
	if !ok {
		return queryPins(q, `WHERE target_uid=? AND source_uid<>? ORDER BY source_uid, pointer`, target, target)
	}
	srcs := v.SourcesNamingUID(target)
	slices.Sort(srcs)
	var out []Pin
	for _, src := range srcs {
		if src == target {
			continue
		}
		for _, p := range v.PinsOf(src) { // by pointer already
			if p.TargetUID == target {
				out = append(out, p)
			}
		}
	}
	return out, nil
}

func queryPins(q Q, where string, args ...any) ([]Pin, error) {
	rows, err := q.Query(`SELECT source_uid, pointer, relation, target_api_version, target_kind, target_name,
		target_uid, target_ref, binding_ref FROM pins `+where, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Pin
	for rows.Next() {
		var p Pin
		if err := rows.Scan(&p.SourceUID, &p.Pointer, &p.Relation, &p.TargetAPIVersion, &p.TargetKind,
			&p.TargetName, &p.TargetUID, &p.TargetRef, &p.BindingRef); err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, rows.Err()
}
