package store

// ListKindEveryTenant lists every tenant's resources of kind: the comparison of
// the fault hostname.host-wide, which no lane rule makes.
func ListKindEveryTenant(q Q, kind string) ([]*Resource, error) {
	rows, err := q.Query(`SELECT `+resourceCols+` FROM resources WHERE kind=? ORDER BY tenant, space, api_version, name`, kind)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*Resource
	for rows.Next() {
		r, err := scanResource(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}
