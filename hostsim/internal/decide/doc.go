// Package decide holds the lane's protocol decisions as plain functions over
// values (docs/protocol.md#order): the intent of a request and its fences,
// a Form transition's claim, capabilities, the prepare binding and its
// spending, the next state, the re-checks an accepted operation meets at
// commit, the operation's owner and the spec gate, each in a file of its own,
// and the order they are asked in (order.go). A decision answers a refusal (a
// *wire.Error, built by refusal.go) or its outcome; it never touches HTTP,
// the store or the fault table.
//
// The resource a decision weighs is a stored.Resource value its caller
// loaded. Where a fault can switch a rule off, the decision is handed the
// armed faults as plain values (Acts, faults.go) and asks its point,
// a.On(FenceIgnore), on a line of its own where the rule is decided; the
// caller counts and records the firings it acted on in its own transaction
// (fault.Set.Decide). A nil Acts enforces every rule.
package decide
