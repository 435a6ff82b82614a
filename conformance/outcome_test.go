package conformance

import (
	"errors"
	"strings"
	"testing"
)

// etagFailure is the failure decodeResource returns for a weak ETag.
func etagFailure() error {
	return &Failure{Msg: `PUT /x/q-1: ETag "W/\"1\"" does not equal the quoted revision "1"`, Rule: RuleETag,
		Detail: `ETag "W/\"1\"" does not equal the quoted revision "1"`}
}

func TestJudge(t *testing.T) {
	refused := failf("PUT /x/q-1: expected 201, got 500 internal_error: boom")
	cases := []struct {
		name                  string
		id                    string
		err                   error
		status                Status
		cause, step, ruleWant string
	}{
		{"nil passes", "any", nil, StatusPass, "", "", ""},
		{"the check's own failure", "any", refused, StatusFail, "", "", ""},
		{"not applicable", "any", notApplicable("no Form"), StatusNotApplicable, "", "", ""},
		{"not applicable through a setup step", "any", setup("setting up Q", notApplicable("no Form")), StatusNotApplicable, "", "", ""},
		{"a setup step refused", "any", setup("setting up Q", refused), StatusError,
			"setting up Q: PUT /x/q-1: expected 201, got 500 internal_error: boom", "setting up Q", ""},
		{"a setup step broken by another check's rule", "any", setup("setting up Q", etagFailure()), StatusError,
			`ETag "W/\"1\"" does not equal the quoted revision "1"`, "setting up Q", RuleETag},
		{"a setup step broken by the check's own rule", RuleETag, setup("setting up Q", etagFailure()), StatusFail, "", "", ""},
		{"another check's rule in the check's own request", "any", etagFailure(), StatusError,
			`ETag "W/\"1\"" does not equal the quoted revision "1"`, "", RuleETag},
		{"the rule's own check in its own request", RuleETag, etagFailure(), StatusFail, "", "", ""},
		{"another check's rule worded in a failf", "any", failf("%v (more words)", etagFailure()), StatusError,
			`ETag "W/\"1\"" does not equal the quoted revision "1"`, "", RuleETag},
		{"the innermost setup step is the cause", "any", setup("setting up Outer", setup("setting up Inner", refused)), StatusError,
			"setting up Inner: PUT /x/q-1: expected 201, got 500 internal_error: boom", "setting up Inner", ""},
		{"a transport error", "any", &TransportError{What: "GET /", Err: errors.New("EOF")}, StatusError, "GET /: EOF", "", ""},
		{"a lost request worded twice", "any", failf("%v (outer)", failf("%v (inner)", &TransportError{What: "GET /", Err: errors.New("EOF")})), StatusError,
			"GET /: EOF (inner) (outer)", "", ""},
	}
	for _, c := range cases {
		v := judge(c.id, c.err)
		if v.Status != c.status || v.Cause != c.cause || v.Step != c.step || v.Rule != c.ruleWant {
			t.Errorf("%s: judge = %+v; want status %s, cause %q, step %q, rule %q", c.name, v, c.status, c.cause, c.step, c.ruleWant)
		}
	}
	if setup("setting up Q", nil) != nil {
		t.Error("a setup step that succeeded is no error")
	}
}

// TestJudgeKeepsTheAnswerAndTheCause: the verdict carries the answer a failure
// names (the report shows its excerpt) on every path, and a rule-tagged failure
// without a Detail is its own cause.
func TestJudgeKeepsTheAnswerAndTheCause(t *testing.T) {
	r := &Resp{Req: Req{Method: "PUT", Target: "/x/q-1"}, Status: 500}
	refused := &Failure{Msg: "PUT /x/q-1: expected 201, got 500", Resp: r}
	for _, c := range []struct {
		name string
		id   string
		err  error
	}{
		{"the check's own failure", "any", refused},
		{"a setup step refused", "any", setup("setting up Q", refused)},
		{"another check's rule", "any", &Failure{Msg: "m", Rule: RuleETag, Detail: "d", Resp: r}},
		{"a setup step broken by another check's rule", "any", setup("setting up Q", &Failure{Msg: "m", Rule: RuleETag, Detail: "d", Resp: r})},
		{"the rule's own check", RuleETag, &Failure{Msg: "m", Rule: RuleETag, Resp: r}},
	} {
		if v := judge(c.id, c.err); v.Resp != r {
			t.Errorf("%s: judge = %+v; want the failure's answer kept", c.name, v)
		}
	}
	v := judge("any", &Failure{Msg: "PUT /x/q-1: ETag is weak", Rule: RuleETag})
	if v.Status != StatusError || v.Cause != "PUT /x/q-1: ETag is weak" || v.Rule != RuleETag {
		t.Errorf("a rule-tagged failure without Detail: judge = %+v; want an error caused by its whole message", v)
	}
}

func TestFailfKeepsTheWrappedAnswer(t *testing.T) {
	r := &Resp{Req: Req{Method: "PUT", Target: "/x"}, Status: 500}
	got := failf("%v (context)", &Failure{Msg: "inner", Resp: r})
	var f *Failure
	if !errors.As(got, &f) || f.Resp != r || f.Msg != "inner (context)" {
		t.Errorf("failf wrapping a Failure = %#v; want its message with the inner answer kept", got)
	}
	if f := failf("plain %d", 1).(*Failure); f.Resp != nil || f.Rule != "" {
		t.Errorf("failf without a Failure among its args = %#v", f)
	}
}

func TestETagRuleIsACheck(t *testing.T) {
	if KnownIDs([]string{RuleETag}) != nil {
		t.Fatalf("RuleETag %q names no check of the table", RuleETag)
	}
	if !strings.Contains(strings.ToLower(requirementOf(RuleETag)), "etag") {
		t.Errorf("RuleETag %q names a check whose requirement is not about the ETag: %q", RuleETag, requirementOf(RuleETag))
	}
}

func requirementOf(id string) string {
	for _, c := range Table() {
		if c.ID == id {
			return c.Requirement
		}
	}
	return ""
}
