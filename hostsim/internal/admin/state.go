package admin

import (
	"encoding/json"
	"net/http"

	"github.com/takokit/takokit/catalog/wire"
)

// The JSON of GET /_sim/state (docs/protocol.md#admin).

type resourceState struct {
	Tenant            string `json:"tenant"`
	Space             string `json:"space"`
	APIVersion        string `json:"apiVersion"`
	Kind              string `json:"kind"`
	Name              string `json:"name"`
	DefinitionVersion string `json:"definitionVersion"`
	SchemaDigest      string `json:"schemaDigest"`
	UID               string `json:"uid"`
	Generation        string `json:"generation"`
	Revision          string `json:"revision"`
	Claim             any    `json:"claim"` // the Form transition claim: its operationId, or null
	NativeClaimed     bool   `json:"nativeClaimed"`
}

type operationState struct {
	ID        string          `json:"id"`
	Tenant    string          `json:"tenant"`
	Principal string          `json:"principal"`
	Action    string          `json:"action"`
	Kind      string          `json:"kind"`
	Name      string          `json:"name"`
	Done      bool            `json:"done"`
	Polls     int64           `json:"polls"`
	Document  json.RawMessage `json:"document"`
}

func (a *API) state(w http.ResponseWriter, r *http.Request, _ string) error {
	ctx := r.Context()
	res, err := a.State.Resources(ctx)
	if err != nil {
		return err
	}
	ops, err := a.State.Operations(ctx)
	if err != nil {
		return err
	}
	tr, err := a.State.Transitions(ctx)
	if err != nil {
		return err
	}
	out := struct {
		Resources     []resourceState  `json:"resources"`
		Operations    []operationState `json:"operations"`
		Transitions   any              `json:"transitions"`
		Backend       any              `json:"backend"`
		BackendLedger any              `json:"backendLedger"`
	}{Resources: []resourceState{}, Operations: []operationState{}, Transitions: tr.Transitions, Backend: tr.Backend,
		BackendLedger: tr.BackendLedger}
	for _, x := range res {
		rs := resourceState{Tenant: x.Tenant, Space: x.Space, APIVersion: x.APIVersion, Kind: x.Kind, Name: x.Name,
			DefinitionVersion: x.DefinitionVersion, SchemaDigest: x.SchemaDigest, UID: x.UID,
			Generation: wire.FormatDecimal(x.Generation), Revision: wire.FormatDecimal(x.Revision), NativeClaimed: x.NativeClaimed}
		if x.Claim != "" {
			rs.Claim = x.Claim
		}
		out.Resources = append(out.Resources, rs)
	}
	for _, o := range ops {
		out.Operations = append(out.Operations, operationState{ID: o.ID, Tenant: o.Tenant, Principal: o.Principal,
			Action: o.Action, Kind: o.Kind, Name: o.Name, Done: o.Done, Polls: o.Polls, Document: o.Document})
	}
	return writeJSON(w, 200, out)
}
