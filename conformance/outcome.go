package conformance

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/takokit/takokit/catalog/wire"
)

// Failure means the host is non-conformant: the message names the request, what
// was expected and what came back.
type Failure struct {
	Msg  string
	Code wire.Code // the host's error code, when the failure is a refused answer
	// Rule is the id of the check that measures the rule this failure breaks, when
	// a helper shared by many checks decided it (the ETag of every representation);
	// "" means the rule of the check that returned it.
	Rule string
	// Detail is what broke without the request that showed it, for a Rule-tagged
	// failure: the report groups the checks it kept from running by it.
	Detail string
	// Resp is the answer that broke the rule, when the failure names one; the report
	// shows its excerpt.
	Resp *Resp
}

func (f *Failure) Error() string { return f.Msg }

// NotApplicable means the host does not claim what the check needs.
type NotApplicable struct{ Msg string }

func (n *NotApplicable) Error() string { return n.Msg }

// SetupError means a step the check needs before it can measure its rule failed:
// creating the resource it starts from or one that resource refers to. The check
// could not run; the report groups such checks under their cause
// (docs/guides/conformance.md).
type SetupError struct {
	Step string // "setting up ModuleWorker"
	Err  error
}

func (e *SetupError) Error() string { return e.Step + ": " + e.Err.Error() }
func (e *SetupError) Unwrap() error { return e.Err }

// setup marks err as the failure of a setup step. A not-applicable passes through
// (the host does not claim what the step needs), and an error that already is a
// setup step's keeps its innermost step, so the cause names what failed first.
func setup(step string, err error) error {
	if err == nil {
		return nil
	}
	var n *NotApplicable
	var s *SetupError
	if errors.As(err, &n) || errors.As(err, &s) {
		return err
	}
	return &SetupError{Step: step, Err: err}
}

// failf returns a Failure. One that words a Failure among its args in its own
// message keeps that failure's Rule, Detail and answer: the added words give
// context, the rule broken is still the wrapped one.
//
// A request that got no answer is never the host's failure: failf over a
// TransportError (a check's "%v (… must be accepted)") gives a lostRequest, an
// error that still names it, so the check errors (docs/guides/conformance.md#a-lost-request).
func failf(format string, args ...any) error {
	for _, a := range args {
		var te *TransportError
		if err, ok := a.(error); ok && errors.As(err, &te) {
			return &lostRequest{msg: fmt.Sprintf(format, args...), err: te}
		}
	}
	out := &Failure{Msg: fmt.Sprintf(format, args...)}
	for _, a := range args {
		var f *Failure
		if err, ok := a.(error); ok && errors.As(err, &f) {
			out.Rule, out.Detail, out.Resp = f.Rule, f.Detail, f.Resp
			break
		}
	}
	return out
}

// lostRequest is a check's own words around a request that got no answer.
type lostRequest struct {
	msg string
	err *TransportError
}

func (e *lostRequest) Error() string { return e.msg }
func (e *lostRequest) Unwrap() error { return e.err }

// notApplicable returns a NotApplicable.
func notApplicable(format string, args ...any) error {
	return &NotApplicable{Msg: fmt.Sprintf(format, args...)}
}

// verdict is one check's return value judged.
type verdict struct {
	Status Status
	// Cause is what kept an errored check from measuring its rule: the broken
	// rule's Detail when the cause is another check's rule, else the whole error.
	Cause string
	Step  string // errored: the setup step that failed ("" = none)
	Rule  string // errored: the check whose rule the cause breaks, when known
	Resp  *Resp  // the answer the failure or the cause names, when it names one
}

// judge maps check id's return value to its verdict:
//   - a Failure of the check's own rule is a fail: the host broke what it measures;
//   - a Failure of another check's rule (a shared helper's, Failure.Rule) is an
//     error: the check could not measure its rule past it, and the report blames
//     that rule once, where its own check fails;
//   - a setup step's failure is an error (the check could not run), unless what
//     broke is the rule this very check measures: then it caught its rule while
//     setting up, and fails;
//   - anything else (transport errors, runner problems) is an error.
func judge(id string, err error) verdict {
	var n *NotApplicable
	var s *SetupError
	var f *Failure
	switch {
	case err == nil:
		return verdict{Status: StatusPass}
	case errors.As(err, &n):
		return verdict{Status: StatusNotApplicable}
	case errors.As(err, &f) && f.Rule == id:
		return verdict{Status: StatusFail, Resp: f.Resp}
	case f != nil && f.Rule != "":
		v := verdict{Status: StatusError, Cause: f.Detail, Rule: f.Rule, Resp: f.Resp}
		if v.Cause == "" {
			v.Cause = f.Msg
		}
		if errors.As(err, &s) {
			v.Step = s.Step
		}
		return v
	case errors.As(err, &s):
		v := verdict{Status: StatusError, Cause: err.Error(), Step: s.Step}
		if f != nil {
			v.Resp = f.Resp
		}
		return v
	case f != nil:
		return verdict{Status: StatusFail, Resp: f.Resp}
	default:
		return verdict{Status: StatusError, Cause: err.Error()}
	}
}

// classify maps a check's return value to its status, judged for no check in
// particular (checks combining sub-results use it; a rule-tagged failure is then
// an error).
func classify(err error) Status { return judge("", err).Status }

// rawJSON keeps a member's bytes undecoded (strict decoding skips it).
type rawJSON = json.RawMessage

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }
