package lifecycle

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/decide"
	"github.com/takokit/takokit/hostsim/internal/fault"
	"github.com/takokit/takokit/hostsim/internal/journal"
	"github.com/takokit/takokit/hostsim/internal/related"
	"github.com/takokit/takokit/hostsim/internal/sqldb"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// DefaultMigrationTimeout bounds one migration file's SQL (Engine.MigrationTimeout).
const DefaultMigrationTimeout = 10 * time.Second

// Migrate is what committing a migration application does to its database
// (docs/protocol.md#migrations), right before the commit of o on apply,
// import and a 202's settle: holding the database, it proves the ledger is
// an exact prefix of the set again, then runs only the unapplied suffix, each
// file's SQL and its ledger row in one SQLite transaction. A file that fails
// rolls back alone; the files before it stay applied. Migrate records what
// moved in q (journal events, the re-rendering of the database's other
// applications) and returns the refusal the request answers with (a failed
// file, a prefix no longer proven, the database itself failing); the caller
// then commits q without committing o. err is the host's store failing, which
// fails the write: nothing of it is kept, as everywhere, except the journal's
// telling of the database's commits, which stay (migrationRun.journal).
// Nothing happens for a resource that applies no migrations.
func (en *Engine) Migrate(q store.Q, o *Outcome, fs *fault.Set) (refusal *wire.Error, err error) {
	n := o.Next
	pins := o.pins
	if !o.repin {
		if pins, err = store.PinsOf(q, n.UID); err != nil {
			return nil, err
		}
	}
	p, e, err := en.Related.MigrationPlan(q, n.Tenant, decide.Ref(n), pins, fs)
	if err != nil || e != nil || p == nil {
		return e, err
	}
	what := decide.Describe(n.Kind, n.Name, n.Space)
	db, err := en.Related.Databases.Open(p.Database.TargetUID)
	if err != nil {
		return nil, err
	}
	run := &migrationRun{en: en, q: q, p: p, fs: fs, app: n, what: what, created: o.Created}
	xerr := db.Exclusive(context.Background(), run.suffix)
	// what the run did in the database stays done whatever fails after it:
	// the journal tells of it even when the write rolls back
	run.journal()
	if run.store != nil {
		return nil, run.store
	}
	if err := run.rerender(); err != nil {
		return nil, err
	}
	if xerr != nil {
		return run.databaseFailed(xerr), nil
	}
	return run.failed, nil
}

// migrationRun is one application's suffix run, under its database's lock.
type migrationRun struct {
	en      *Engine
	q       store.Q
	p       *related.MigrationPlan
	fs      *fault.Set
	app     *store.Resource
	created bool // the application is new: a failure leaves nothing of it
	what    string
	ledger  int           // entries before the run
	read    bool          // the ledger was read
	applied []sqldb.Entry // entries this run committed
	failed  *wire.Error
	store   error  // the host's store failed reading a file's bytes
	failure string // the failed file's error, for the journal
	index   int    // the failed file's index in the set
}

// suffix proves the prefix and runs the unapplied files in order.
func (r *migrationRun) suffix(s *sqldb.Session) error {
	s.Inject(r.fs.DatabaseStep)
	ledger, err := s.Ledger()
	if err != nil {
		return err
	}
	r.ledger, r.read = len(ledger), true
	start, e := r.en.Related.ProvePrefix(r.p, ledger, r.fs)
	if e != nil {
		r.failed = prefixed(r.what, e)
		return nil
	}
	for i := start; i < len(r.p.Files); i++ {
		sql, e, err := r.en.Related.MigrationSQL(r.q, r.p, i, r.fs)
		if err != nil {
			r.store = err
			return nil
		}
		if e != nil {
			r.failed, r.index, r.failure = prefixed(r.what, e), i, e.Message
			return nil
		}
		f := r.p.Files[i]
		entry := sqldb.Entry{Seq: int64(len(ledger) + len(r.applied) + 1), Path: f.Path, Digest: f.Digest,
			ManifestDigest: r.p.Manifest.Digest, AppliedAt: r.en.nowText()}
		var ferr error
		if i == start+1 {
			if r.fs.On(fault.MigrationsFailMidSuffix) {
				ferr = &sqldb.FileError{Err: errors.New("hostsim fault migrations.fail-mid-suffix: the file failed as if its SQL errored")}
			}
		}
		if ferr == nil {
			ferr = s.Apply(sqldb.File{Path: f.Path, Digest: f.Digest, SQL: sql}, entry, r.en.migrationTimeout())
		}
		var fe *sqldb.FileError
		if errors.As(ferr, &fe) {
			r.failed, r.index, r.failure = r.fileFailed(i, fe), i, fe.Error()
			return nil
		}
		if ferr != nil {
			return ferr
		}
		r.applied = append(r.applied, entry)
	}
	return nil
}

