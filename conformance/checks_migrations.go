package conformance

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
)

// SQLite migration history (docs/protocol.md#migrations), measured from outside: a
// file that ran twice, a file whose effects outlived its failure, or a ledger row
// left by a failed file all make a later, correct set fail, so a black-box runner
// sees them without reading the database.

// migrationShape is an attachment Form with two top-level references: one to an
// artifact-addressed Form committing to an ordered manifest kind (the set), one to
// another Form (the database). Found by shape, never by kind.
type migrationShape struct {
	app           *catalog.Form
	set, db       *catalog.Form
	setKind       *wire.ManifestKind
	setRef, dbRef string // the two reference members of app's spec
}

// migrationForm finds the installed migration application Form.
func (p *Probe) migrationForm() (*migrationShape, error) {
	for _, f := range p.S.Forms {
		if f.Role != "attachment" || len(f.Relations) != 2 {
			continue
		}
		s := &migrationShape{app: f}
		for _, rel := range f.Relations {
			member := strings.TrimPrefix(rel.Pointer, "/")
			if strings.Contains(member, "/") {
				break
			}
			t, err := p.targetForm(rel)
			if err != nil {
				return nil, err
			}
			if mk, ok := wire.ManifestKindOf(t.Ref.Kind); ok && mk.Ordered && artifactAddressed(t) {
				s.set, s.setKind, s.setRef = t, mk, member
			} else {
				s.db, s.dbRef = t, member
			}
		}
		if s.set != nil && s.db != nil {
			return s, nil
		}
	}
	return nil, notApplicable("the host installs no migration application (an attachment referring to a database and to a set of ordered files)%s", p.S.foreignNote())
}

// sqlFile is one migration file.
type sqlFile struct{ path, sql string }

// migrationSet uploads files as a manifest of the set's kind and creates a set over it.
func (p *Probe) migrationSet(ctx context.Context, s *migrationShape, files ...sqlFile) (string, error) {
	mods := make([]module, len(files))
	for i, f := range files {
		mods[i] = module{Name: f.path, MediaType: s.setKind.MediaTypes[0], Bytes: []byte(f.sql)}
	}
	digest, err := p.upload(ctx, p.P, filesManifestOf(s.setKind.Kind, mods...), mods...)
	if err != nil {
		return "", setup("uploading the "+s.set.Ref.Kind+" manifest", err)
	}
	name := p.Name(slugPrefix(s.set))
	if _, err := p.create(ctx, s.set, name, map[string]any{s.set.Fields[0].Wire: digest}); err != nil {
		return "", setup("creating the "+s.set.Ref.Kind, err)
	}
	return name, nil
}

// applySet sends the create of an application of set to db; it returns the
// application's name and the raw answer.
func (p *Probe) applySet(ctx context.Context, s *migrationShape, db, set string) (string, *Resp, error) {
	name := p.Name(slugPrefix(s.app))
	spec := map[string]any{
		s.dbRef:  map[string]any{"apiVersion": s.db.Ref.APIVersion, "kind": s.db.Ref.Kind, "name": db},
		s.setRef: map[string]any{"apiVersion": s.set.Ref.APIVersion, "kind": s.set.Ref.Kind, "name": set},
	}
	r, err := p.apply(ctx, p.P, s.app.Ref, name, spec, "")
	return name, r, err
}

// applied applies set to db and requires it accepted and Ready; what is the rule that says so.
func (p *Probe) applied(ctx context.Context, s *migrationShape, db, set, what string) (string, error) {
	name, r, err := p.applySet(ctx, s, db, set)
	if err != nil {
		return "", err
	}
	res, err := p.settle(ctx, p.P, r, http.StatusCreated)
	if err != nil {
		return "", failf("%v (%s)", err, what)
	}
	if rd := readyOf(res); rd.Status != wire.StatusTrue {
		return "", failf("%s %q: Ready is %s %s (%s), expected True once the database's ledger equals its set (%s)",
			s.app.Ref.Kind, name, rd.Status, rd.Reason, rd.Message, what)
	}
	return name, nil
}

// migrationWorld is a fresh database and the shape.
func (p *Probe) migrationWorld(ctx context.Context) (*migrationShape, string, error) {
	s, err := p.migrationForm()
	if err != nil {
		return nil, "", err
	}
	db, err := p.makeFresh(ctx, s.db)
	if err != nil {
		return nil, "", err
	}
	return s, db.Metadata.Name, nil
}

// The files: each creates a table, so a file run twice fails.
func tableFile(n int, table string) sqlFile {
	return sqlFile{fmt.Sprintf("%04d_%s.sql", n, table), "CREATE TABLE " + table + " (id INTEGER PRIMARY KEY);\n"}
}

