package takoform

import (
	"errors"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/provider/internal/client"
)

// report is one diagnostic in the layout of docs/provider-design.md#diagnostics. Every diagnostic that
// concerns a host call or a provider decision is rendered by report.add.
type report struct {
	warning  bool
	summary  string
	what     string
	hostMsg  string
	cause    string
	typeName string
	space    string
	name     string
	ref      *wire.FormRef
	pointer  string
	route    string      // the request a failure stopped at, "GET /path", when it says more than the summary
	fences   [][2]string // ordered label/value pairs: Expected UID, Current UID, ...
	opID     string
	reqID    string
	hostCode string
	code     string
	retry    bool
	repair   string
	attr     *path.Path
	// unreachable is "host unreachable at <origin>" when no host answered; add appends
	// it to the summary, whoever set the summary and whenever
	unreachable string
}

func (r *report) fence(label, value string) *report {
	if value != "" {
		r.fences = append(r.fences, [2]string{label, value})
	}
	return r
}

func (r *report) detail() string {
	var b strings.Builder
	block := func(lines ...string) {
		var kept []string
		for _, l := range lines {
			if l != "" {
				kept = append(kept, l)
			}
		}
		if len(kept) == 0 {
			return
		}
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(strings.Join(kept, "\n"))
	}
	block(r.what)
	if r.hostMsg != "" {
		block("Host: " + r.hostMsg)
	} else if r.cause != "" {
		block("Cause: " + r.cause)
	}
	lines := []string{}
	if r.typeName != "" {
		id := r.name
		switch {
		case r.space != "" && r.name == "": // a name derived from values not known yet
			id = "space " + r.space + ", name known after apply"
		case r.space != "":
			id = r.space + "/" + r.name
		}
		if id != "" {
			lines = append(lines, fmt.Sprintf("Resource: %s (%s)", r.typeName, id))
		} else {
			lines = append(lines, "Resource: "+r.typeName)
		}
	}
	if r.ref != nil && r.ref.Kind != "" {
		lines = append(lines, fmt.Sprintf("Form: %s %s@%s schema=%s", r.ref.APIVersion, r.ref.Kind, r.ref.DefinitionVersion, r.ref.SchemaDigest))
	}
	if r.pointer != "" {
		lines = append(lines, "Pointer: "+r.pointer)
	}
	if r.route != "" {
		lines = append(lines, "Route: "+r.route)
	}
	for _, f := range r.fences {
		lines = append(lines, f[0]+": "+f[1])
	}
	if r.opID != "" {
		lines = append(lines, "Operation: "+r.opID)
	}
	if r.reqID != "" {
		lines = append(lines, "Request: "+r.reqID)
	}
	if r.hostCode != "" {
		lines = append(lines, "Host reason: "+r.hostCode)
	}
	if r.code != "" {
		lines = append(lines, "Code: "+r.code)
	}
	if r.retry {
		lines = append(lines, "Retryable: yes")
	} else {
		lines = append(lines, "Retryable: no")
	}
	block(lines...)
	block(r.repair)
	return b.String()
}

func (r *report) add(d *diag.Diagnostics) {
	det, sum := r.detail(), r.summary
	if r.unreachable != "" && !strings.Contains(sum, r.unreachable) {
		sum += ": " + r.unreachable
	}
	switch {
	case r.attr != nil && r.warning:
		d.AddAttributeWarning(*r.attr, sum, inEntry(*r.attr, sum, det))
	case r.attr != nil:
		d.AddAttributeError(*r.attr, sum, inEntry(*r.attr, sum, det))
	case r.warning:
		d.AddWarning(sum, det)
	default:
		d.AddError(sum, det)
	}
}

// refusedOr is the what-line of a failed host call: the host refused the action, or,
// when no host answered, that none did — never "refused" then.
func refusedOr(err error, action, kept string) string {
	if u, ok := client.AsUnreachable(err); ok {
		return "No host answered the " + action + " (" + u.Headline() + "); " + kept
	}
	if breaksProtocol(err) {
		return "The host's answer to the " + action + " breaks the protocol; " + kept
	}
	return "The host refused the " + action + "; " + kept
}

// breaksProtocol reports whether err is an answer the protocol does not allow, as opposed to
// a refusal the host made or a request no host answered.
func breaksProtocol(err error) bool {
	var p *client.ProtocolError
	var v *client.VerifyError
	return errors.As(err, &p) || errors.As(err, &v)
}

// unreachableCause is the cause line of a request no host answered: the origin, the
// reason and the request.
func unreachableCause(u *client.Unreachable) string {
	return u.Headline() + ": " + u.Reason + " (" + u.Method + " " + u.Path + ")"
}

// unreachableRepair is the one repair of every diagnostic where no host answered.
func unreachableRepair(u *client.Unreachable) string {
	return "No host answered at " + u.Origin + ". Check the endpoint (endpoint or TAKOFORM_ENDPOINT), that the host is running " +
		"and that this machine can reach it, then run the command again."
}