// fileFailed is the refusal of a file that failed: it names the file, what
// stayed applied and what to do.
func (r *migrationRun) fileFailed(i int, fe *sqldb.FileError) *wire.Error {
	f := r.p.Files[i]
	code, hostCode := wire.CodeInvalidArgument, "migration_file_failed"
	if fe.Timeout > 0 {
		code, hostCode = wire.CodeDeadlineExceeded, "migration_file_timeout"
	}
	var ran []string
	for i, a := range r.applied {
		if i == 5 {
			ran = append(ran, fmt.Sprintf("and %d more", len(r.applied)-i))
			break
		}
		ran = append(ran, fmt.Sprintf("%q", a.Path))
	}
	thisRun := "this request applied none before it"
	if len(ran) > 0 {
		thisRun = "this request applied " + strings.Join(ran, ", ")
	}
	app := "the application was not created"
	if !r.created {
		app = "the application is as it was"
	}
	e := wire.NewError(code, fmt.Sprintf("%s: migration file %d of %d, %q (%s) of %s, failed on %s: %s. "+
		"The file was rolled back alone: the database keeps the %d file(s) applied before it (%s), and %s. "+
		"Fix the file in a new migration set that keeps the applied files unchanged and in order, and apply again: "+
		"the application resumes at this file", r.what, i+1, len(r.p.Files), f.Path, f.Digest, r.p.SetDesc, r.p.DatabaseDesc,
		fe.Error(), r.ledger+len(r.applied), thisRun, app))
	e.Retryable, e.HostCode = false, hostCode // the same set fails the same way again
	return decide.AtField(e, r.p.Pointer)
}

// databaseFailed is the refusal of a run the database itself failed (its
// storage, not a file): the host's failure, which names the application, the
// database and what stayed applied, and says that applying again resumes.
func (r *migrationRun) databaseFailed(err error) *wire.Error {
	held := "before its ledger could be read"
	if r.read {
		held = fmt.Sprintf("with %d of the set's %d files in its ledger (this request applied %d; they stay applied, "+
			"the file in flight was rolled back)", r.ledger+len(r.applied), len(r.p.Files), len(r.applied))
	}
	return prefixed(r.what, decide.Internal(fmt.Errorf("the database %s failed while applying %s, %s, and the "+
		"application is not stored: the same request sent again (or the next poll of its operation) resumes after the "+
		"ledger. The failure: %w", r.p.DatabaseDesc, r.p.SetDesc, held, err)))
}

// journal tells what the run did in the database: a "migration" event for
// each file it committed and a "migration-failed" event for the file that
// failed. They are lasting events (journal.AppendLasting): the database's
// commits do not roll back with the host's write, so a write that then fails
// (the host's store) still journals them, and the request sent again, which
// resumes after the ledger, journals only the files it applies — each file
// once (docs/protocol.md#migrations).
func (r *migrationRun) journal() {
	now := r.en.Now()
	base := func() map[string]any {
		return map[string]any{"tenant": r.app.Tenant, "space": r.app.Space, "kind": r.p.Database.TargetKind,
			"name": r.p.Database.TargetName, "uid": r.p.Database.TargetUID, "application": r.app.Kind + " " + r.app.Name,
			"set": r.p.Set.TargetName, "manifestDigest": r.p.Manifest.Digest, "of": len(r.p.Files)}
	}
	for _, a := range r.applied {
		d := base()
		d["file"], d["digest"], d["seq"], d["index"] = a.Path, a.Digest, a.Seq, a.Seq // the ledger is the set's prefix
		journal.AppendLasting(r.q, now, "migration", d)
	}
	if r.failure != "" {
		d := base()
		d["file"], d["index"], d["error"] = r.p.Files[r.index].Path, r.index+1, r.failure
		journal.AppendLasting(r.q, now, "migration-failed", d)
	}
}

// rerender re-renders the other applications of the database (their Ready
// follows the ledger). It re-renders even when this run applied nothing: a
// run whose files committed but whose write then failed (the host's store)
// left them rendered against the old ledger, and the request sent again,
// which finds nothing to apply, must repair them.
func (r *migrationRun) rerender() error {
	dp := r.p.Database
	return r.en.Related.Recompute(r.q, r.app.Tenant, r.app.Space, dp.TargetAPIVersion, dp.TargetKind, dp.TargetName,
		r.app.UID, r.en.nowText(), r.fs)
}

// prefixed names the resource a refusal is about.
func prefixed(what string, e *wire.Error) *wire.Error {
	if !strings.HasPrefix(e.Message, what) {
		e.Message = what + ": " + e.Message
	}
	return e
}

func (en *Engine) migrationTimeout() time.Duration {
	if en.MigrationTimeout > 0 {
		return en.MigrationTimeout
	}
	return DefaultMigrationTimeout
}
