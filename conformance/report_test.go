package conformance

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"strings"
	"testing"
	"time"
)

func sampleReport() *Report {
	r := &Report{Runner: RunnerName, Host: "http://127.0.0.1:1", Lane: "forms.takoform.com/v1beta1", StartedAt: time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC), ErroredByCause: []CauseGroup{}}
	res := func(id string, st Status, ms int64, msg string) Result {
		for _, c := range Table() {
			if c.ID == id {
				return Result{ID: id, Title: c.Title, Area: c.Area, Requirement: c.Requirement, Anchor: c.ProtocolLink(), Status: st, DurationMs: ms, Message: msg}
			}
		}
		panic(id)
	}
	r.add(res("discovery-exact", StatusPass, 3, ""))
	fail := res("form-declared-outputs-are-exact", StatusFail, 12, `GET …/api-edge: status.outputs lacks "url"`)
	fail.Exchange = &Exchange{Request: "GET /apis/…/api-edge", Status: 200, Headers: map[string]string{"Etag": `"3"`}, Body: `{"status":{}}`}
	r.add(fail)
	for _, id := range []string{"operation-cancel", "stale-revision-rejected"} {
		e := res(id, StatusError, 1, `setting up AtLeastOnceQueue: PUT /apis/…/q-abc-1: ETag "W/\"1\"" does not equal the quoted revision "1"`)
		e.Cause, e.CauseStep, e.CauseRule = `ETag "W/\"1\"" does not equal the quoted revision "1"`, "setting up AtLeastOnceQueue", RuleETag
		e.Exchange = &Exchange{Request: "PUT /apis/…/q-abc-1", Status: 201, Headers: map[string]string{"Etag": `W/"1"`}, Body: `{"kind":"AtLeastOnceQueue"}`}
		r.add(e)
	}
	r.add(res("two-definition-versions-answer-independently", StatusNotApplicable, 0, "no kind in two versions"))
	r.add(res("space-id-grammar-enforced", StatusSkipped, 0, "skipped by --skip"))
	return r
}

func TestTextReport(t *testing.T) {
	var b bytes.Buffer
	if err := sampleReport().WriteText(&b); err != nil {
		t.Fatal(err)
	}
	want := `host http://127.0.0.1:1 speaks forms.takoform.com/v1beta1 (current); {api} below is /apis/forms.takoform.com/v1beta1
pass discovery-exact (3 ms)
fail form-declared-outputs-are-exact (12 ms): GET …/api-edge: status.outputs lacks "url"
    requirement: A resource of a Form with outputs MUST carry exactly the declared status.outputs members, each valid against its declared type, anchored pattern and bounds; a Form without outputs MUST omit status.outputs.
    protocol: docs/protocol.md#outputs
    request: GET /apis/…/api-edge
    response: 200 Etag: "3"; {"status":{}}
error operation-cancel (1 ms): could not run, see cause [1] below
error stale-revision-rejected (1 ms): could not run, see cause [1] below
not-applicable two-definition-versions-answer-independently (0 ms): no kind in two versions
skipped space-id-grammar-enforced (0 ms): skipped by --skip
errored checks, by cause:
[1] 2 checks could not run: ETag "W/\"1\"" does not equal the quoted revision "1"
    the host breaks the rule revision-etag-exact measures (docs/protocol.md#headers)
    while: setting up AtLeastOnceQueue (2)
    request: PUT /apis/…/q-abc-1
    response: 201 Etag: W/"1"; {"kind":"AtLeastOnceQueue"}
    checks: operation-cancel, stale-revision-rejected
1 passed, 1 failed, 2 errored, 1 not-applicable, 1 skipped
`
	if b.String() != want {
		t.Errorf("text report:\n%s\nwant:\n%s", b.String(), want)
	}
	if sampleReport().OK() {
		t.Error("a report with a fail and an error is not OK")
	}
}