// unencodable is r for a write whose planned spec could not be encoded (encodeSpec):
// only a plan made without OpenTofu's apply-time plan has a value not known.
func (r *report) unencodable(err error) *report {
	r.cause, r.code = err.Error(), codeInternal
	r.repair = "Run tofu apply again, so the plan it applies is made with every value known; if this repeats, report it as a provider fault."
	return r
}

// withLocalCode fills the lines of err like withErr, under the provider code own: a host
// or protocol code the error carries is kept beside it ("own (host code)"), a local
// error (no such code) leaves own alone.
func (r *report) withLocalCode(own string, err error) *report {
	r.code = ""
	r.withErr(err)
	if r.code != "" && r.code != own {
		r.code = own + " (" + r.code + ")"
	} else {
		r.code = own
	}
	return r
}

// withErr fills the host/cause/code/retryable/repair lines from an error of a host call.
func (r *report) withErr(err error) *report {
	var h *client.HostError
	var p *client.ProtocolError
	var v *client.VerifyError
	var de *client.DiscoveryError
	var un *client.UnavailableError
	if u, ok := client.AsUnreachable(err); ok {
		r.unreachable = u.Headline()
		r.cause = unreachableCause(u)
		r.code, r.retry, r.repair = codeHostUnreachable, true, unreachableRepair(u)
		return r
	}
	switch {
	case errors.As(err, &de):
		r.cause = de.Rule
		r.code = codeDiscoveryFailed
		r.repair = "Check that endpoint names a Takoform host of this provider's lane and that its discovery document follows the lane (the rule above is the one broken)."
		if de.HostLane != nil {
			// the 404 on this lane's discovery path is how the mismatch showed, not the error
			r.code = codeLaneMismatch
			r.repair = "Point endpoint at a host of this provider's lane, or use the provider of the host's lane " +
				"(bin/<lane>/terraform-provider-takoform, or go tool mage provider:family DIR over a catalog of that lane; docs/protocol.md#lanes)."
			break
		}
		if errors.As(err, &h) {
			r.hostMsg, r.reqID, r.hostCode = h.Env.Message, h.Env.RequestID, h.Env.HostCode
			r.code = fmt.Sprintf("%s (host, HTTP %d)", h.Env.Code, h.Status)
			r.repair = repairFor(h.Env.Code, h.Env.HostCode)
		}
	case errors.As(err, &h):
		r.hostMsg = h.Env.Message
		r.reqID = h.Env.RequestID
		r.hostCode = h.Env.HostCode
		if h.Operation != "" && r.opID == "" {
			r.opID = h.Operation
		}
		r.code = fmt.Sprintf("%s (host, HTTP %d)", h.Env.Code, h.Status)
		r.retry = h.Env.Retryable
		r.repair = repairFor(h.Env.Code, h.Env.HostCode)
		if ptr := hostPointer(h.Env); ptr != "" {
			r.pointer = ptr
		}
	case errors.As(err, &p):
		r.cause = p.Reason
		if p.Status != 0 {
			r.code = fmt.Sprintf("protocol-invalid host response (HTTP %d)", p.Status)
		} else {
			r.code = "protocol-invalid host response"
		}
		r.repair = protocolInvalidRepair
	case errors.As(err, &v):
		r.cause = v.Reason
		r.code = codeHostResponseInvalid
		r.repair = protocolInvalidRepair
		// the member the answer breaks, not where the request was about (a header's
		// rule names none)
		r.pointer = ""
		r.violatedAt(err)
		if r.ref != nil && r.name != "" {
			r.summary = fmt.Sprintf("Host response for %s %s is not usable", r.ref.Kind, r.name)
		}
	case errors.As(err, &un):
		r.cause = un.Reason
		r.code = codeHostNoForm
		r.repair = "Use a host that offers this Form and operation, or remove the resource."
	default:
		r.cause = err.Error()
		if client.IsTransport(err) {
			r.repair = "The connection to the host broke before a complete answer came. Check the endpoint and network, then apply again."
		}
	}
	return r
}

// violatedAt points r at the member a *client.Violation in err names, if it names one.
func (r *report) violatedAt(err error) *report {
	var v *client.Violation
	if errors.As(err, &v) && v.Pointer != "" {
		r.pointer = v.Pointer
	}
	return r
}

// hostPointer is the field pointer a host names in details.field, if any.
func hostPointer(e *wire.Error) string {
	if len(e.Details) == 0 {
		return ""
	}
	var d struct {
		Field string `json:"field"`
	}
	if v, err := decodeJSON(e.Details); err == nil {
		if m, ok := v.(map[string]any); ok {
			if s, ok := m["field"].(string); ok && strings.HasPrefix(s, "/") {
				d.Field = s
			}
		}
	}
	if d.Field == "" {
		return ""
	}
	if strings.HasPrefix(d.Field, "/spec") || strings.HasPrefix(d.Field, "/metadata") {
		return d.Field
	}
	return "/spec" + d.Field
}
