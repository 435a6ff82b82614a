package client

import (
	"encoding/json"
	"fmt"

	"github.com/takokit/takokit/catalog/wire"
)

// Resource is a resource representation as served (docs/provider-design.md#lifecycle).
type Resource struct {
	APIVersion string          `json:"apiVersion"`
	Kind       string          `json:"kind"`
	Form       FormBlock       `json:"form"`
	Metadata   Metadata        `json:"metadata"`
	Spec       json.RawMessage `json:"spec"`
	Status     *Status         `json:"status"`
}

// FormBlock is the representation's `form` member.
type FormBlock struct {
	FormRef       wire.FormRef `json:"formRef"`
	PackageDigest string       `json:"packageDigest,omitempty"`
}

// Metadata is the representation's identity.
type Metadata struct {
	Name       string `json:"name"`
	Space      string `json:"space"`
	UID        string `json:"uid,omitempty"`
	Generation string `json:"generation,omitempty"`
	Revision   string `json:"revision,omitempty"`
}

// Status is the representation's status.
type Status struct {
	ObservedGeneration string          `json:"observedGeneration"`
	Conditions         []Condition     `json:"conditions"`
	Outputs            json.RawMessage `json:"outputs,omitempty"`
	Observed           json.RawMessage `json:"observed,omitempty"`
}

// Condition is one status condition.
type Condition struct {
	Type               string  `json:"type"`
	Status             string  `json:"status"`
	Reason             string  `json:"reason"`
	LastTransitionTime string  `json:"lastTransitionTime"`
	HostReason         *string `json:"hostReason,omitempty"`
	Message            *string `json:"message,omitempty"`
}

// DecodeResource decodes a representation strictly.
func DecodeResource(body []byte) (*Resource, error) {
	var r Resource
	if err := wire.DecodeStrict(body, &r); err != nil {
		return nil, err
	}
	return &r, nil
}

// Expect is what a representation must repeat.
type Expect struct {
	Ref   wire.FormRef
	Name  string
	Space string
}

// Violation is the rule of response verification a representation breaks: the JSON
// Pointer of the member that breaks it ("" for the ETag header) and why.
type Violation struct {
	Pointer, Reason string
}

func (v *Violation) Error() string { return v.Reason }

// violation is a *Violation at ptr, its reason formatted.
func violation(ptr, format string, args ...any) error {
	return &Violation{Pointer: ptr, Reason: fmt.Sprintf(format, args...)}
}

// Verify applies docs/provider-design.md#lifecycle "response verification" (the ETag is checked by
// the caller that has the header). A failure is a *Violation naming the member.
func Verify(r *Resource, want Expect) error {
	switch {
	case r.Form.FormRef != want.Ref:
		return violation("/form/formRef", "the answer is under Form %s, not the requested %s", r.Form.FormRef, want.Ref)
	case r.APIVersion != want.Ref.APIVersion:
		return violation("/apiVersion", "the answer names %s %s, not %s %s", r.APIVersion, r.Kind, want.Ref.APIVersion, want.Ref.Kind)
	case r.Kind != want.Ref.Kind:
		return violation("/kind", "the answer names %s %s, not %s %s", r.APIVersion, r.Kind, want.Ref.APIVersion, want.Ref.Kind)
	case r.Metadata.Name != want.Name:
		return violation("/metadata/name", "the answer names resource %q, not %q", r.Metadata.Name, want.Name)
	case r.Metadata.Space != want.Space:
		return violation("/metadata/space", "the answer is in space %q, not %q", r.Metadata.Space, want.Space)
	case !wire.ValidUID(r.Metadata.UID):
		return violation("/metadata/uid", "metadata.uid %q does not match the uid grammar", r.Metadata.UID)
	case !wire.ValidDecimal(r.Metadata.Generation):
		return violation("/metadata/generation", "metadata.generation %q is not a canonical positive decimal", r.Metadata.Generation)
	case !wire.ValidDecimal(r.Metadata.Revision):
		return violation("/metadata/revision", "metadata.revision %q is not a canonical positive decimal", r.Metadata.Revision)
	case len(r.Spec) == 0 || r.Spec[0] != '{':
		return violation("/spec", "spec is missing or not an object")
	case r.Status == nil:
		// the writer reports a missing status once per declared output, naming each
		// (docs/provider-design.md#outputs), and once for a Form that declares none
		return nil
	case !wire.ValidDecimal(r.Status.ObservedGeneration):
		return violation("/status/observedGeneration", "status.observedGeneration %q is not a canonical positive decimal", r.Status.ObservedGeneration)
	case r.Status.Conditions == nil:
		return violation("/status/conditions", "status.conditions is missing or null")
	}
	for i, c := range r.Status.Conditions {
		if !wire.KnownConditionType(c.Type) || !wire.KnownConditionStatus(c.Status) || !wire.KnownConditionReason(c.Reason) {
			return violation(fmt.Sprintf("/status/conditions/%d", i), "status.conditions[%d] (%s/%s/%s) is outside the published vocabularies", i, c.Type, c.Status, c.Reason)
		}
	}
	return nil
}

// VerifyETag checks that the strong ETag equals "<revision>".
func VerifyETag(r *Resource, etags []string) error {
	if len(etags) != 1 || etags[0] != `"`+r.Metadata.Revision+`"` {
		return violation("", "ETag %q is not exactly the quoted revision \"%s\"", etags, r.Metadata.Revision)
	}
	return nil
}
