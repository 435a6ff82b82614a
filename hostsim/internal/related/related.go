// Package related holds the checks and the rendering that read other stored
// resources than the one a request names (docs/protocol.md#relations,
// #aggregate, #artifacts, #migrations): relations and bindings resolved and
// pinned, artifact resolution and handler export, the worker aggregate and
// attachment rules, hostname claims, the migration plan and its prefix
// proof, the delete dependency scans, and the derived rendering of Ready
// (drift, worker and ledger readiness) with the one bounded re-render pass
// after a mutation. Every decision is made on pinned uids, never on names.
// Its faults are asked on the request's fault.Set, in the request's write.
package related

import (
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/decide"
	"github.com/takokit/takokit/hostsim/internal/profile"
	"github.com/takokit/takokit/hostsim/internal/rules"
	"github.com/takokit/takokit/hostsim/internal/sqldb"
)

// G answers, for one host profile, what depends on other stored resources.
type G struct {
	host      *profile.Host
	contracts rules.HostContracts
	// Databases are the real databases of the SQLiteDatabase resources
	// (docs/protocol.md#migrations); New gives a private in-memory set.
	Databases *sqldb.Registry
	decoded   decoded // specs and refs the relation rules read again, decoded once (decoded.go)
}

// New builds the related checks of a resolved host profile.
func New(h *profile.Host) *G {
	return &G{host: h, Databases: sqldb.NewRegistry(""), contracts: rules.HostContracts{
		Catalog: h.Cat,
		BindingImplemented: func(ref wire.BindingRef) bool {
			b, ok := h.Binding(ref.Name, ref.Version)
			return ok && b.Ref == ref
		},
		InterfaceImplemented: h.Implements,
	}}
}

// Refusal turns a rules or artifact refusal into the wire refusal; any other
// error is the host's store failing. The artifact reader and the store never
// answer a *wire.Error of their own: their refusals are *rules.Refusal.
func Refusal(err error) *wire.Error {
	if r, ok := rules.AsRefusal(err); ok {
		return r.Wire()
	}
	return decide.Internal(err)
}

// split parts an error out of the artifact reader into a refusal (a
// decision about the request) and the host failing (a store read that
// failed), which callers must not take for each other: the reader returns
// its refusals as *rules.Refusal, and any other error is the store's.
func split(err error) (*wire.Error, error) {
	if r, ok := rules.AsRefusal(err); ok {
		return r.Wire(), nil
	}
	return nil, err
}

// prefixed names the resource a rules refusal is about.
func prefixed(what string, e *wire.Error) *wire.Error {
	if e.Code != wire.CodeInternalError {
		e.Message = what + ": " + e.Message
	}
	return e
}
