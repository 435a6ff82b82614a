package conformance

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"
)

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
	Name       string           `xml:"name,attr"`
	Classname  string           `xml:"classname,attr"`
	Time       string           `xml:"time,attr"`
	Properties *junitProperties `xml:"properties,omitempty"`
	Failure    *junitText       `xml:"failure,omitempty"`
	Error      *junitText       `xml:"error,omitempty"`
	Skipped    *junitText       `xml:"skipped,omitempty"`
}

type junitProperties struct {
	Property []junitProperty `xml:"property"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitText struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr,omitempty"`
	Body    string `xml:",chardata"`
}

// junitProps are a result's properties: what a JSON report carries, by name.
func junitProps(c Result) *junitProperties {
	p := &junitProperties{}
	add := func(name, value string) {
		if value != "" {
			p.Property = append(p.Property, junitProperty{Name: name, Value: value})
		}
	}
	add("id", c.ID)
	add("title", c.Title)
	add("area", string(c.Area))
	add("requirement", c.Requirement)
	add("anchor", c.Anchor)
	add("status", string(c.Status))
	add("cause", c.Cause)
	add("causeRule", c.CauseRule)
	if x := c.Exchange; x != nil {
		add("request", x.Request)
		if x.Status != 0 {
			add("responseStatus", fmt.Sprint(x.Status))
		}
		add("responseBody", x.Body)
		add("responseError", x.Error)
	}
	return p
}

// junitBody is the failure or error text: the message, the requirement with its
// link, and the exchange.
func junitBody(c Result) string {
	var b strings.Builder
	b.WriteString(c.Message)
	if c.Cause != "" {
		fmt.Fprintf(&b, "\ncould not run: %s", c.Cause)
	}
	fmt.Fprintf(&b, "\nrequirement: %s\nprotocol: %s", c.Requirement, c.Anchor)
	writeExchange(&b, "", c.Exchange)
	return b.String()
}

// WriteJUnit writes JUnit XML: one suite per area, each case carrying the check's
// properties; a fail is <failure>, an errored check <error type="could-not-run">
// with its cause, not-applicable and skipped checks <skipped> with their reason.
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
			Time: fmt.Sprintf("%.3f", float64(c.DurationMs)/1000), Properties: junitProps(c)}
		switch c.Status {
		case StatusFail:
			tc.Failure, s.Failures = &junitText{Message: c.Message, Type: "fail", Body: junitBody(c)}, s.Failures+1
		case StatusError:
			tc.Error, s.Errors = &junitText{Message: c.Message, Type: "could-not-run", Body: junitBody(c)}, s.Errors+1
		case StatusNotApplicable, StatusSkipped:
			tc.Skipped, s.Skipped = &junitText{Message: string(c.Status) + ": " + c.Message, Body: c.Message}, s.Skipped+1
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
