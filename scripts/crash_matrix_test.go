package scripts

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/rogpeppe/go-internal/testscript"
)

// crashRow is one row of the real-process crash matrix: a Form transition whose
// hostsim was SIGKILLed at a crash point (fault transition.hang), restarted on
// its database file and re-applied through tofu. A scenario's pass keeps its rows
// (scenario_reuse_test.go), so a run that reuses the pass still lists them.
type crashRow struct {
	Point     string   `json:"point"`
	Fired     int64    `json:"fired"`
	Dispatch  []string `json:"dispatch"` // backend calls per transition operation, in operation order
	Converged string   `json:"converged"`
	Mutations int64    `json:"mutations"`
	scenario  string   // scenarioID of the scenario that recorded it
	reused    bool     // read from that scenario's kept pass, not recorded in this run
}

// crashMatrix holds the rows of one run; crashes is TestScenarios'.
type crashMatrix struct {
	mu   sync.Mutex
	rows []crashRow
}

var crashes crashMatrix

// scenarioKey is the Env value holding the running scenario's scenarioID.
type scenarioKey struct{}

// add adds a row to the matrix.
func (m *crashMatrix) add(r crashRow) {
	m.mu.Lock()
	m.rows = append(m.rows, r)
	m.mu.Unlock()
}

// lines are the rows scenario recorded in this run, one JSON object a line,
// for its kept pass.
func (m *crashMatrix) lines(scenario string) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	var b strings.Builder
	for _, r := range m.rows {
		if r.scenario == scenario && !r.reused {
			line, _ := json.Marshal(r)
			b.Write(line)
			b.WriteString("\n")
		}
	}
	return b.String()
}

// addKept adds the rows a kept pass of scenario carries, marked reused. A line that
// does not read as a row adds none of them and is an error: the pass is then not
// reused, and the scenario runs.
func (m *crashMatrix) addKept(scenario string, lines []string) error {
	rows := make([]crashRow, len(lines))
	for i, l := range lines {
		if err := json.Unmarshal([]byte(l), &rows[i]); err != nil || rows[i].Point == "" {
			return fmt.Errorf("kept pass of %s: line %q is no crash matrix row", scenario, l)
		}
		rows[i].scenario, rows[i].reused = scenario, true
	}
	for _, r := range rows {
		m.add(r)
	}
	return nil
}

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
	scenario, _ := ts.Value(scenarioKey{}).(string)
	row := crashRow{Point: point, Fired: c.Fired["transition.hang="+point], Mutations: c.Mutations, scenario: scenario}
	for _, t := range st.Transitions {
		row.Dispatch = append(row.Dispatch, fmt.Sprintf("%s:%d", t.Status, c.Dispatch[t.OperationID]))
	}
	row.Converged = "no"
	for _, r := range st.Resources {
		if r.Kind == kind && r.Name == name {
			row.Converged = fmt.Sprintf("%s gen %s", r.DefinitionVersion, r.Generation)
			if r.DefinitionVersion == version && r.Generation == gen && r.Claim == nil {
				row.Converged = "yes (" + row.Converged + ")"
			}
		}
	}
	crashes.add(row)
	ts.Logf("crash matrix: point %s, fired %d, dispatch %v, converged %s, mutations %d", point, row.Fired, row.Dispatch, row.Converged, row.Mutations)
	if row.Fired != 1 || !strings.HasPrefix(row.Converged, "yes") {
		return fmt.Errorf("point %s: fired %d (want 1), converged %s", point, row.Fired, row.Converged)
	}
	return nil
}

// table renders the rows of this run, those of reused passes included, by point
// (and scenario, for a point two lanes ran).
func (m *crashMatrix) table() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.rows) == 0 {
		return ""
	}
	rows := append([]crashRow(nil), m.rows...)
	sort.Slice(rows, func(i, j int) bool {
		if rows[i].Point != rows[j].Point {
			return rows[i].Point < rows[j].Point
		}
		return rows[i].scenario < rows[j].scenario
	})
	var b strings.Builder
	b.WriteString("real-process crash matrix (hostsim SIGKILLed at the point, restarted on its --db file, re-applied through tofu):\n")
	fmt.Fprintf(&b, "%-5s | %-5s | %-38s | %-22s | %-9s | %s\n", "point", "fired", "dispatch per operation (status:calls)", "converged", "mutations", "scenario")
	for _, r := range rows {
		from := r.scenario
		if r.reused {
			from += " (reused: its pass on the same inputs)"
		}
		fmt.Fprintf(&b, "%-5s | %-5d | %-38s | %-22s | %-9d | %s\n", r.Point, r.Fired, strings.Join(r.Dispatch, " "), r.Converged, r.Mutations, from)
	}
	return b.String()
}
