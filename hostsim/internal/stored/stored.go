// Package stored holds the value types of what hostsim stores and its
// decisions read: a resource incarnation and a long-running operation. They
// are plain values, with no store behind them, so the lane's decisions
// (package decide) take them without depending on the store; package store
// reads and writes them.
package stored

// Resource is one stored incarnation (docs/protocol.md#identity).
type Resource struct {
	Tenant, Space, APIVersion, Kind, Name string
	UID, DefVersion, SchemaDigest         string
	Generation, Revision                  int64
	Spec                                  []byte // JCS bytes of the materialized spec
	SpecDigest                            string
	NativeID                              string // "" = no claim
	ReadyStatus, ReadyReason              string
	ReadyHostReason, ReadyMessage         string
	ReadyLTT                              string
	Touches                               int64
	CreatedAt                             string
	// Pins counts the relation pins the resource holds (0: nothing to drift).
	Pins int64
	// ClaimOp is the Form transition holding the resource ("" = none), taken
	// at ClaimSince, read back at ClaimPath (docs/protocol.md#transitions).
	ClaimOp, ClaimSince, ClaimPath string
	// LastTransition is the last Form transition that advanced the resource.
	LastTransition string
}

// Operation is one long-running mutation (docs/protocol.md#operations).
type Operation struct {
	ID, Tenant, Principal string
	Action                string // apply | import | delete
	Kind, Name            string
	Request               []byte // the accepted request, replayed at commit
	TargetUID             string
	Polls                 int64
	CompleteAfter         int64 // polls until commit; <0 = only through the admin API
	Done                  bool
	Doc                   []byte // the Operation document as served
	CreatedAt             int64
}
