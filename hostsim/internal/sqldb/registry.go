// Package sqldb holds the real SQLite databases behind SQLiteDatabase resources
// (docs/protocol.md#migrations): one database per resource incarnation (uid), in
// SQLite's memory VFS by default or one file per uid beside the host's --db file,
// each carrying the host's migration ledger in a table of its own. It runs the SQL
// it is given and reads what the admin views show; which files may run, and in
// what order, is decided by the migration rules (internal/rules, internal/related,
// internal/lifecycle). hostsim's own store never shares a connection with these
// databases, and a migration file cannot attach another database.
package sqldb

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/takokit/takokit/catalog/wire"
)

// Registry is the databases of one host, opened on first use and kept open
// until they are dropped or the host closes.
type Registry struct {
	dir    string // "" = in memory; else one <uid>.sqlite file per database
	mu     sync.Mutex
	open   map[string]*Database
	closed bool
}

// NewRegistry returns the registry of a host whose store is at storePath: ""
// keeps every database in memory (gone when the host closes); a file path keeps
// them in storePath + ".databases/", so a restart on the same --db file finds
// each database, its tables and its ledger again.
func NewRegistry(storePath string) *Registry {
	r := &Registry{open: map[string]*Database{}}
	if storePath != "" {
		r.dir = storePath + ".databases"
	}
	return r
}

// Location says where the databases live: "memory", or their directory.
func (r *Registry) Location() string {
	if r.dir == "" {
		return "memory"
	}
	return r.dir
}

// where is the file of uid's database ("" in memory).
func (r *Registry) where(uid string) string {
	if r.dir == "" {
		return ""
	}
	return filepath.Join(r.dir, uid+".sqlite")
}

// Open returns uid's database, creating it (with an empty ledger) when it does
// not exist yet.
func (r *Registry) Open(uid string) (*Database, error) {
	return r.get(uid, true)
}

// Existing returns uid's database, or nil when it was never created: reading
// a database never creates it.
func (r *Registry) Existing(uid string) (*Database, error) {
	return r.get(uid, false)
}

func (r *Registry) get(uid string, create bool) (*Database, error) {
	if !wire.ValidUID(uid) {
		return nil, fmt.Errorf("%q is not a resource uid; a database is named by its SQLiteDatabase's uid", uid)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return nil, errors.New("the host's databases are closed")
	}
	if d := r.open[uid]; d != nil {
		return d, nil
	}
	path := r.where(uid)
	if !create {
		if path == "" {
			return nil, nil
		}
		if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
			return nil, nil
		}
	}
	if path != "" {
		if err := os.MkdirAll(r.dir, 0o755); err != nil {
			return nil, fmt.Errorf("create the databases directory %s: %w", r.dir, err)
		}
	}
	d, err := openDatabase(uid, path)
	if err != nil {
		return nil, err
	}
	r.open[uid] = d
	return d, nil
}

// Drop closes uid's database and removes it: its tables, its ledger and, on
// disk, its file. Dropping a database that does not exist does nothing.
func (r *Registry) Drop(uid string) error {
	r.mu.Lock()
	d := r.open[uid]
	delete(r.open, uid)
	r.mu.Unlock()
	var errs []error
	if d != nil {
		errs = append(errs, d.close())
	}
	if path := r.where(uid); path != "" && wire.ValidUID(uid) {
		errs = append(errs, removeFiles(path))
	}
	return errors.Join(errs...)
}

// DropAll drops every database (POST /_sim/reset).
func (r *Registry) DropAll() error {
	uids, err := r.UIDs()
	if err != nil {
		return err
	}
	var errs []error
	for _, uid := range uids {
		errs = append(errs, r.Drop(uid))
	}
	return errors.Join(errs...)
}

// Sweep drops the databases whose uid live reports gone: what a host stopped
// between a database's delete and its drop left behind.
func (r *Registry) Sweep(live func(uid string) (bool, error)) error {
	uids, err := r.UIDs()
	if err != nil {
		return err
	}
	for _, uid := range uids {
		ok, err := live(uid)
		if err != nil {
			return err
		}
		if !ok {
			if err := r.Drop(uid); err != nil {
				return err
			}
		}
	}
	return nil
}

// UIDs lists the uids of the databases that exist, sorted.
func (r *Registry) UIDs() ([]string, error) {
	r.mu.Lock()
	seen := map[string]bool{}
	for uid := range r.open {
		seen[uid] = true
	}
	r.mu.Unlock()
	if r.dir != "" {
		entries, err := os.ReadDir(r.dir)
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
		for _, e := range entries {
			if uid, ok := strings.CutSuffix(e.Name(), ".sqlite"); ok && wire.ValidUID(uid) {
				seen[uid] = true
			}
		}
	}
	out := make([]string, 0, len(seen))
	for uid := range seen {
		out = append(out, uid)
	}
	sort.Strings(out)
	return out, nil
}

// Close closes every open database; in memory they are gone afterwards, on
// disk their files stay for the next start.
func (r *Registry) Close() error {
	r.mu.Lock()
	open := r.open
	r.open, r.closed = map[string]*Database{}, true
	r.mu.Unlock()
	var errs []error
	for _, d := range open {
		errs = append(errs, d.close())
	}
	return errors.Join(errs...)
}

// removeFiles removes a database file and the journal files SQLite keeps beside it.
func removeFiles(path string) error {
	var errs []error
	for _, p := range []string{path, path + "-journal", path + "-wal", path + "-shm"} {
		if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
