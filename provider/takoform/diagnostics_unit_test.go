package takoform

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/provider/internal/client"
)

// TestHostPointerNamesTheMemberTheHostNamed: details.field, a JSON Pointer, is
// relative to the spec unless it already names the spec or the metadata; a field
// that is not a pointer, or details that are not an object, name nothing.
func TestHostPointerNamesTheMemberTheHostNamed(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ details, want string }{
		{``, ""},
		{`{}`, ""},
		{`[1]`, ""},
		{`{"field":3}`, ""},
		{`{"field":"size"}`, ""},
		{`{"field":"/size"}`, "/spec/size"},
		{`{"field":"/spec/size"}`, "/spec/size"},
		{`{"field":"/metadata/name"}`, "/metadata/name"},
		{`{"field":"/labels/a~1b"}`, "/spec/labels/a~1b"},
	} {
		e := &wire.Error{Code: wire.CodeInvalidArgument, Message: "m"}
		if c.details != "" {
			e.Details = json.RawMessage(c.details)
		}
		if got := hostPointer(e); got != c.want {
			t.Errorf("details %s: pointer %q, want %q", c.details, got, c.want)
		}
	}
}

// TestProtocolErrorCodeNamesTheStatusOnlyWhenThereIsOne: a ProtocolError may
// carry no status (0, "no HTTP status applies"); its code then names none rather
// than "HTTP 0".
func TestProtocolErrorCodeNamesTheStatusOnlyWhenThereIsOne(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		status int
		want   string
	}{{0, "protocol-invalid host response"}, {502, "protocol-invalid host response (HTTP 502)"}} {
		r := (&report{}).withErr(&client.ProtocolError{Status: c.status, Reason: "why"})
		if r.code != c.want || r.cause != "why" || r.repair != protocolInvalidRepair {
			t.Errorf("status %d: code %q cause %q repair %q", c.status, r.code, r.cause, r.repair)
		}
	}
}

// TestHostErrorKeepsTheOperationAlreadyNamed: the operation a report already
// names (the one polled) is not replaced by the one a host error carries.
func TestHostErrorKeepsTheOperationAlreadyNamed(t *testing.T) {
	t.Parallel()
	env := &wire.Error{Code: wire.CodeInternalError, Message: "m"}
	if r := (&report{opID: "op-polled"}).withErr(&client.HostError{Status: 500, Env: env, Operation: "op-other"}); r.opID != "op-polled" {
		t.Errorf("opID %q, want the polled operation kept", r.opID)
	}
	if r := (&report{}).withErr(&client.HostError{Status: 500, Env: env, Operation: "op-1"}); r.opID != "op-1" {
		t.Errorf("opID %q, want the host error's operation", r.opID)
	}
}

// TestVerifyErrorSummaryNamesTheResourceOnlyWithAName: a usable-answer summary
// needs the resource's name; without one the summary the caller gave stays.
func TestVerifyErrorSummaryNamesTheResourceOnlyWithAName(t *testing.T) {
	t.Parallel()
	ref := &wire.FormRef{Kind: "AtLeastOnceQueue"}
	if r := (&report{summary: "S", ref: ref}).withErr(client.NewVerifyError(200, errors.New("why"))); r.summary != "S" {
		t.Errorf("summary %q without a name", r.summary)
	}
	if r := (&report{summary: "S", ref: ref, name: "q"}).withErr(client.NewVerifyError(200, errors.New("why"))); r.summary != "Host response for AtLeastOnceQueue q is not usable" {
		t.Errorf("summary %q with a name", r.summary)
	}
}

// TestLocalCodeNamesAHostCodeBesideItOnce: a host or protocol code the error
// carries stands beside the provider's own, and never beside itself.
func TestLocalCodeNamesAHostCodeBesideItOnce(t *testing.T) {
	t.Parallel()
	if r := (&report{}).withLocalCode(codeDiscoveryFailed, &client.DiscoveryError{Rule: "r"}); r.code != codeDiscoveryFailed {
		t.Errorf("code %q, want %q once", r.code, codeDiscoveryFailed)
	}
	env := &wire.Error{Code: wire.CodeInternalError, Message: "m"}
	if r := (&report{}).withLocalCode("own", &client.HostError{Status: 500, Env: env}); r.code != "own (internal_error (host, HTTP 500))" {
		t.Errorf("code %q", r.code)
	}
	if r := (&report{}).withLocalCode("own", errors.New("local")); r.code != "own" {
		t.Errorf("code %q for a local error", r.code)
	}
}

// TestAReportAboutAnEntryNamesIt: a report (error or warning) whose attribute is
// an attribute of a list entry starts its detail with the path, unless its summary
// names it already; one about a top-level attribute does not (inEntry).
func TestAReportAboutAnEntryNamesIt(t *testing.T) {
	entry := path.Root("versions").AtListIndex(1).AtName("weight")
	top := path.Root("name")
	for _, c := range []struct {
		r    report
		want string
	}{
		{report{summary: "Weight refused", attr: &entry, what: "It is too high."}, "versions[1].weight: It is too high."},
		{report{summary: "Weight refused", attr: &entry, what: "It is too high.", warning: true}, "versions[1].weight: It is too high."},
		{report{summary: "Host does not accept versions[1].weight = 7", attr: &entry, what: "It is too high."}, "It is too high."},
		{report{summary: "Name refused", attr: &top, what: "It is taken."}, "It is taken."},
	} {
		var d diag.Diagnostics
		c.r.add(&d)
		if len(d) != 1 || !strings.HasPrefix(d[0].Detail(), c.want) {
			t.Errorf("%s (warning %v): %v; want a detail starting %q", c.r.summary, c.r.warning, d, c.want)
		}
	}
}
