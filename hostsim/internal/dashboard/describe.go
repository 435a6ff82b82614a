package dashboard

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/takokit/takokit/hostsim/internal/fault"
	"github.com/takokit/takokit/hostsim/internal/hostview"
	"github.com/takokit/takokit/hostsim/internal/journal"
)

// summary is one line saying what a journal event tells, for the live feeds.
func summary(ev journal.Event) string {
	var d struct {
		Method, Route, Tenant, Space, Kind, Name, UID, Step, ID string
		Status                                                  int
		Generation, Revision                                    int64
		Created, Changed, Deleted, Failed                       bool
		Fault                                                   *fault.Spec
		RequestID                                               string `json:"requestId"`
		Resource                                                string
		OperationID                                             string `json:"operationId"`
		Action                                                  string
		File, Application, Error                                string
		Seq, Index, Of                                          int64
	}
	_ = json.Unmarshal(ev.Data, &d)
	sub := hostview.EventSubject(ev)
	what := strings.TrimSpace(sub.Kind + " " + sub.Name)
	where := ""
	if d.Tenant != "" && d.Space != "" {
		where = " in " + d.Tenant + "/" + d.Space
	}
	switch ev.Type {
	case "request":
		s := d.Method + " " + d.Route
		if what != "" {
			s += " " + what
		}
		return fmt.Sprintf("%s → %d (%s)", s, d.Status, orNone(d.Tenant))
	case "mutation":
		switch {
		case d.Deleted:
			return "deleted " + what + where
		case d.Created:
			return fmt.Sprintf("created %s%s (generation %d, revision %d)", what, where, d.Generation, d.Revision)
		case d.Changed:
			return fmt.Sprintf("updated %s%s (generation %d, revision %d)", what, where, d.Generation, d.Revision)
		}
		return fmt.Sprintf("applied %s%s unchanged (generation %d, revision %d)", what, where, d.Generation, d.Revision)
	case "fault":
		name := "a fault"
		if d.Fault != nil {
			name = d.Fault.Text()
		}
		on := ""
		if what != "" {
			on = " on " + what
		}
		return fmt.Sprintf("fault %s fired%s (request %s)", name, on, orNone(d.RequestID))
	case "transition":
		return fmt.Sprintf("Form transition %s of %s%s: %s", d.OperationID, what, where, d.Step)
	case "operation-accepted":
		return fmt.Sprintf("operation %s accepted: %s %s (pending)", d.ID, d.Action, what)
	case "operation-settled":
		if d.Failed {
			return "operation " + d.ID + " settled: failed"
		}
		return "operation " + d.ID + " settled: succeeded"
	case "operation-cancelled":
		return "operation " + d.ID + " cancelled"
	case "migration":
		return fmt.Sprintf("migration file %d of %d %q applied to %s%s by %s (ledger entry %d)", d.Index, d.Of, d.File, what, where, d.Application, d.Seq)
	case "migration-failed":
		return fmt.Sprintf("migration file %d of %d %q failed on %s%s for %s and was rolled back: %s", d.Index, d.Of, d.File, what, where, d.Application, d.Error)
	}
	return ev.Type + " " + compact(ev.Data)
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
