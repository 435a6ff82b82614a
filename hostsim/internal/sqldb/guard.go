package sqldb

import (
	"slices"
	"strings"

	"modernc.org/sqlite"
)

// guard is the authorizer of a database's connection. While a migration file
// runs it refuses what a file must not do (docs/protocol.md#migrations): end or
// open the host's transaction, attach another database (hostsim's own store
// included), write the ledger, or set a pragma that changes how the database is
// stored. Outside a file (the host's own BEGIN, ledger row, COMMIT and reads)
// it allows everything. SQLite calls it synchronously while a statement is
// prepared, on the goroutine that holds the database's lock.
//
// It also refuses a TEMP table, view, trigger or index: the temp schema is
// another database, kept by the host's one connection across files until the
// host restarts, so a file's temp object would change what the next files do
// before a restart and not after, and one named as the ledger would take the
// host's ledger rows out of the database (docs/protocol.md#migrations).
type guard struct {
	active bool
	denied string // why the last refused statement was refused
}

// enter starts guarding a file; leave stops and returns what was refused ("" = nothing).
func (g *guard) enter() { g.active, g.denied = true, "" }

func (g *guard) leave() string {
	g.active = false
	return g.denied
}

// pragmas are the pragmas a migration file may use: schema and data checks and
// settings of the schema's own meaning.
var pragmas = []string{"application_id", "defer_foreign_keys", "foreign_key_check", "foreign_key_list", "foreign_keys",
	"index_info", "index_list", "index_xinfo", "integrity_check", "legacy_alter_table", "quick_check",
	"recursive_triggers", "table_info", "table_list", "table_xinfo", "user_version"}

// creates are the actions that make a schema object; SQLite names the database
// it goes in, "temp" for the temp schema whether or not the statement says TEMP.
var creates = []sqlite.AuthorizerActionCode{sqlite.AuthCreateTable, sqlite.AuthCreateTempTable, sqlite.AuthCreateView,
	sqlite.AuthCreateTempView, sqlite.AuthCreateIndex, sqlite.AuthCreateTempIndex, sqlite.AuthCreateTrigger,
	sqlite.AuthCreateTempTrigger, sqlite.AuthCreateVTable}

func (g *guard) authorize(action sqlite.AuthorizerActionCode, arg1, arg2, db, _ string) sqlite.AuthorizerReturnCode {
	if !g.active {
		return sqlite.AuthorizerOK
	}
	ledger := func(name string) bool { return strings.EqualFold(name, LedgerTable) }
	switch {
	case action == sqlite.AuthTransaction:
		g.denied = "transaction control (" + strings.ToUpper(arg1) + "): the host runs each migration file in one transaction of its own, with its ledger row"
	case action == sqlite.AuthAttach || action == sqlite.AuthDetach:
		g.denied = "ATTACH or DETACH: a migration file changes its own database and no other"
	case db == "temp" && slices.Contains(creates, action):
		g.denied = "a TEMP object (" + arg1 + "): it would outlive the file on the host's connection until a restart; " +
			"make it a table of the database and drop it before the file ends"
	// SQLite asks a DROP TABLE also as a DELETE of the table's rows, which the
	// first line refuses for the ledger
	case (action == sqlite.AuthInsert || action == sqlite.AuthUpdate || action == sqlite.AuthDelete ||
		action == sqlite.AuthCreateTable) && ledger(arg1),
		(action == sqlite.AuthAlterTable || action == sqlite.AuthCreateTrigger || action == sqlite.AuthCreateIndex) && ledger(arg2):
		g.denied = "a change of " + LedgerTable + ": the migration ledger is the host's, written only with each applied file"
	case action == sqlite.AuthPragma && !slices.Contains(pragmas, strings.ToLower(arg1)):
		g.denied = "PRAGMA " + arg1 + ": a migration file may use only " + strings.Join(pragmas, ", ")
	default:
		return sqlite.AuthorizerOK
	}
	return sqlite.AuthorizerDeny
}
