package store

import (
	"fmt"
	"slices"

	"github.com/takokit/takokit/hostsim/internal/store/mirror"
)

// Queries the relation and worker-aggregate rules ask (docs/protocol.md#relations, docs/protocol.md#aggregate).

// Held is a pin together with the live resource holding it.
type Held struct {
	Pin    Pin
	Source *Resource
}

// PinHolders lists the pins naming target by uid with their live source
// resources, self-pins excluded.
func PinHolders(q Q, target string) ([]Held, error) {
	pins, err := PinsTo(q, target)
	if err != nil {
		return nil, err
	}
	var out []Held
	for _, p := range pins {
		src, err := GetResourceByUID(q, p.SourceUID)
		if err != nil {
			return nil, err
		}
		if src != nil {
			out = append(out, Held{Pin: p, Source: src})
		}
	}
	return out, nil
}

// SourcesNaming lists the uids of resources in (tenant, space) holding a pin on
// the name (apiVersion, kind, name), whatever uid it pinned.
func SourcesNaming(q Q, tenant, space, apiVersion, kind, name string) ([]string, error) {
	if v, ok := viewOf(q); ok && v.PinsNamingName(mirror.Target{APIVersion: apiVersion, Kind: kind, Name: name}) == 0 {
		return nil, nil
	}
	rows, err := q.Query(`SELECT DISTINCT p.source_uid FROM pins p JOIN resources r ON r.uid = p.source_uid
		WHERE r.tenant=? AND r.space=? AND p.target_api_version=? AND p.target_kind=? AND p.target_name=?
		ORDER BY p.source_uid`, tenant, space, apiVersion, kind, name)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// ListKind lists the tenant's resources of kind, in space, or in every space
// when allSpaces is true.
func ListKind(q Q, tenant, space, kind string, allSpaces bool) ([]*Resource, error) {
	if allSpaces {
		return queryResources(q, listKindTenantQuery, tenant, kind)
	}
	return queryResources(q, listKindQuery, tenant, kind, space)
}

// listKindQuery and listKindTenantQuery are ListKind's. The tenant-wide one is
// a search of resources_kind: by the primary key, whose second column is the
// space, it scanned every resource of the tenant, and a hostname claim asks it
// on each write of a hostname (a conformance sweep's host holds thousands).
const (
	listKindQuery       = `SELECT ` + resourceCols + ` FROM resources WHERE tenant=? AND kind=? AND space=? ORDER BY space, api_version, name`
	listKindTenantQuery = `SELECT ` + resourceCols + ` FROM resources WHERE tenant=? AND kind=? ORDER BY space, api_version, name`
)

// PendingDelete reports whether an accepted delete of uid is still pending.
func PendingDelete(q Q, uid string) (bool, error) {
	var n int
	err := q.QueryRow(pendingDeleteQuery, uid).Scan(&n)
	return n > 0, err
}

// pendingDeleteQuery counts the delete operations pending on a uid, through the
// index operations_pending (a host that served thousands of operations would
// otherwise scan them all for each version a worker's readiness weighs).
const pendingDeleteQuery = `SELECT count(*) FROM operations WHERE action='delete' AND done=0 AND target_uid=?`

// Affected lists, in one query, the resources a mutation of the name
// (apiVersion, kind, name) in (tenant, space) can re-render: the sources
// pinning that name (whatever uid they pinned) and the space's resources of
// workerKinds, each once, skip (the mutated uid) excluded.
func Affected(q Q, tenant, space, apiVersion, kind, name string, workerKinds []string, skip string) ([]*Resource, error) {
	if len(workerKinds) > 4 {
		return nil, fmt.Errorf("store.Affected takes at most 4 worker kinds, got %d", len(workerKinds))
	}
	t := mirror.Target{APIVersion: apiVersion, Kind: kind, Name: name}
	if v, ok := viewOf(q); ok && !v.MayAffect(tenant, space, t, workerKinds) {
		return nil, nil // no pin names it and the space has no worker: nothing to re-render
	}
	if v, ok, err := lookupView(q); err != nil {
		return nil, err
	} else if ok {
		return affectedIn(v, tenant, space, t, workerKinds, skip), nil
	}
	w := [4]string{}
	copy(w[:], workerKinds)
	return queryResources(q, affectedQuery, tenant, space, skip, w[0], w[1], w[2], w[3], apiVersion, kind, name)
}

// affectedIn is Affected answered by the mirror: what affectedQuery selects,
// copies of the rows by uid (both sets hold only live resources of the space).
func affectedIn(v view, tenant, space string, t mirror.Target, workerKinds []string, skip string) []*Resource {
	uids := v.SourcesNamingName(tenant, space, t)
	for _, k := range workerKinds {
		uids = append(uids, v.OfKind(tenant, space, k)...)
	}
	slices.Sort(uids)
	var out []*Resource
	for i, uid := range uids {
		if uid == skip || (i > 0 && uids[i-1] == uid) {
			continue
		}
		out = append(out, clone(v.ByUID(uid)))
	}
	return out
}

// affectedQuery is Affected's one query when no mirror answers it. Its pins lookup by name is an index
// search (pins_target_name): without the index every mutation scanned every
// pin of the host, a third of the CPU of a conformance sweep's 1,800 runs.
const affectedQuery = `SELECT ` + resourceCols + ` FROM resources WHERE tenant=? AND space=? AND uid<>? AND
		(kind IN (?,?,?,?) OR uid IN (SELECT source_uid FROM pins WHERE target_api_version=? AND target_kind=? AND target_name=?))
		ORDER BY uid`
