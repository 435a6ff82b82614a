package hostview

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/takokit/takokit/hostsim/internal/journal"
	"github.com/takokit/takokit/hostsim/internal/store"
	"github.com/takokit/takokit/hostsim/internal/transition"
	"github.com/takokit/takokit/hostsim/internal/transition/backend"
)

// Transition is one operation of the Form transition ledger with what a
// person follows it by (docs/protocol.md#transitions): the backend calls
// made for it, the last crash point it reached, the journaled steps, and the
// proof, receipt or rejection it keeps.
type Transition struct {
	transition.OpState
	Dispatches int64 // backend calls made for it (the dispatch counter)
	// Reached is the last labelled step the ledger shows done: A (claimed),
	// B (dispatch fenced), C (backend evidence), D (proof), E (advanced);
	// Terminal is committed or rejected once the operation ended.
	Reached  string
	Terminal string
	Holding  bool            // the resource still holds this operation's claim
	Steps    []journal.Event // its journaled steps, oldest first (those the journal still keeps)
	// Proof, Receipt and Rejection are the stored documents (nil when absent).
	Proof, Receipt, Rejection json.RawMessage
}

// Claim is a resource a Form transition holds.
type Claim struct {
	Tenant, Space, APIVersion, Kind, Name, UID string
	OperationID, Since                         string
}

// Ledger is the Form transition ledger as a view shows it.
type Ledger struct {
	Transitions   []Transition
	Claims        []Claim
	Backend       []backend.Object
	BackendLedger []backend.Record
}

// TransitionLedger reads the ledger, the claims resources hold, the
// simulated backend, the dispatch counters and each operation's journaled
// steps (the newest 20,000 events are searched).
func (s *Source) TransitionLedger(ctx context.Context) (*Ledger, error) {
	tr, err := s.Transitions(ctx)
	if err != nil {
		return nil, err
	}
	c, err := s.Counters(ctx)
	if err != nil {
		return nil, err
	}
	out := &Ledger{Backend: tr.Backend, BackendLedger: tr.BackendLedger}
	docs := map[string]transition.Documents{}
	holding := map[string]bool{}
	err = s.Store.Read(ctx, func(q store.Q) error {
		if s.Ledger != nil {
			if docs, err = transition.LedgerDocuments(q); err != nil {
				return err
			}
		}
		rows, err := store.ListResources(q)
		for _, r := range rows {
			if r.ClaimOp != "" {
				holding[r.Tenant+"\x00"+r.ClaimOp] = true
				out.Claims = append(out.Claims, Claim{Tenant: r.Tenant, Space: r.Space, APIVersion: r.APIVersion, Kind: r.Kind,
					Name: r.Name, UID: r.UID, OperationID: r.ClaimOp, Since: r.ClaimSince})
			}
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	steps := s.transitionSteps()
	backend := map[string]bool{}
	for _, rec := range tr.BackendLedger {
		backend[rec.OperationID] = true
	}
	for _, op := range tr.Transitions {
		d := docs[op.Tenant+"\x00"+op.OperationID]
		t := Transition{OpState: op, Dispatches: c.Dispatch[op.OperationID], Holding: holding[op.Tenant+"\x00"+op.OperationID],
			Steps: steps[op.OperationID], Proof: d.Proof, Receipt: d.Receipt, Rejection: d.Rejection}
		t.Reached, t.Terminal = Reached(op, backend[op.OperationID], d.Receipt != nil)
		out.Transitions = append(out.Transitions, t)
	}
	return out, nil
}

// Reached derives the last crash point an operation passed from what the
// ledger durably shows (docs/protocol.md#transitions): a claim (A), the
// dispatch fence (B), backend evidence (C), a proof (D), the advance with its
// receipt (E). backendRecorded says the simulated backend's ledger holds an
// outcome for it; terminal is "committed" or "rejected" once it ended.
func Reached(op transition.OpState, backendRecorded, hasReceipt bool) (point, terminal string) {
	switch op.Status {
	case "committed":
		return "E", "committed"
	case "proven":
		if hasReceipt {
			return "E", ""
		}
		return "D", ""
	}
	if op.Status == "rejected" {
		terminal = "rejected"
	}
	switch {
	case op.DispatchAttempted && backendRecorded:
		return "C", terminal
	case op.DispatchAttempted:
		return "B", terminal
	default:
		return "A", terminal
	}
}

// transitionSteps groups the journal's transition events by operation.
func (s *Source) transitionSteps() map[string][]journal.Event {
	evs := s.RecentEvents(s.LastEvent(), journal.MaxEvents, func(ev journal.Event) bool { return ev.Type == "transition" })
	out := map[string][]journal.Event{}
	for _, ev := range evs {
		var d struct {
			OperationID string `json:"operationId"`
		}
		if json.Unmarshal(ev.Data, &d) == nil {
			out[d.OperationID] = append(out[d.OperationID], ev) // RecentEvents is oldest first
		}
	}
	return out
}

// StepName is the step label of a transition event ("A:claim", "committed").
func StepName(ev journal.Event) string {
	var d struct {
		Step string `json:"step"`
	}
	_ = json.Unmarshal(ev.Data, &d)
	return strings.TrimSpace(d.Step)
}
