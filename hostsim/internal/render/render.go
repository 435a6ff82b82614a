// Package render builds the representation a resource is served as
// (docs/protocol.md#identity, #status, #outputs): its recorded FormRef,
// metadata, materialized spec and status — the Ready condition (derived
// rendering included), the Reconciling condition of a Form transition claim,
// and the host-assigned outputs of its recorded Definition.
package render

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/decide"
	"github.com/takokit/takokit/hostsim/internal/fault"
	"github.com/takokit/takokit/hostsim/internal/profile"
	"github.com/takokit/takokit/hostsim/internal/related"
	"github.com/takokit/takokit/hostsim/internal/request"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// Form is `form` in a representation.
type Form struct {
	FormRef       wire.FormRef `json:"formRef"`
	PackageDigest string       `json:"packageDigest,omitempty"`
}

// Metadata is `metadata` in a representation.
type Metadata struct {
	Name       string `json:"name"`
	Space      string `json:"space"`
	UID        string `json:"uid"`
	Generation string `json:"generation"`
	Revision   string `json:"revision"`
}

// Condition is one status condition.
type Condition struct {
	Type               string `json:"type"`
	Status             string `json:"status"`
	Reason             string `json:"reason"`
	LastTransitionTime string `json:"lastTransitionTime"`
	HostReason         string `json:"hostReason,omitempty"`
	Message            string `json:"message,omitempty"`
}

// Status is `status` in a representation.
type Status struct {
	ObservedGeneration string          `json:"observedGeneration"`
	Conditions         []Condition     `json:"conditions"`
	Outputs            json.RawMessage `json:"outputs,omitempty"`
}

// Representation is a resource as served.
type Representation struct {
	APIVersion string          `json:"apiVersion"`
	Kind       string          `json:"kind"`
	Form       Form            `json:"form"`
	Metadata   Metadata        `json:"metadata"`
	Spec       json.RawMessage `json:"spec"`
	Status     Status          `json:"status"`
	noStatus   bool            // served without status (fault outputs.drop-status)
}

// JSON is the representation's bytes as served: json.Marshal's bytes,
// written directly when every string is plain (json.go).
func (r *Representation) JSON() []byte {
	if r.noStatus {
		b, _ := json.Marshal(struct {
			APIVersion string          `json:"apiVersion"`
			Kind       string          `json:"kind"`
			Form       Form            `json:"form"`
			Metadata   Metadata        `json:"metadata"`
			Spec       json.RawMessage `json:"spec"`
		}{r.APIVersion, r.Kind, r.Form, r.Metadata, r.Spec})
		return b
	}
	if b, ok := r.appendPlain(make([]byte, 0, 768+len(r.Spec)+len(r.Status.Outputs))); ok {
		return b
	}
	b, _ := json.Marshal(r)
	return b
}

// Renderer renders the resources of one host.
type Renderer struct {
	Host *profile.Host
	G    *related.G
	Now  func() time.Time
}

// NowText is a condition time: UTC, whole seconds.
func NowText(now time.Time) string { return now.UTC().Truncate(time.Second).Format(time.RFC3339) }

// Render builds the served representation of r. pins are r's pins when the
// caller just wrote them (nil: read when r holds any). Outputs are computed
// for the recorded Definition and validated against its outputSchema before
// the output faults act on them.
func (x *Renderer) Render(q store.Q, r *store.Resource, pins []store.Pin, fs *fault.Set) (*Representation, error) {
	f, ok := x.Host.Cat.Form(decide.Ref(r))
	if !ok {
		return nil, fmt.Errorf("resource %s %q is recorded under %s, which the catalog does not hold", r.Kind, r.Name, decide.Ref(r))
	}
	rd, err := x.G.ReadyOf(q, r, pins, fs)
	if err != nil {
		return nil, err
	}
	ltt := r.ReadyLTT
	if rd.Status != r.ReadyStatus {
		ltt = NowText(x.Now())
	}
	ready := Condition{Type: wire.ConditionReady, Status: rd.Status, Reason: rd.Reason, LastTransitionTime: ltt,
		HostReason: rd.HostReason, Message: rd.Message}
	if fs.On(fault.StatusInventReason) {
		ready.Reason = "InventedByHostsim"
	}
	if r.NativeID != "" {
		if fs.On(fault.ImportEchoNative) {
			ready.Message = "adopted native object " + r.NativeID
		}
	}
	rep := &Representation{
		APIVersion: r.APIVersion, Kind: r.Kind,
		Form: Form{FormRef: decide.Ref(r), PackageDigest: f.PackageDigest},
		Metadata: Metadata{Name: r.Name, Space: r.Space, UID: r.UID, Generation: wire.FormatDecimal(r.Generation),
			Revision: wire.FormatDecimal(r.Revision)},
		Spec:   json.RawMessage(r.Spec),
		Status: Status{ObservedGeneration: wire.FormatDecimal(r.Generation), Conditions: []Condition{ready}},
	}
	if r.ClaimOp != "" {
		rep.Status.Conditions = append(rep.Status.Conditions, claimCondition(r))
	}
	if rep.Status.Outputs, err = x.outputs(f, r, fs); err != nil {
		return nil, err
	}
	dropStatus(f, rep, fs)
	return rep, nil
}

// claimCondition is the Reconciling condition of a resource a Form
// transition holds (docs/protocol.md#transitions).
func claimCondition(r *store.Resource) Condition {
	return Condition{Type: wire.ConditionReconciling, Status: wire.StatusTrue, Reason: wire.ReasonReconciling,
		LastTransitionTime: r.ClaimSince, HostReason: "form-transition",
		Message: "Form transition " + r.ClaimOp + " holds this resource; its outcome is at " + r.ClaimPath}
}

// ETag is the representation's entity tag: "<revision>".
func ETag(r *store.Resource, fs *fault.Set) string {
	if fs.On(fault.ETagWeak) {
		return "W/" + request.ETag(r.Revision)
	}
	return request.ETag(r.Revision)
}
