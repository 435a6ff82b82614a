package scripts

import (
	"fmt"
	"regexp"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// waitCondition is one condition hostsim-wait can poll for. Each reads the host's own account of
// itself (process state or admin API), so a scenario never sleeps a fixed time.
type waitCondition struct {
	name    string
	summary string
	check   func(p *simProc) (bool, error)
}

var waitConditions = []waitCondition{
	{"exited", "the hostsim process has exited (e.g. after a transition.exit fault)",
		func(p *simProc) (bool, error) { p.exitSeen = p.exited(); return p.exitSeen, nil }},
	{"ack-deadline-passed", "every dispatched transition without backend evidence is older than the host's --ack-deadline",
		ackDeadlinePassed},
	{"operation-running", "at least one async operation is still running on the host and its client has polled it",
		operationRunning},
	{"holding", "the host logged that a Form transition holds at a transition.hang point (its write is durable; the process can be killed there)",
		holding},
}

// holdingLine is the line hostsim logs at a transition.hang point
// (docs/protocol.md#faults).
var holdingLine = regexp.MustCompile(`(?m)^hostsim: holding Form transition \S+ at point [A-E] `)

func holding(p *simProc) (bool, error) { return holdingLine.MatchString(readLog(p.log.Name())), nil }

// findCondition returns the named condition of the table, or nil.
func findCondition(name string) *waitCondition {
	for i := range waitConditions {
		if waitConditions[i].name == name {
			return &waitConditions[i]
		}
	}
	return nil
}

func cmdHostsimWait(ts *testscript.TestScript, args []string) error {
	if len(args) < 2 || len(args) > 3 {
		return usageError("need NAME CONDITION [TIMEOUT]")
	}
	p, err := lookupSim(ts, args[0])
	if err != nil {
		return err
	}
	cond := findCondition(args[1])
	if cond == nil {
		return usageError("unknown condition " + args[1])
	}
	timeout := 30 * time.Second
	if len(args) == 3 {
		if timeout, err = time.ParseDuration(args[2]); err != nil {
			return usageError("TIMEOUT must be a Go duration such as 30s")
		}
	}
	deadline := time.Now().Add(timeout)
	for {
		ok, err := cond.check(p)
		if err != nil {
			return err
		}
		if ok {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("condition %s did not hold within %s", cond.name, timeout)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// ackDeadlinePassed reads the transition ledger of /_sim/state: the host reports, per operation,
// whether it is dispatched without backend evidence and whether its ack deadline has passed.
func ackDeadlinePassed(p *simProc) (bool, error) {
	var st struct {
		Transitions []struct {
			OperationID       string `json:"operationId"`
			AwaitingEvidence  bool   `json:"awaitingEvidence"`
			AckDeadlinePassed bool   `json:"ackDeadlinePassed"`
		} `json:"transitions"`
	}
	if err := adminDo(p, "GET", "/state", nil, &st); err != nil {
		return false, err
	}
	for _, t := range st.Transitions {
		if t.AwaitingEvidence && !t.AckDeadlinePassed {
			return false, nil
		}
	}
	return true, nil
}

func operationRunning(p *simProc) (bool, error) {
	var st struct {
		Operations []struct {
			Done  bool  `json:"done"`
			Polls int64 `json:"polls"`
		} `json:"operations"`
	}
	if err := adminDo(p, "GET", "/state", nil, &st); err != nil {
		return false, err
	}
	for _, o := range st.Operations {
		if !o.Done && o.Polls >= 1 {
			return true, nil
		}
	}
	return false, nil
}
