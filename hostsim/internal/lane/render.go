package lane

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/store"
)

type formOut struct {
	FormRef       wire.FormRef `json:"formRef"`
	PackageDigest string       `json:"packageDigest,omitempty"`
}

type metaOut struct {
	Name       string `json:"name"`
	Space      string `json:"space"`
	UID        string `json:"uid"`
	Generation string `json:"generation"`
	Revision   string `json:"revision"`
}

type condition struct {
	Type               string `json:"type"`
	Status             string `json:"status"`
	Reason             string `json:"reason"`
	LastTransitionTime string `json:"lastTransitionTime"`
	HostReason         string `json:"hostReason,omitempty"`
	Message            string `json:"message,omitempty"`
}

type statusOut struct {
	ObservedGeneration string          `json:"observedGeneration"`
	Conditions         []condition     `json:"conditions"`
	Outputs            json.RawMessage `json:"outputs,omitempty"`
}

type representation struct {
	APIVersion string          `json:"apiVersion"`
	Kind       string          `json:"kind"`
	Form       formOut         `json:"form"`
	Metadata   metaOut         `json:"metadata"`
	Spec       json.RawMessage `json:"spec"`
	Status     statusOut       `json:"status"`
}

func ref(r *store.Resource) wire.FormRef {
	return wire.FormRef{APIVersion: r.APIVersion, Kind: r.Kind, DefinitionVersion: r.DefVersion, SchemaDigest: r.SchemaDigest}
}

func itoa(n int64) string { return fmt.Sprint(n) }

func etag(r *store.Resource) string { return `"` + itoa(r.Revision) + `"` }

// render builds the served representation of r. Outputs are computed for the
// recorded Definition, validated against its outputSchema, and only then are
// armed outputs.* faults applied (q is where fault firings are counted).
func (c *call) render(q store.Q, r *store.Resource) (*representation, *apiError) {
	f, ok := c.s.Host.Cat.Form(ref(r))
	if !ok {
		return nil, internal(fmt.Errorf("resource %s %q is recorded under %s, which the catalog does not hold", r.Kind, r.Name, ref(r)))
	}
	rd, err := c.readyOf(q, r)
	if err != nil {
		return nil, internal(err)
	}
	ltt := r.ReadyLTT
	if rd.Status != r.ReadyStatus {
		ltt = c.s.nowText()
	}
	rep := &representation{
		APIVersion: r.APIVersion, Kind: r.Kind,
		Form:     formOut{FormRef: ref(r), PackageDigest: f.PackageDigest},
		Metadata: metaOut{Name: r.Name, Space: r.Space, UID: r.UID, Generation: itoa(r.Generation), Revision: itoa(r.Revision)},
		Spec:     json.RawMessage(r.Spec),
		Status: statusOut{ObservedGeneration: itoa(r.Generation), Conditions: []condition{{
			Type: "Ready", Status: rd.Status, Reason: c.readyReason(rd.Reason), LastTransitionTime: ltt,
			HostReason: rd.HostReason, Message: rd.Message}}},
	}
	if cond, err := c.claimCondition(q, r); err != nil { // Form transition claim (transitions.md §5)
		return nil, internal(err)
	} else if cond != nil {
		rep.Status.Conditions = append(rep.Status.Conditions, *cond)
	}
	if r.NativeID != "" && c.faultOn("import.echo-native") {
		rep.Status.Conditions[0].Message = "adopted native object " + r.NativeID
	}
	if f.HasOutputs() {
		key := r.UID
		if c.faultOn("endpoint.reassign") { // a new address on every answer
			key = r.UID + "/" + c.id
		}
		out, err := c.outputs(f, key)
		if err != nil {
			return nil, internal(err)
		}
		rep.Status.Outputs = out
	}
	rep.Status.Outputs = c.outputFaults(q, f, r, rep.Status.Outputs)
	return rep, nil
}

// outputs computes the host-assigned outputs of f for uid (docs/decisions.md:
// host-assigned outputs). Strings are the assigned hostname, or the https URL of
// it when the member's pattern is an https URL; integers are the https port 443
// clamped to the declared bounds; booleans true; enums their first value.
func (c *call) outputs(f *catalog.Form, uid string) (json.RawMessage, error) {
	sum := sha256.Sum256([]byte(uid))
	host := "e" + hex.EncodeToString(sum[:])[:16] + "." + c.s.Host.P.Domain()
	out := map[string]any{}
	for _, o := range f.Outputs {
		out[o.Wire] = outputValue(o, host)
	}
	if err := f.ValidateOutputs(out); err != nil {
		return nil, fmt.Errorf("hostsim cannot assign outputs of %s %s: %v", f.Ref.Kind, f.Ref.DefinitionVersion, err)
	}
	return json.Marshal(out)
}

func outputValue(o catalog.Output, host string) any {
	if len(o.Enum) > 0 {
		var v any
		if o.Type == "string" {
			return o.Enum[0]
		}
		if json.Unmarshal([]byte(o.Enum[0]), &v) == nil {
			return v
		}
	}
	switch o.Type {
	case "integer":
		n := int64(443)
		if o.Max != nil && n > *o.Max {
			n = *o.Max
		}
		if o.Min != nil && n < *o.Min {
			n = *o.Min
		}
		return n
	case "boolean":
		return true
	}
	if strings.HasPrefix(o.Pattern, "^https://") {
		return "https://" + host + "/"
	}
	return host
}

// marshal renders a value as served (compact).
func marshal(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}