func TestJSONReport(t *testing.T) {
	var b bytes.Buffer
	if err := sampleReport().WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Runner    string           `json:"runner"`
		Host      string           `json:"host"`
		StartedAt string           `json:"startedAt"`
		Checks    []map[string]any `json:"checks"`
		Errored   []struct {
			Cause     string   `json:"cause"`
			CauseRule string   `json:"causeRule"`
			Anchor    string   `json:"anchor"`
			Checks    []string `json:"checks"`
			Steps     []struct {
				Step   string `json:"step"`
				Checks int    `json:"checks"`
			} `json:"steps"`
			Exchange map[string]any `json:"exchange"`
		} `json:"erroredByCause"`
		Summary map[string]int `json:"summary"`
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Runner != RunnerName || doc.Host == "" || doc.StartedAt != "2026-11-29T12:00:00Z" || len(doc.Checks) != 6 {
		t.Errorf("report header/checks wrong: %s", b.String())
	}
	fail := doc.Checks[1]
	for _, k := range []string{"id", "title", "area", "requirement", "anchor", "status", "message"} {
		if s, _ := fail[k].(string); s == "" {
			t.Errorf("a failing check's JSON lacks %q: %v", k, fail)
		}
	}
	if fail["anchor"] != "docs/protocol.md#outputs" || fail["area"] != "outputs" || fail["status"] != "fail" {
		t.Errorf("failing check: %v", fail)
	}
	if x, _ := fail["exchange"].(map[string]any); x["request"] != "GET /apis/…/api-edge" || x["status"] != 200.0 || x["body"] != `{"status":{}}` {
		t.Errorf("failing check's exchange: %v", fail["exchange"])
	}
	errd := doc.Checks[2]
	if errd["status"] != "error" || errd["causeRule"] != RuleETag || errd["causeStep"] != "setting up AtLeastOnceQueue" || errd["cause"] == nil {
		t.Errorf("errored check: %v", errd)
	}
	if len(doc.Errored) != 1 || len(doc.Errored[0].Checks) != 2 || doc.Errored[0].CauseRule != RuleETag ||
		doc.Errored[0].Anchor != "docs/protocol.md#headers" || len(doc.Errored[0].Steps) != 1 || doc.Errored[0].Steps[0].Checks != 2 ||
		doc.Errored[0].Exchange["request"] != "PUT /apis/…/q-abc-1" {
		t.Errorf("erroredByCause: %+v", doc.Errored)
	}
	if doc.Summary["errored"] != 2 || doc.Summary["notApplicable"] != 1 {
		t.Errorf("statuses or summary wrong: %s", b.String())
	}
}

func TestJUnitReport(t *testing.T) {
	var b bytes.Buffer
	if err := sampleReport().WriteJUnit(&b); err != nil {
		t.Fatal(err)
	}
	var doc junitSuites
	if err := xml.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatalf("JUnit output does not parse: %v\n%s", err, b.String())
	}
	if doc.Tests != 6 || doc.Failures != 1 || doc.Errors != 2 || doc.Skipped != 2 {
		t.Errorf("totals tests=%d failures=%d errors=%d skipped=%d", doc.Tests, doc.Failures, doc.Errors, doc.Skipped)
	}
	cases := map[string]junitCase{}
	for _, s := range doc.Suites {
		for _, c := range s.Cases {
			cases[c.Name] = c
		}
	}
	props := func(c junitCase) map[string]string {
		out := map[string]string{}
		if c.Properties != nil {
			for _, p := range c.Properties.Property {
				out[p.Name] = p.Value
			}
		}
		return out
	}
	fail := cases["form-declared-outputs-are-exact"]
	p := props(fail)
	for k, want := range map[string]string{"id": "form-declared-outputs-are-exact", "area": "outputs", "anchor": "docs/protocol.md#outputs",
		"status": "fail", "request": "GET /apis/…/api-edge", "responseStatus": "200", "responseBody": `{"status":{}}`} {
		if p[k] != want {
			t.Errorf("failing case property %s = %q, want %q", k, p[k], want)
		}
	}
	if p["title"] == "" || p["requirement"] == "" {
		t.Errorf("failing case lacks title or requirement: %v", p)
	}
	if fail.Failure == nil || !strings.Contains(fail.Failure.Body, "protocol: docs/protocol.md#outputs") || !strings.Contains(fail.Failure.Body, "requirement: A resource of a Form") {
		t.Errorf("failure body: %+v", fail.Failure)
	}
	errd := cases["operation-cancel"]
	if errd.Error == nil || errd.Error.Type != "could-not-run" || !strings.Contains(errd.Error.Body, "could not run: ETag") || props(errd)["causeRule"] != RuleETag {
		t.Errorf("errored case: %+v %v", errd.Error, props(errd))
	}
}

func TestClassify(t *testing.T) {
	for err, want := range map[error]Status{
		nil:                    StatusPass,
		failf("x"):             StatusFail,
		notApplicable("x"):     StatusNotApplicable,
		errors.New("dial tcp"): StatusError,
		&TransportError{What: "GET /", Err: errors.New("EOF")}: StatusError,
	} {
		if got := classify(err); got != want {
			t.Errorf("classify(%v) = %s, want %s", err, got, want)
		}
	}
	wrapped := errors.Join(errors.New("setting up"), failf("host said no"))
	if classify(wrapped) != StatusFail {
		t.Error("a wrapped Failure is still a failure")
	}
}

func TestListFormats(t *testing.T) {
	for _, f := range ListFormats {
		var b bytes.Buffer
		if err := WriteList(&b, f, Table()); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if !strings.Contains(b.String(), "form-declared-outputs-are-exact") {
			t.Errorf("%s list lacks a check id", f)
		}
	}
	if err := WriteList(&bytes.Buffer{}, "yaml", Table()); err == nil {
		t.Error("an unknown list format must be refused")
	}
}
