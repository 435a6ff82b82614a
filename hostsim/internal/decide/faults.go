package decide

// The faults a decision can act on (docs/protocol.md#faults). A decision
// never reads the fault table or the store: its caller, where the request's
// write transaction is, resolves which of these are armed for the request
// into Acts (fault.Set.Decide), the decision asks a.On(Fault) on a line of its
// own exactly where the rule it breaks is decided, and the caller then counts
// and records a firing for each time one acted. Each is the Decision of one
// rule of hostsim/internal/fault/table.go.
const (
	_ Fault = iota
	// fences.go, intent.go
	FenceIgnore
	IfMatchIgnore
	UIDIgnoreExpected
	CreateOverwrite
	DeleteRevisionFenced
	FormRefAnyVersion
	CommitSkipFences
	CommitSkipIdentity
	// claims.go
	TransitionNoClaim
	// capability.go
	CapabilityIgnore
	ImmutableIgnore
	// prepare.go
	PrepareHostWide
	PrepareNoFence
	PrepareUnbound
	// nextstate.go
	UIDInvalid
	UIDReuse
	GenerationFrozen
	GenerationOnStatus
	// operations.go
	OperationTenantWide
	// gate.go, gate_faults.go
	HandlersOpenVocabulary
	HostnameIDNAMap
	HostnameAsSent
	CronPatternOnly

	faultCount // one past the last
)

// Fault is one fault a decision can act on.
type Fault uint8

// Faults is how many kinds of Fault there are, for a caller that keeps one
// value per Fault.
const Faults = int(faultCount)

// Acts is what a decision may do against the rules, as plain values: how
// many firings each armed fault has left (below zero: always; zero: not
// armed), and how often the decision acted on each. A nil or zero Acts
// enforces every rule. Acts are not shared between goroutines.
type Acts struct {
	left  [faultCount]int32
	fired [faultCount]int32
	acted bool
}

// Arm makes f available to the decision with left firings (< 0: always).
func (a *Acts) Arm(f Fault, left int32) { a.left[f] = left }

// On is the point of fault f: it reports whether f acts here, and when it
// does the decision has acted on it once (one firing).
func (a *Acts) On(f Fault) bool {
	if a == nil || a.left[f] == 0 {
		return false
	}
	if a.left[f] > 0 {
		a.left[f]--
	}
	a.fired[f]++
	a.acted = true
	return true
}

// Fired is how often the decision acted on f.
func (a *Acts) Fired(f Fault) int32 {
	if a == nil {
		return 0
	}
	return a.fired[f]
}

// Acted reports whether the decision acted on any fault.
func (a *Acts) Acted() bool { return a != nil && a.acted }

// Left is how many firings f has left for the decision (< 0: always).
func (a *Acts) Left(f Fault) int32 {
	if a == nil {
		return 0
	}
	return a.left[f]
}
