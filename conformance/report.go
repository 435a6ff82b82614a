package conformance

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/takokit/takokit/catalog/wire"
)

// Line renders one result as `<status> <id> (<ms> ms)[: message]`.
func (r Result) Line() string {
	s := fmt.Sprintf("%s %s (%d ms)", r.Status, r.ID, r.DurationMs)
	if r.Message != "" {
		s += ": " + oneLine(r.Message)
	}
	return s
}

// Text renders one result for the text report: a failure adds the requirement it
// measures, its docs/protocol.md link and the exchange; an errored check is one
// line pointing at its cause, which the report prints once (WriteCauses).
func (r Result) Text() string {
	switch r.Status {
	case StatusFail:
		var b strings.Builder
		b.WriteString(r.Line())
		fmt.Fprintf(&b, "\n    requirement: %s\n    protocol: %s", r.Requirement, r.Anchor)
		writeExchange(&b, "    ", r.Exchange)
		return b.String()
	case StatusError:
		if r.group > 0 {
			return fmt.Sprintf("%s %s (%d ms): could not run, see cause [%d] below", r.Status, r.ID, r.DurationMs, r.group)
		}
	}
	return r.Line()
}

// writeExchange renders an exchange as indented request and response lines.
func writeExchange(b *strings.Builder, indent string, x *Exchange) {
	if x == nil {
		return
	}
	fmt.Fprintf(b, "\n%srequest: %s", indent, x.Request)
	if x.Status == 0 {
		fmt.Fprintf(b, "\n%sresponse: none (%s)", indent, oneLine(x.Error))
		return
	}
	fmt.Fprintf(b, "\n%sresponse: %d", indent, x.Status)
	keys := make([]string, 0, len(x.Headers))
	for k := range x.Headers {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(b, " %s: %s;", k, x.Headers[k])
	}
	body := oneLine(x.Body)
	if x.Truncated {
		body += "…"
	}
	if body == "" {
		body = "(empty body)"
	}
	fmt.Fprintf(b, " %s", body)
}

func oneLine(s string) string { return strings.ReplaceAll(strings.TrimSpace(s), "\n", " ") }

// Line renders the summary with all five counts in the fixed order.
func (s Summary) Line() string {
	return fmt.Sprintf("%d passed, %d failed, %d errored, %d not-applicable, %d skipped",
		s.Passed, s.Failed, s.Errored, s.NotApplicable, s.Skipped)
}

// Text renders cause group n:
//
//	[1] 81 checks could not run: setting up ModuleWorker: PUT …/{name}: expected 201, got …
//	    request: … / response: …
//	    checks: a, b, …
//
// A cause that is another check's rule says which, where it is stated and in
// which steps it struck:
//
//	[1] 81 checks could not run: ETag "W/\"1\"" does not equal the quoted revision "1"
//	    the host breaks the rule revision-etag-exact measures (docs/protocol.md#headers)
//	    while: setting up AtLeastOnceQueue (42), setting up ModuleWorker (7), the check's own requests (20)
func (g CauseGroup) Text(n int) string {
	var b strings.Builder
	noun := "checks"
	if len(g.Checks) == 1 {
		noun = "check"
	}
	fmt.Fprintf(&b, "[%d] %d %s could not run: %s", n, len(g.Checks), noun, oneLine(g.Cause))
	if g.CauseRule != "" {
		fmt.Fprintf(&b, "\n    the host breaks the rule %s measures (%s)", g.CauseRule, g.Anchor)
		steps := make([]string, len(g.Steps))
		for i, s := range g.Steps {
			if s.Step == "" {
				s.Step = "the check's own requests"
			}
			steps[i] = fmt.Sprintf("%s (%d)", s.Step, s.Checks)
		}
		fmt.Fprintf(&b, "\n    while: %s", strings.Join(steps, ", "))
	}
	writeExchange(&b, "    ", g.Exchange)
	fmt.Fprintf(&b, "\n    checks: %s", strings.Join(g.Checks, ", "))
	return b.String()
}

// WriteCauses writes the errored checks grouped under their causes, if any.
func (r *Report) WriteCauses(w io.Writer) error {
	if len(r.ErroredByCause) == 0 {
		return nil
	}
	if _, err := fmt.Fprintln(w, "errored checks, by cause:"); err != nil {
		return err
	}
	for i, g := range r.ErroredByCause {
		if _, err := fmt.Fprintln(w, g.Text(i+1)); err != nil {
			return err
		}
	}
	return nil
}

// WriteText writes every check, the causes of the errored ones and the summary line.
func (r *Report) WriteText(w io.Writer) error {
	if _, err := fmt.Fprintln(w, LaneLine(r.Host, r.Lane)); err != nil {
		return err
	}
	for _, c := range r.Checks {
		if _, err := fmt.Fprintln(w, c.Text()); err != nil {
			return err
		}
	}
	if err := r.WriteCauses(w); err != nil {
		return err
	}
	_, err := fmt.Fprintln(w, r.Summary.Line())
	return err
}

// LaneLine is the first line of a text report: the host's lane, and what {api} in
// the check messages stands for.
func LaneLine(host, lane string) string {
	l, err := wire.LaneNamed(lane)
	if err != nil {
		return fmt.Sprintf("host %s speaks %s", host, lane)
	}
	return fmt.Sprintf("host %s speaks %s; {api} below is %s", host, l.Describe(), l.APIRoot)
}

// WriteJSON writes {runner, host, startedAt, checks, erroredByCause, summary}.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}
