package admin

import (
	"encoding/json"
	"net/http"

	"github.com/takokit/takokit/hostsim/internal/store"
)

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
	q := a.st().DB()
	res, err := store.ListResources(q)
	if err != nil {
		return err
	}
	ops, err := store.ListOperations(q)
	if err != nil {
		return err
	}
	out := struct {
		Resources     []resourceState  `json:"resources"`
		Operations    []operationState `json:"operations"`
		Transitions   any              `json:"transitions"`
		Backend       any              `json:"backend"`
		BackendLedger any              `json:"backendLedger"`
	}{Resources: []resourceState{}, Operations: []operationState{}, Transitions: []any{}, Backend: []any{}, BackendLedger: []any{}}
	for _, x := range res {
		rs := resourceState{Tenant: x.Tenant, Space: x.Space, APIVersion: x.APIVersion,
			Kind: x.Kind, Name: x.Name, DefinitionVersion: x.DefVersion, SchemaDigest: x.SchemaDigest, UID: x.UID,
			Generation: itoa(x.Generation), Revision: itoa(x.Revision), NativeClaimed: x.NativeID != ""}
		if tr := a.Lane.Transitions; tr != nil { // Form transition claim (transitions.md §5)
			cl, err := tr.Claim(q, x.UID)
			if err != nil {
				return err
			}
			if cl != nil {
				rs.Claim = cl.OperationID
			}
		}
		out.Resources = append(out.Resources, rs)
	}
	if tr := a.Lane.Transitions; tr != nil { // the transition ledger and the backend (hostsim.md §7)
		ts, err := tr.State(q, a.Lane.Now())
		if err != nil {
			return err
		}
		out.Transitions, out.Backend, out.BackendLedger = ts.Transitions, ts.Backend, ts.BackendLedger
	}
	for _, o := range ops {
		out.Operations = append(out.Operations, operationState{ID: o.ID, Tenant: o.Tenant, Principal: o.Principal,
			Action: o.Action, Kind: o.Kind, Name: o.Name, Done: o.Done, Polls: o.Polls, Document: o.Doc})
	}
	return writeJSON(w, 200, out)
}

func itoa(n int64) string { b, _ := json.Marshal(n); return string(b) }
