package scripts

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/rogpeppe/go-internal/testscript"
)

// crashRow is one row of the real-process crash matrix: a Form transition whose
// hostsim was SIGKILLed at a crash point (fault transition.hang), restarted on
// its database file and re-applied through tofu.
type crashRow struct {
	point     string
	fired     int64
	dispatch  []string // backend calls per transition operation, in operation order
	converged string
	mutations int64
}

var (
	crashMu   sync.Mutex
	crashRows []crashRow
)

// cmdCrashRow: crash-row NAME POINT KIND RESOURCE VERSION GENERATION records what
// hostsim NAME says after a crash at POINT: the durable firing count of
// transition.hang=POINT, the backend calls per operation, and whether RESOURCE of
// KIND converged (definitionVersion VERSION, generation GENERATION, no claim).
// It fails unless the firing count is exactly 1 and the resource converged.
func cmdCrashRow(ts *testscript.TestScript, args []string) error {
	if len(args) != 6 {
		return usageError("need NAME POINT KIND RESOURCE VERSION GENERATION")
	}
	p, err := lookupSim(ts, args[0])
	if err != nil {
		return err
	}
	point, kind, name, version, gen := args[1], args[2], args[3], args[4], args[5]
	var c counters
	if err := adminDo(p, "GET", "/counters", nil, &c); err != nil {
		return err
	}
	var st struct {
		Resources []struct {
			Kind, Name, DefinitionVersion, Generation string
			Claim                                     any
		} `json:"resources"`
		Transitions []struct {
			OperationID string `json:"operationId"`
			Status      string `json:"status"`
		} `json:"transitions"`
	}
	if err := adminDo(p, "GET", "/state", nil, &st); err != nil {
		return err
	}
	row := crashRow{point: point, fired: c.Fired["transition.hang="+point], mutations: c.Mutations}
	for _, t := range st.Transitions {
		row.dispatch = append(row.dispatch, fmt.Sprintf("%s:%d", t.Status, c.Dispatch[t.OperationID]))
	}
	row.converged = "no"
	for _, r := range st.Resources {
		if r.Kind == kind && r.Name == name {
			row.converged = fmt.Sprintf("%s gen %s", r.DefinitionVersion, r.Generation)
			if r.DefinitionVersion == version && r.Generation == gen && r.Claim == nil {
				row.converged = "yes (" + row.converged + ")"
			}
		}
	}
	crashMu.Lock()
	crashRows = append(crashRows, row)
	crashMu.Unlock()
	ts.Logf("crash matrix: point %s, fired %d, dispatch %v, converged %s, mutations %d", point, row.fired, row.dispatch, row.converged, row.mutations)
	if row.fired != 1 || !strings.HasPrefix(row.converged, "yes") {
		return fmt.Errorf("point %s: fired %d (want 1), converged %s", point, row.fired, row.converged)
	}
	return nil
}

// crashTable renders the rows recorded by this run, by point.
func crashTable() string {
	crashMu.Lock()
	defer crashMu.Unlock()
	if len(crashRows) == 0 {
		return ""
	}
	rows := append([]crashRow(nil), crashRows...)
	sort.Slice(rows, func(i, j int) bool { return rows[i].point < rows[j].point })
	var b strings.Builder
	b.WriteString("real-process crash matrix (hostsim SIGKILLed at the point, restarted on its --db file, re-applied through tofu):\n")
	fmt.Fprintf(&b, "%-5s | %-5s | %-38s | %-22s | %s\n", "point", "fired", "dispatch per operation (status:calls)", "converged", "mutations")
	for _, r := range rows {
		fmt.Fprintf(&b, "%-5s | %-5d | %-38s | %-22s | %d\n", r.point, r.fired, strings.Join(r.dispatch, " "), r.converged, r.mutations)
	}
	return b.String()
}