func checkSQLiteMigrationLedger(ctx context.Context, p *Probe) error {
	s, db, err := p.migrationWorld(ctx)
	if err != nil {
		return err
	}
	f1, f2, f3 := tableFile(1, "alpha"), tableFile(2, "beta"), tableFile(3, "gamma")
	first, err := p.migrationSet(ctx, s, f1, f2)
	if err != nil {
		return err
	}
	older, err := p.applied(ctx, s, db, first, "a set of two files must apply to a new database")
	if err != nil {
		return err
	}
	rewritten := sqlFile{f2.path, "CREATE TABLE beta (id INTEGER PRIMARY KEY, note TEXT);\n"}
	for _, c := range []struct {
		label string
		files []sqlFile
	}{
		{"rewrites applied file 2", []sqlFile{f1, rewritten, f3}},
		{"moves the applied files", []sqlFile{f2, f1, f3}},
		{"drops applied file 2", []sqlFile{f1, f3}},
	} {
		set, err := p.migrationSet(ctx, s, c.files...)
		if err != nil {
			return err
		}
		name, r, err := p.applySet(ctx, s, db, set)
		if err != nil {
			return err
		}
		if r.Status == http.StatusAccepted {
			if r, err = p.operationAnswer(ctx, r); err != nil {
				return err
			}
		}
		if err := expectCode(r, wire.CodeMigrationRequired); err != nil {
			return failf("%s (a set that %s of the database's ledger)", err, c.label)
		}
		if err := p.notCreated(ctx, s.app.Ref, name, "a set that "+c.label+" was refused"); err != nil {
			return err
		}
	}
	longer, err := p.migrationSet(ctx, s, f1, f2, f3)
	if err != nil {
		return err
	}
	if _, err := p.applied(ctx, s, db, longer, "a set appending a file to the applied ones must apply, running that file alone"); err != nil {
		return err
	}
	res, err := p.readResource(ctx, s.app.Ref, older)
	if err != nil {
		return err
	}
	if rd := readyOf(res); rd.Status != wire.StatusFalse {
		return failf("%s %q: Ready is %s after a longer set was applied to its database; an application is Ready only while the ledger equals its set",
			s.app.Ref.Kind, older, rd.Status)
	}
	return nil
}

func checkSQLiteMigrationResumes(ctx context.Context, p *Probe) error {
	s, db, err := p.migrationWorld(ctx)
	if err != nil {
		return err
	}
	f1, f3, f4 := tableFile(1, "alpha"), tableFile(3, "gamma"), tableFile(4, "delta")
	first, err := p.migrationSet(ctx, s, f1)
	if err != nil {
		return err
	}
	if _, err := p.applied(ctx, s, db, first, "a set of one file must apply to a new database"); err != nil {
		return err
	}
	// File 2 creates a table, then fails: its table must not survive it.
	broken := sqlFile{"0002_beta.sql", "CREATE TABLE beta (id INTEGER PRIMARY KEY);\nINSERT INTO conformance_no_such_table VALUES (1);\n"}
	set, err := p.migrationSet(ctx, s, f1, broken, f3)
	if err != nil {
		return err
	}
	name, r, err := p.applySet(ctx, s, db, set)
	if err != nil {
		return err
	}
	if r.Status == http.StatusAccepted {
		if r, err = p.operationAnswer(ctx, r); err != nil {
			return err
		}
	}
	if r.Status/100 == 2 || r.Err == nil {
		return failf("%s: a set whose file 2 fails must be refused with an error envelope; got %s", r.What(), r.Got())
	}
	if err := p.notCreated(ctx, s.app.Ref, name, "a set with a failing file was refused"); err != nil {
		return err
	}
	fixed, err := p.migrationSet(ctx, s, f1, tableFile(2, "beta"), f3, f4)
	if err != nil {
		return err
	}
	_, err = p.applied(ctx, s, db, fixed, "the fixed set must resume at the failed file and apply: file 1 stays applied, "+
		"the failed file left neither its table nor its ledger entry, and files 2 to 4 run")
	return err
}

// operationAnswer awaits an accepted operation and answers its outcome as a
// response: the resource (201) or the error envelope it ended with.
func (p *Probe) operationAnswer(ctx context.Context, r *Resp) (*Resp, error) {
	op, err := p.await(ctx, p.P, r)
	if err != nil {
		return nil, err
	}
	if op.Error == nil {
		return &Resp{Status: http.StatusCreated, Req: r.Req, Lane: r.Lane}, nil
	}
	e := &wire.Error{Code: op.Error.Code, Message: op.Error.Message}
	return &Resp{Status: e.Code.Status(), Err: e, Req: r.Req, Lane: r.Lane}, nil
}
