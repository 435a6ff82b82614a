package related

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/artifact"
	"github.com/takokit/takokit/hostsim/internal/decide"
	"github.com/takokit/takokit/hostsim/internal/fault"
	"github.com/takokit/takokit/hostsim/internal/rules"
	"github.com/takokit/takokit/hostsim/internal/sqldb"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// SQLite migration history (docs/protocol.md#migrations): what a migration
// application's pins name, the prefix proof before mutation, and its derived
// Ready (the ledger equals the set). Running the suffix is a commit's
// (internal/lifecycle).

// MigrationPlan is what a migration application's pins name: the database,
// the set and the set's ordered files.
type MigrationPlan struct {
	Database, Set  store.Pin
	Pointer        string // the set relation's pointer, where refusals point
	Manifest       *artifact.Manifest
	Files          []rules.MigrationFile
	DatabaseDesc   string // `SQLiteDatabase "db" (uid u-…)`, for messages
	SetDesc        string // `SQLiteMigrationSet "s" (manifest sha256:…)`
	entries        []artifact.Entry
	maxBundleBytes int64
}

// MigrationPlan reads the plan of a resource of Form ref with pins; nil when its
// kind applies no migrations or a pin is missing (a fault let a reference through).
// The set's manifest is held to the lowest ceilings of the set's Form and of
// ref's (docs/protocol.md#support), as a version's bundle is.
// A refusal is the set not resolving (a decision: the application's
// condition, or the request's answer); err is the host's store failing,
// which decides nothing and fails the write (Resolve).
func (g *G) MigrationPlan(q store.Q, tenant string, ref wire.FormRef, pins []store.Pin, fs *fault.Set) (plan *MigrationPlan, refusal *wire.Error, err error) {
	mr := roles.migration(ref.Kind)
	if mr == nil {
		return nil, nil, nil
	}
	dp, ok1 := pinAt(pins, mr.Database)
	sp, ok2 := pinAt(pins, mr.MigrationSet)
	if !ok1 || !ok2 {
		return nil, nil, nil
	}
	set, err := store.GetResourceByUID(q, sp.TargetUID)
	if err != nil {
		return nil, nil, err
	}
	br := roles.bundle(sp.TargetKind)
	if set == nil || br == nil {
		return nil, nil, nil
	}
	var spec map[string]any
	if err := json.Unmarshal(set.Spec, &spec); err != nil {
		return nil, nil, err
	}
	digest, _ := valueAt(spec, br.ManifestDigest).(string)
	p := &MigrationPlan{Database: dp, Set: sp, Pointer: mr.MigrationSet,
		DatabaseDesc: fmt.Sprintf("%s %q (uid %s)", dp.TargetKind, dp.TargetName, dp.TargetUID)}
	af, _ := g.host.Form(ref)
	man, files, max, err := g.resolveSet(q, tenant, set, af, mr.MigrationSet, digest, fs)
	if err != nil {
		refusal, err := split(err)
		return nil, refusal, err
	}
	if man == nil {
		return nil, nil, nil
	}
	p.Manifest, p.entries, p.maxBundleBytes = man, files, max
	p.SetDesc = fmt.Sprintf("%s %q (manifest %s)", sp.TargetKind, sp.TargetName, man.Digest)
	for _, f := range files {
		p.Files = append(p.Files, rules.MigrationFile{Path: f.Path, Digest: f.Digest})
	}
	return p, nil, nil
}

// resolveSet resolves a set's manifest for tenant, of the kind the set's Form
// commits to and under its ceilings and those of the application's Form af, and
// returns its ordered files and the most bytes one file may hold (nil: the
// set's kind commits to no manifest).
func (g *G) resolveSet(q store.Q, tenant string, set *store.Resource, af *catalog.Form, pointer, digest string, fs *fault.Set) (*artifact.Manifest, []artifact.Entry, int64, error) {
	want, ok := wire.ManifestKindOf(set.Kind)
	if !ok {
		return nil, nil, 0, nil
	}
	sf, _ := g.host.Form(decide.Ref(set))
	limits := g.FormLimits(sf, af)
	man, err := artifact.ResolveBundle(ArtifactStore(q, fs), artifact.Caller{Tenant: tenant, Faults: fs}, pointer, digest, want, limits)
	if err != nil {
		return nil, nil, 0, err
	}
	return man, man.Entries(), limits(want).Bytes, nil
}

// ledger reads a database's ledger; a database never created has an empty one.
func (g *G) ledger(uid string) ([]sqldb.Entry, error) {
	d, err := g.Databases.Existing(uid)
	if err != nil || d == nil {
		return nil, err
	}
	l, err := d.Ledger(context.Background())
	if errors.Is(err, sqldb.ErrDropped) {
		return nil, nil
	}
	return l, err
}

