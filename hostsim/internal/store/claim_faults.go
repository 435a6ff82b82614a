package store

// ListKindEveryTenant lists every tenant's resources of kind: the comparison of
// the fault hostname.host-wide, which no lane rule makes.
func ListKindEveryTenant(q Q, kind string) ([]*Resource, error) {
	return queryResources(q, listKindEveryTenantQuery, kind)
}

// listKindEveryTenantQuery searches resources_kind, as ListKind's tenant-wide query does.
const listKindEveryTenantQuery = `SELECT ` + resourceCols + ` FROM resources WHERE kind=? ORDER BY tenant, space, api_version, name`
