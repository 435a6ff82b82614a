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
	r := &Report{Runner: RunnerName, Host: "http://127.0.0.1:1", StartedAt: time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)}
	r.add(Result{ID: "discovery-exact", Area: AreaDiscovery, Status: StatusPass, DurationMs: 3})
	r.add(Result{ID: "form-declared-outputs-are-exact", Area: AreaOutputs, Status: StatusFail, DurationMs: 12, Message: `GET …/api-edge: status.outputs lacks "url"`})
	r.add(Result{ID: "operation-cancel", Area: AreaOperations, Status: StatusError, DurationMs: 1, Message: "dial tcp: refused"})
	r.add(Result{ID: "two-definition-versions-answer-independently", Area: AreaCatalog, Status: StatusNotApplicable, Message: "no kind in two versions"})
	r.add(Result{ID: "space-id-grammar-enforced", Area: AreaErrors, Status: StatusSkipped, Message: "skipped by --skip"})
	return r
}

func TestTextReport(t *testing.T) {
	var b bytes.Buffer
	if err := sampleReport().WriteText(&b); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if lines[0] != "pass discovery-exact (3 ms)" {
		t.Errorf("line 1 = %q", lines[0])
	}
	if lines[1] != `fail form-declared-outputs-are-exact (12 ms): GET …/api-edge: status.outputs lacks "url"` {
		t.Errorf("line 2 = %q", lines[1])
	}
	if got := lines[len(lines)-1]; got != "1 passed, 1 failed, 1 errored, 1 not-applicable, 1 skipped" {
		t.Errorf("summary = %q", got)
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
		Runner    string `json:"runner"`
		Host      string `json:"host"`
		StartedAt string `json:"startedAt"`
		Checks    []struct {
			ID         string `json:"id"`
			Status     string `json:"status"`
			DurationMs int64  `json:"durationMs"`
			Message    string `json:"message"`
		} `json:"checks"`
		Summary map[string]int `json:"summary"`
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Runner != RunnerName || doc.Host == "" || doc.StartedAt != "2026-11-29T12:00:00Z" || len(doc.Checks) != 5 {
		t.Errorf("report header/checks wrong: %s", b.String())
	}
	if doc.Checks[1].Status != "fail" || doc.Summary["errored"] != 1 || doc.Summary["notApplicable"] != 1 {
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
	if doc.Tests != 5 || doc.Failures != 1 || doc.Errors != 1 || doc.Skipped != 2 {
		t.Errorf("totals tests=%d failures=%d errors=%d skipped=%d", doc.Tests, doc.Failures, doc.Errors, doc.Skipped)
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