// ledgerFiles is a ledger by file identity.
func ledgerFiles(ledger []sqldb.Entry) []rules.MigrationFile {
	out := make([]rules.MigrationFile, len(ledger))
	for i, e := range ledger {
		out[i] = rules.MigrationFile{Path: e.Path, Digest: e.Digest}
	}
	return out
}

// ProvePrefix proves the ledger is an exact prefix of the plan's files and
// returns how many are applied (docs/protocol.md#migrations); otherwise
// migration_required, unless the fault migrations.diverged-ledger-accepted
// lets the set through (the files past the ledger's length then run).
func (g *G) ProvePrefix(p *MigrationPlan, ledger []sqldb.Entry, fs *fault.Set) (int, *wire.Error) {
	n, r := rules.LedgerPrefix(p.Pointer, ledgerFiles(ledger), p.Files, p.DatabaseDesc, p.SetDesc)
	if r == nil {
		return n, nil
	}
	if !fs.On(fault.MigrationsDivergedLedgerAccepted) {
		return 0, r.Wire()
	}
	return min(len(ledger), len(p.Files)), nil
}

// migrationRules is the prefix proof before mutation, on apply, import and
// every commit: a set the ledger is not a prefix of changes nothing.
func (g *G) migrationRules(q store.Q, m *decide.Mutation, pins []store.Pin, fs *fault.Set) *wire.Error {
	p, e, err := g.MigrationPlan(q, m.Tenant, m.Ref, pins, fs)
	if err != nil {
		return decide.Internal(err)
	}
	if e != nil || p == nil {
		return prefixedOrNil(m.What(), e)
	}
	ledger, err := g.ledger(p.Database.TargetUID)
	if err != nil {
		return decide.Internal(err)
	}
	if _, e := g.ProvePrefix(p, ledger, fs); e != nil {
		return prefixed(m.What(), e)
	}
	return nil
}

// MigrationSQL is the bytes of the plan's i-th file, as uploaded: the blob
// must hash to the declared digest and fit the declared size and the set's
// maximumBundleBytes, or nothing of it runs (artifact_invalid). err is the
// host's store failing to read the bytes (MigrationPlan).
func (g *G) MigrationSQL(q store.Q, p *MigrationPlan, i int, fs *fault.Set) (sql []byte, refusal *wire.Error, err error) {
	e := p.entries[i]
	data, ok, err := ArtifactStore(q, fs).BlobBytes(e.Digest)
	if err != nil {
		return nil, nil, err
	}
	switch {
	case !ok:
		return nil, decide.AtField(decide.Refuse(wire.CodeArtifactMissing, "migration file %d %q (%s) of %s is not stored", i+1, e.Path, e.Digest, p.SetDesc), p.Pointer), nil
	case int64(len(data)) != e.Size || wire.RawDigest(data) != e.Digest || int64(len(data)) > p.maxBundleBytes:
		return nil, decide.AtField(decide.Refuse(wire.CodeArtifactInvalid, "migration file %d %q of %s: the stored bytes (%d) do not match the declared size %d and digest %s, or exceed maximumBundleBytes %d",
			i+1, e.Path, p.SetDesc, len(data), e.Size, e.Digest, p.maxBundleBytes), p.Pointer), nil
	}
	return data, nil, nil
}

// ledgerReadiness is a migration application's derived Ready: True exactly
// when its database's ledger equals its set.
func (g *G) ledgerReadiness(q store.Q, r *store.Resource, pins []store.Pin, fs *fault.Set) (*Ready, error) {
	p, e, err := g.MigrationPlan(q, r.Tenant, decide.Ref(r), pins, fs)
	if err != nil {
		return nil, err // a failed read is the write's failure, not the application's condition
	}
	if e != nil {
		return &Ready{wire.StatusFalse, wire.ReasonFailed, "migration-set-unresolvable", e.Message}, nil
	}
	if p == nil {
		return nil, nil
	}
	ledger, err := g.ledger(p.Database.TargetUID)
	if err != nil {
		return nil, err
	}
	rd := rules.LedgerReadiness(ledgerFiles(ledger), p.Files, p.DatabaseDesc, p.SetDesc)
	st := wire.StatusFalse
	if rd.Ready {
		st = wire.StatusTrue
	}
	return &Ready{st, rd.Reason, rd.HostReason, rd.Message}, nil
}

func prefixedOrNil(what string, e *wire.Error) *wire.Error {
	if e == nil {
		return nil
	}
	return prefixed(what, e)
}
