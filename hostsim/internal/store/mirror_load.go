package store

import "github.com/takokit/takokit/hostsim/internal/store/bodycodec"

// load fills the mirror from the database (a --db file opened again).
func (m *mirror) load(q Q) error {
	m.clear()
	rs, err := ListResources(q)
	if err != nil {
		return err
	}
	for _, r := range rs {
		m.res[keyOf(r)], m.uid[r.UID] = r, r
		m.kinds[kindKey{r.Tenant, r.Space, r.Kind}]++
	}
	pins, err := queryPins(q, `ORDER BY source_uid, pointer`)
	if err != nil {
		return err
	}
	for _, p := range pins {
		m.pins[p.SourceUID] = append(m.pins[p.SourceUID], p)
		m.pinUID[p.TargetUID]++
		m.pinName[nameKey{p.TargetAPIVersion, p.TargetKind, p.TargetName}]++
	}
	rows, err := q.Query(`SELECT tenant, principal, space, key FROM idempotency`)
	if err != nil {
		return err
	}
	for rows.Next() {
		var t, p, s, k string
		if err := rows.Scan(&t, &p, &s, &k); err != nil {
			rows.Close()
			return err
		}
		m.records[m.hash(t, p, s, k)] = struct{}{}
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
		m.prepares[m.hash(digestText(d), t)] = at
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	m.dicts = bodycodec.Set{}
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
		m.dicts.Add(bodycodec.NewDict(id, body))
	}
	return rows.Err()
}
