package conformance

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"strings"
)

// Line renders one result as `<status> <id> (<ms> ms)[: message]`.
func (r Result) Line() string {
	s := fmt.Sprintf("%s %s (%d ms)", r.Status, r.ID, r.DurationMs)
	if r.Message != "" {
		s += ": " + strings.ReplaceAll(r.Message, "\n", " ")
	}
	return s
}

// Line renders the summary with all five counts in the fixed order.
func (s Summary) Line() string {
	return fmt.Sprintf("%d passed, %d failed, %d errored, %d not-applicable, %d skipped",
		s.Passed, s.Failed, s.Errored, s.NotApplicable, s.Skipped)
}

// WriteText writes one line per check and the summary line.
func (r *Report) WriteText(w io.Writer) error {
	for _, c := range r.Checks {
		if _, err := fmt.Fprintln(w, c.Line()); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintln(w, r.Summary.Line())
	return err
}

// WriteJSON writes {runner, host, startedAt, checks, summary}.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name      string      `xml:"name,attr"`
	Tests     int         `xml:"tests,attr"`
	Failures  int         `xml:"failures,attr"`
	Errors    int         `xml:"errors,attr"`
	Skipped   int         `xml:"skipped,attr"`
	Timestamp string      `xml:"timestamp,attr"`
	Cases     []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string     `xml:"name,attr"`
	Classname string     `xml:"classname,attr"`
	Time      string     `xml:"time,attr"`
	Failure   *junitText `xml:"failure,omitempty"`
	Error     *junitText `xml:"error,omitempty"`
	Skipped   *junitText `xml:"skipped,omitempty"`
}

type junitText struct {
	Message string `xml:"message,attr"`
	Body    string `xml:",chardata"`
}

// WriteJUnit writes JUnit XML: one suite per area; not-applicable and skipped
// checks are <skipped> with their reason.
func (r *Report) WriteJUnit(w io.Writer) error {
	all := junitSuites{Name: RunnerName + " " + r.Host}
	byArea := map[Area]*junitSuite{}
	var order []Area
	for _, c := range r.Checks {
		s, ok := byArea[c.Area]
		if !ok {
			s = &junitSuite{Name: string(c.Area), Timestamp: r.StartedAt.Format("2006-01-02T15:04:05Z")}
			byArea[c.Area] = s
			order = append(order, c.Area)
		}
		tc := junitCase{Name: c.ID, Classname: "conformance." + strings.NewReplacer(" & ", "-", " ", "-").Replace(string(c.Area)),
			Time: fmt.Sprintf("%.3f", float64(c.DurationMs)/1000)}
		t := &junitText{Message: c.Message, Body: c.Message}
		switch c.Status {
		case StatusFail:
			tc.Failure, s.Failures = t, s.Failures+1
		case StatusError:
			tc.Error, s.Errors = t, s.Errors+1
		case StatusNotApplicable, StatusSkipped:
			t.Message = string(c.Status) + ": " + c.Message
			tc.Skipped, s.Skipped = t, s.Skipped+1
		}
		s.Tests++
		s.Cases = append(s.Cases, tc)
	}
	for _, a := range order {
		s := byArea[a]
		all.Suites = append(all.Suites, *s)
		all.Tests += s.Tests
		all.Failures += s.Failures
		all.Errors += s.Errors
		all.Skipped += s.Skipped
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(all); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}
