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

// Verify applies docs/provider-design.md#lifecycle "response verification" (the ETag is checked by
// the caller that has the header). A failure reason is returned as an error.
func Verify(r *Resource, want Expect) error {
	switch {
	case r.Form.FormRef != want.Ref:
		return fmt.Errorf("the answer is under Form %s, not the requested %s", r.Form.FormRef, want.Ref)
	case r.APIVersion != want.Ref.APIVersion || r.Kind != want.Ref.Kind:
		return fmt.Errorf("the answer names %s %s, not %s %s", r.APIVersion, r.Kind, want.Ref.APIVersion, want.Ref.Kind)
	case r.Metadata.Name != want.Name:
		return fmt.Errorf("the answer names resource %q, not %q", r.Metadata.Name, want.Name)
	case r.Metadata.Space != want.Space:
		return fmt.Errorf("the answer is in space %q, not %q", r.Metadata.Space, want.Space)
	case !wire.ValidUID(r.Metadata.UID):
		return fmt.Errorf("metadata.uid %q does not match the uid grammar", r.Metadata.UID)
	case !wire.ValidDecimal(r.Metadata.Generation):
		return fmt.Errorf("metadata.generation %q is not a canonical positive decimal", r.Metadata.Generation)
	case !wire.ValidDecimal(r.Metadata.Revision):
		return fmt.Errorf("metadata.revision %q is not a canonical positive decimal", r.Metadata.Revision)
	case len(r.Spec) == 0 || r.Spec[0] != '{':
		return fmt.Errorf("spec is missing or not an object")
	case r.Status == nil:
		// the writer reports a missing status once per declared output, naming each
		// (docs/provider-design.md#outputs), and once for a Form that declares none
		return nil
	case !wire.ValidDecimal(r.Status.ObservedGeneration):
		return fmt.Errorf("status.observedGeneration %q is not a canonical positive decimal", r.Status.ObservedGeneration)
	case r.Status.Conditions == nil:
		return fmt.Errorf("status.conditions is missing or null")
	}
	for i, c := range r.Status.Conditions {
		if !wire.KnownConditionType(c.Type) || !wire.KnownConditionStatus(c.Status) || !wire.KnownConditionReason(c.Reason) {
			return fmt.Errorf("status.conditions[%d] (%s/%s/%s) is outside the published vocabularies", i, c.Type, c.Status, c.Reason)
		}
	}
	return nil
}

// VerifyETag checks that the strong ETag equals "<revision>".
func VerifyETag(r *Resource, etags []string) error {
	if len(etags) != 1 || etags[0] != `"`+r.Metadata.Revision+`"` {
		return fmt.Errorf("ETag %q is not exactly the quoted revision \"%s\"", etags, r.Metadata.Revision)
	}
	return nil
}
