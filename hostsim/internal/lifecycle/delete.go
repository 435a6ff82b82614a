package lifecycle

import (
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/decide"
	"github.com/takokit/takokit/hostsim/internal/fault"
	"github.com/takokit/takokit/hostsim/internal/journal"
	"github.com/takokit/takokit/hostsim/internal/related"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// DecideDelete resolves a delete's target, its fences and the dependency
// scans against the store as it is now (atCommit: the re-check of an
// accepted delete).
func (en *Engine) DecideDelete(q store.Q, d *decide.Deletion, atCommit bool, route string, fs *fault.Set) (*store.Resource, *wire.Error) {
	f, err := en.Installed(d.Ref, fs)
	if err != nil {
		return nil, err
	}
	cur, serr := store.GetResource(q, d.Tenant, d.Space, d.Ref.APIVersion, d.Ref.Kind, d.Name)
	if serr != nil {
		return nil, decide.Internal(serr)
	}
	what := d.What()
	var e *wire.Error
	fs.Decide(func(a *decide.Acts) { e = decide.CheckDeletion(d, cur, atCommit, route, what, a) })
	if e != nil {
		return nil, e
	}
	if v := en.Host.CheckOperation(f, "delete"); v != nil {
		return nil, decide.Refuse(wire.CodeUnsupportedCapability, "%s: %s", what, v.Message)
	}
	if e := en.Related.DeleteScans(q, cur, d.External, fs); e != nil {
		return nil, e
	}
	return cur, nil
}

// CommitDelete removes the incarnation and re-renders what it affects.
func (en *Engine) CommitDelete(q store.Q, cur *store.Resource, fs *fault.Set) error {
	if err := store.DeleteResource(q, cur); err != nil {
		return err
	}
	if related.IsDatabase(cur.Kind) {
		// The database's own delete drops its real database, once the delete
		// committed (docs/protocol.md#migrations).
		dbs, uid := en.Related.Databases, cur.UID
		store.AfterCommit(q, func() { _ = dbs.Drop(uid) })
	}
	en.gone.set(cur.UID)
	if err := store.AddCounter(q, "mutations", 1); err != nil {
		return err
	}
	if err := en.Related.Recompute(q, cur.Tenant, cur.Space, cur.APIVersion, cur.Kind, cur.Name, cur.UID, en.nowText(), fs); err != nil {
		return err
	}
	journal.Append(q, en.Now(), "mutation", journal.Deletion{Tenant: cur.Tenant, Space: cur.Space, Kind: cur.Kind,
		Name: cur.Name, UID: cur.UID, Deleted: true})
	return nil
}
