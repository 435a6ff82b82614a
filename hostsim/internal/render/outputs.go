package render

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/hostsim/internal/fault"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// outputs are the served status.outputs of r under its recorded Definition f:
// exactly the declared members, or none (docs/protocol.md#outputs), then
// whatever an armed output fault does to them.
func (x *Renderer) outputs(f *catalog.Form, r *store.Resource, fs *fault.Set) (json.RawMessage, error) {
	var out map[string]any
	if f.HasOutputs() {
		key := r.UID
		if fs.On(fault.EndpointReassign) {
			key = r.UID + "/" + fs.RequestID() // a new address on every answer
		}
		if fs.On(fault.EndpointSharedAddress) {
			key = r.Kind // one address for every resource of the kind
		}
		var err error
		if out, err = Outputs(f, key, x.Host.P.Domain()); err != nil {
			return nil, err
		}
	}
	out = outputFaults(f, out, fs)
	if out == nil {
		return nil, nil
	}
	return json.Marshal(out)
}

// Outputs computes the host-assigned outputs of f for key (the uid): strings
// are the assigned hostname, or its https URL when the member's pattern is an
// https URL; integers the https port 443 clamped to the declared bounds;
// booleans true; enums their first value (docs/decisions.md: host-assigned
// outputs). The result is validated against the outputSchema.
func Outputs(f *catalog.Form, key, domain string) (map[string]any, error) {
	sum := sha256.Sum256([]byte(key))
	host := "e" + hex.EncodeToString(sum[:])[:16] + "." + domain
	out := make(map[string]any, len(f.Outputs))
	for _, o := range f.Outputs {
		out[o.Wire] = outputValue(o, host)
	}
	if err := f.ValidateOutputs(out); err != nil {
		return nil, fmt.Errorf("hostsim cannot assign outputs of %s %s: %v", f.Ref.Kind, f.Ref.DefinitionVersion, err)
	}
	return out, nil
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
		if o.Max != nil {
			n = min(n, *o.Max)
		}
		if o.Min != nil {
			n = max(n, *o.Min)
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
