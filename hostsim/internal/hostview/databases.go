package hostview

import (
	"context"
	"errors"

	"github.com/takokit/takokit/hostsim/internal/related"
	"github.com/takokit/takokit/hostsim/internal/sqldb"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// Database is the real database of one SQLiteDatabase resource as the admin
// sees it (docs/protocol.md#migrations): where it lives, its migration ledger
// and the shape of its tables (never their rows).
type Database struct {
	Tenant, Space, APIVersion, Kind, Name, UID string
	// File is the database's file; "" in memory.
	File string
	// Created is false until the first migration application created it.
	Created bool
	Ledger  []sqldb.Entry
	Tables  []sqldb.Table
}

// Databases lists the database of every SQLiteDatabase resource, in the order
// of Resources.
func (s *Source) Databases(ctx context.Context) ([]Database, error) {
	var rows []*store.Resource
	err := s.Store.Read(ctx, func(q store.Q) error {
		all, err := store.ListResources(q)
		for _, r := range all {
			if related.IsDatabase(r.Kind) {
				rows = append(rows, r)
			}
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	out := make([]Database, 0, len(rows))
	for _, r := range rows {
		d, err := s.database(ctx, r.Tenant, r.Space, r.APIVersion, r.Kind, r.Name, r.UID)
		if err != nil {
			return nil, err
		}
		out = append(out, *d)
	}
	return out, nil
}

// DatabaseOf is the database of r, or nil when r is not a database.
func (s *Source) DatabaseOf(ctx context.Context, r *Resource) (*Database, error) {
	if !related.IsDatabase(r.Kind) {
		return nil, nil
	}
	return s.database(ctx, r.Tenant, r.Space, r.APIVersion, r.Kind, r.Name, r.UID)
}

func (s *Source) database(ctx context.Context, tenant, space, apiVersion, kind, name, uid string) (*Database, error) {
	out := &Database{Tenant: tenant, Space: space, APIVersion: apiVersion, Kind: kind, Name: name, UID: uid,
		Ledger: []sqldb.Entry{}, Tables: []sqldb.Table{}}
	d, err := s.DBs.Existing(uid)
	if err != nil || d == nil {
		return out, err
	}
	out.File, out.Created = d.Path, true
	if out.Ledger, err = d.Ledger(ctx); err == nil {
		out.Tables, err = d.Tables(ctx)
	}
	if errors.Is(err, sqldb.ErrDropped) { // deleted while we looked
		return &Database{Tenant: tenant, Space: space, APIVersion: apiVersion, Kind: kind, Name: name, UID: uid,
			Ledger: []sqldb.Entry{}, Tables: []sqldb.Table{}}, nil
	}
	return out, err
}

// DatabaseByUID is the database of the SQLiteDatabase resource with uid, or
// nil when no live database resource has it.
func (s *Source) DatabaseByUID(ctx context.Context, uid string) (*Database, error) {
	var r *store.Resource
	err := s.Store.Read(ctx, func(q store.Q) (err error) {
		r, err = store.GetResourceByUID(q, uid)
		return err
	})
	if err != nil || r == nil || !related.IsDatabase(r.Kind) {
		return nil, err
	}
	return s.database(ctx, r.Tenant, r.Space, r.APIVersion, r.Kind, r.Name, r.UID)
}
