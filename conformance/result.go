package conformance

import (
	"slices"
	"time"
)

// Result is one check's outcome. Title, Area, Requirement and Anchor come from the
// check; a failing or errored result carries the exchange its message is about
// (or the check's last one), and an errored one the cause it is grouped under.
type Result struct {
	ID          string `json:"id"`
	Title       string `json:"title"`
	Area        Area   `json:"area"`
	Requirement string `json:"requirement"`
	Anchor      string `json:"anchor"` // "docs/protocol.md#fences"
	Status      Status `json:"status"`
	DurationMs  int64  `json:"durationMs"`
	Message     string `json:"message"`
	// Cause is what kept an errored check from running, run-unique names masked:
	// the broken rule's words when CauseRule names it, else the whole error. The
	// report groups errored checks by (CauseRule, Cause).
	Cause     string    `json:"cause,omitempty"`
	CauseStep string    `json:"causeStep,omitempty"` // errored: the setup step that failed ("setting up ModuleWorker")
	CauseRule string    `json:"causeRule,omitempty"` // errored: the check whose rule the cause breaks
	Exchange  *Exchange `json:"exchange,omitempty"`
	group     int       // errored: 1-based index into Report.ErroredByCause
}

// Summary counts the statuses.
type Summary struct {
	Passed        int `json:"passed"`
	Failed        int `json:"failed"`
	Errored       int `json:"errored"`
	NotApplicable int `json:"notApplicable"`
	Skipped       int `json:"skipped"`
}

// Report is a whole run.
type Report struct {
	Runner    string    `json:"runner"`
	Host      string    `json:"host"`
	Lane      string    `json:"lane"` // the host's lane, learned from its discovery (docs/protocol.md#lanes)
	StartedAt time.Time `json:"startedAt"`
	Checks    []Result  `json:"checks"`
	// ErroredByCause groups the errored checks under what kept them from running,
	// in the order the causes first appeared.
	ErroredByCause []CauseGroup `json:"erroredByCause"`
	Summary        Summary      `json:"summary"`
}

// CauseGroup is one cause and the checks it kept from running.
type CauseGroup struct {
	Cause     string      `json:"cause"`
	CauseRule string      `json:"causeRule,omitempty"`
	Anchor    string      `json:"anchor,omitempty"` // the cause rule's, when there is one
	Steps     []StepCount `json:"steps"`            // where it struck, in order of first appearance
	Checks    []string    `json:"checks"`
	Exchange  *Exchange   `json:"exchange,omitempty"` // the first check's
}

// StepCount is how many checks of a group a cause struck in one setup step
// ("" = in a request of the check itself).
type StepCount struct {
	Step   string `json:"step"`
	Checks int    `json:"checks"`
}

// OK reports whether nothing failed or errored.
func (r *Report) OK() bool { return r.Summary.Failed == 0 && r.Summary.Errored == 0 }

func (r *Report) add(res Result) Result {
	if res.Status == StatusError {
		res.group = r.groupOf(res)
	}
	r.Checks = append(r.Checks, res)
	switch res.Status {
	case StatusPass:
		r.Summary.Passed++
	case StatusFail:
		r.Summary.Failed++
	case StatusError:
		r.Summary.Errored++
	case StatusNotApplicable:
		r.Summary.NotApplicable++
	case StatusSkipped:
		r.Summary.Skipped++
	}
	return res
}

// groupOf files an errored result under its cause and returns the group's 1-based
// index. A result without a cause (a report built by hand) is its own message.
func (r *Report) groupOf(res Result) int {
	cause := res.Cause
	if cause == "" {
		cause = res.Message
	}
	i := slices.IndexFunc(r.ErroredByCause, func(g CauseGroup) bool { return g.Cause == cause && g.CauseRule == res.CauseRule })
	if i < 0 {
		g := CauseGroup{Cause: cause, CauseRule: res.CauseRule, Steps: []StepCount{}, Exchange: res.Exchange}
		if res.CauseRule != "" {
			g.Anchor = anchorOf(res.CauseRule)
		}
		r.ErroredByCause = append(r.ErroredByCause, g)
		i = len(r.ErroredByCause) - 1
	}
	g := &r.ErroredByCause[i]
	g.Checks = append(g.Checks, res.ID)
	if j := slices.IndexFunc(g.Steps, func(s StepCount) bool { return s.Step == res.CauseStep }); j >= 0 {
		g.Steps[j].Checks++
	} else {
		g.Steps = append(g.Steps, StepCount{Step: res.CauseStep, Checks: 1})
	}
	return i + 1
}

// anchorOf is the protocol link of the check id, or "" when no check has it.
func anchorOf(id string) string {
	for _, c := range Table() {
		if c.ID == id {
			return c.ProtocolLink()
		}
	}
	return ""
}
