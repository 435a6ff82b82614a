package admin

import (
	"net/http"

	"github.com/takokit/takokit/hostsim/internal/decide"
	"github.com/takokit/takokit/hostsim/internal/hostview"
	"github.com/takokit/takokit/hostsim/internal/sqldb"
)

// The JSON of GET /_sim/databases and /_sim/databases/{uid}
// (docs/protocol.md#migrations): each SQLiteDatabase's real database, its
// ledger and the shape of its tables.

type databaseState struct {
	Tenant     string        `json:"tenant"`
	Space      string        `json:"space"`
	APIVersion string        `json:"apiVersion"`
	Kind       string        `json:"kind"`
	Name       string        `json:"name"`
	UID        string        `json:"uid"`
	File       string        `json:"file,omitempty"` // absent: in memory
	Created    bool          `json:"created"`
	Ledger     []sqldb.Entry `json:"ledger"`
	Tables     []sqldb.Table `json:"tables"`
}

func databaseJSON(d hostview.Database) databaseState {
	return databaseState{Tenant: d.Tenant, Space: d.Space, APIVersion: d.APIVersion, Kind: d.Kind, Name: d.Name, UID: d.UID,
		File: d.File, Created: d.Created, Ledger: d.Ledger, Tables: d.Tables}
}

func (a *API) databases(w http.ResponseWriter, r *http.Request, _ string) error {
	list, err := a.State.Databases(r.Context())
	if err != nil {
		return err
	}
	out := []databaseState{}
	for _, d := range list {
		out = append(out, databaseJSON(d))
	}
	return writeJSON(w, 200, map[string]any{"location": a.State.DBs.Location(), "databases": out})
}

func (a *API) database(w http.ResponseWriter, r *http.Request, uid string) error {
	d, err := a.State.DatabaseByUID(r.Context(), uid)
	if err != nil {
		return err
	}
	if d == nil {
		return decide.NotFound("no SQLiteDatabase resource has uid %q; GET %s/databases lists them", uid, Prefix)
	}
	return writeJSON(w, 200, databaseJSON(*d))
}
