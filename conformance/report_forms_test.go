package conformance

import (
	"bytes"
	"encoding/xml"
	"reflect"
	"testing"
)

// A failing check's text shows its exchange in every form an answer takes:
// headers in name order, the body on one line, an answer that never came with
// its error, an empty body named as such, a cut body ending in "…"; a message
// of several lines is one line.
func TestTextReportShowsEveryFormOfAnExchange(t *testing.T) {
	const head = "fail c (0 ms): m\n    requirement: R\n    protocol: docs/protocol.md#x"
	for _, c := range []struct {
		msg  string
		x    *Exchange
		want string
	}{
		{"two\nlines", &Exchange{Request: "GET /a", Status: 200, Headers: map[string]string{"Location": "/l", "Etag": `"1"`}, Body: " {}\n"},
			"fail c (0 ms): two lines\n    requirement: R\n    protocol: docs/protocol.md#x\n    request: GET /a\n    response: 200 Etag: \"1\"; Location: /l; {}"},
		{"m", &Exchange{Request: "PUT /b", Error: "connection reset\nby peer"}, head + "\n    request: PUT /b\n    response: none (connection reset by peer)"},
		{"m", &Exchange{Request: "GET /c", Status: 204}, head + "\n    request: GET /c\n    response: 204 (empty body)"},
		{"m", &Exchange{Request: "GET /d", Status: 200, Body: `{"a":`, Truncated: true}, head + "\n    request: GET /d\n    response: 200 {\"a\":…"},
		{"m", nil, head},
	} {
		r := Result{ID: "c", Status: StatusFail, Message: c.msg, Requirement: "R", Anchor: "docs/protocol.md#x", Exchange: c.x}
		if got := r.Text(); got != c.want {
			t.Errorf("text of %+v:\n%s\nwant:\n%s", c.x, got, c.want)
		}
	}
}

// Errored checks group by their cause and the rule it breaks together; a
// result without a cause is grouped by its message; a cause struck in a
// check's own requests says so.
func TestCauseGroupsKeyAndSteps(t *testing.T) {
	r := &Report{}
	r.add(Result{ID: "a", Status: StatusError, Message: "no host", CauseStep: ""})
	r.add(Result{ID: "b", Status: StatusError, Message: "no host either"})
	r.add(Result{ID: "c", Status: StatusError, Cause: "ETag is weak", CauseRule: "revision-etag-exact", CauseStep: "setting up Queue"})
	r.add(Result{ID: "d", Status: StatusError, Cause: "ETag is weak", CauseStep: "setting up Queue"})
	r.add(Result{ID: "e", Status: StatusError, Cause: "ETag is weak", CauseRule: "revision-etag-exact"})
	var got []string
	for i, g := range r.ErroredByCause {
		got = append(got, g.Text(i+1))
	}
	want := []string{
		"[1] 1 check could not run: no host\n    checks: a",
		"[2] 1 check could not run: no host either\n    checks: b",
		"[3] 2 checks could not run: ETag is weak\n    the host breaks the rule revision-etag-exact measures (" + anchorOf("revision-etag-exact") + ")\n    while: setting up Queue (1), the check's own requests (1)\n    checks: c, e",
		"[4] 1 check could not run: ETag is weak\n    checks: d",
	}
	if len(got) != len(want) {
		t.Fatalf("groups:\n%q\nwant:\n%q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("group %d:\n%s\nwant:\n%s", i+1, got[i], want[i])
		}
	}
}

// A JUnit case carries the properties a result has, no empty ones; its
// class is the area as one dotted name and its time is in seconds.
func TestJUnitCaseProperties(t *testing.T) {
	r := &Report{Host: "h"}
	area := Area("fences & revisions x")
	r.add(Result{ID: "x", Title: "T", Area: area, Requirement: "R", Anchor: "A", Status: StatusFail, DurationMs: 1500, Message: "m",
		Exchange: &Exchange{Request: "GET /x", Error: "refused"}})
	r.add(Result{ID: "y", Area: area, Requirement: "R", Anchor: "A", Status: StatusError, Message: "m2", Cause: "c2"})
	var b bytes.Buffer
	if err := r.WriteJUnit(&b); err != nil {
		t.Fatal(err)
	}
	var doc junitSuites
	if err := xml.Unmarshal(b.Bytes(), &doc); err != nil || len(doc.Suites) != 1 || len(doc.Suites[0].Cases) != 2 {
		t.Fatalf("JUnit output %v:\n%s", err, b.String())
	}
	x, y := doc.Suites[0].Cases[0], doc.Suites[0].Cases[1]
	if x.Classname != "conformance.fences-revisions-x" || x.Time != "1.500" {
		t.Errorf("case x: classname %q, time %q; want conformance.fences-revisions-x, 1.500", x.Classname, x.Time)
	}
	for _, c := range []struct {
		got  junitCase
		want []junitProperty
	}{
		{x, []junitProperty{{"id", "x"}, {"title", "T"}, {"area", string(area)}, {"requirement", "R"}, {"anchor", "A"},
			{"status", string(StatusFail)}, {"request", "GET /x"}, {"responseError", "refused"}}},
		{y, []junitProperty{{"id", "y"}, {"area", string(area)}, {"requirement", "R"}, {"anchor", "A"},
			{"status", string(StatusError)}, {"cause", "c2"}}},
	} {
		if c.got.Properties == nil || !reflect.DeepEqual(c.got.Properties.Property, c.want) {
			t.Errorf("case %s: properties %+v, want %+v", c.got.Name, c.got.Properties, c.want)
		}
	}
}
