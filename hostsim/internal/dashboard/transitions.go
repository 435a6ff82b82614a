package dashboard

import (
	"net/http"
	"strings"

	"github.com/takokit/takokit/hostsim/internal/hostview"
)

// crashPoints are the labelled steps of a Form transition, in order
// (docs/protocol.md#transitions).
var crashPoints = []struct{ Label, Step string }{
	{"A", "claim"}, {"B", "dispatch fence"}, {"C", "backend"}, {"D", "proof"}, {"E", "advance"},
}

type transitionsData struct {
	Rows   []transitionRow
	Ledger *hostview.Ledger
}

type transitionRow struct {
	hostview.Transition
	Link   string
	Points []pointView
}

type pointView struct {
	Label, Step, Class string // Class: done, reached (the last one passed) or todo
}

// transitionsPage is the Form transition ledger: each operation with the
// crash point it reached, its backend calls, claim, proof and receipt; the
// claims resources hold; the simulated backend and its ledger.
func (u *UI) transitionsPage(w http.ResponseWriter, r *http.Request, s *session, _ []string) error {
	p := u.newPage(r, s, "transitions", "Form transitions")
	l, err := u.State.TransitionLedger(r.Context())
	if err != nil {
		return err
	}
	d := &transitionsData{Ledger: l}
	for i := len(l.Transitions) - 1; i >= 0; i-- { // newest first
		t := l.Transitions[i]
		row := transitionRow{Transition: t, Link: resourceURL(t.Tenant, t.Space, t.APIVersion, t.Kind, t.Name)}
		passed := true
		for _, cp := range crashPoints {
			class := "todo"
			if passed {
				class = "done"
			}
			if cp.Label == t.Reached {
				class, passed = "reached", false
			}
			row.Points = append(row.Points, pointView{Label: cp.Label, Step: cp.Step, Class: class})
		}
		d.Rows = append(d.Rows, row)
	}
	p.Data = d
	return u.render(w, http.StatusOK, "transitions", p)
}

// statusClass colours a ledger status.
func statusClass(status string) string {
	switch strings.ToLower(status) {
	case "committed", "succeeded", "true":
		return "ok"
	case "rejected", "failed", "false", "cancelled":
		return "bad"
	}
	return "warn"
}
