package transition

import (
	"time"

	"github.com/takokit/takokit/hostsim/internal/store"
	"github.com/takokit/takokit/hostsim/internal/transition/backend"
)

// OpState is one operation of the ledger as /_sim/state shows it (docs/protocol.md#admin).
type OpState struct {
	OperationID       string  `json:"operationId"`
	Tenant            string  `json:"tenant"`
	Space             string  `json:"space"`
	APIVersion        string  `json:"apiVersion"`
	Kind              string  `json:"kind"`
	Name              string  `json:"name"`
	UID               string  `json:"uid"`
	Status            string  `json:"status"`
	DispatchAttempted bool    `json:"dispatchAttempted"`
	DispatchedAt      *string `json:"dispatchedAt"`
	// AwaitingEvidence: dispatched, no backend evidence, not terminal.
	AwaitingEvidence bool `json:"awaitingEvidence"`
	// AckDeadlinePassed: dispatched at least the ack deadline ago.
	AckDeadlinePassed bool   `json:"ackDeadlinePassed"`
	FailureCode       string `json:"failureCode,omitempty"`
}

// State is what /_sim/state shows of the transitions.
type State struct {
	Transitions   []OpState        // the operation ledger, one entry per operation
	Backend       []backend.Object // the backend's native objects
	BackendLedger []backend.Record // the backend's own ledger
}

// State is the transition ledger and the backend.
func (s *Service) State(q store.Q, now time.Time) (*State, error) {
	rows, err := listOps(q)
	if err != nil {
		return nil, err
	}
	out := []OpState{}
	for _, r := range rows {
		o := OpState{OperationID: r.OperationID, Tenant: r.Tenant, Space: r.Space, APIVersion: r.APIVersion, Kind: r.Kind,
			Name: r.Name, UID: r.PreUID, Status: r.Status, DispatchAttempted: r.DispatchAttempted, FailureCode: r.FailureCode}
		if r.DispatchAttempted {
			at := time.Unix(0, r.DispatchedAt).UTC().Format(time.RFC3339Nano)
			o.DispatchedAt = &at
			o.AckDeadlinePassed = now.Sub(time.Unix(0, r.DispatchedAt)) >= s.ack
			if r.Status == statusPrepared {
				ev, err := backend.ReadEvidence(q, r.OperationID)
				if err != nil {
					return nil, err
				}
				o.AwaitingEvidence = ev.Outcome == ""
			}
		}
		out = append(out, o)
	}
	objs, recs, err := backend.State(q)
	if err != nil {
		return nil, err
	}
	return &State{Transitions: out, Backend: objs, BackendLedger: recs}, nil
}
