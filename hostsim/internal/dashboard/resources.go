package dashboard

import (
	"net/http"

	"github.com/takokit/takokit/hostsim/internal/hostview"
)

// resourceGroup is the resources of one tenant and space.
type resourceGroup struct {
	Tenant, Space string
	Rows          []resourceRow
}

type resourceRow struct {
	*hostview.Resource
	Link    string
	Ready   readyView
	Outputs []hostview.Output
}

type readyView struct {
	Status, Reason, HostReason, Message, Class string
}

// resourcesPage lists every resource by tenant and space: kind, name,
// FormRef version, uid, generation, revision, Ready and typed outputs.
func (u *UI) resourcesPage(w http.ResponseWriter, r *http.Request, s *session, _ []string) error {
	p := u.newPage(r, s, "resources", "Resources")
	res, err := u.State.Resources(r.Context())
	if err != nil {
		return err
	}
	var groups []*resourceGroup
	for i := range res {
		x := &res[i]
		if len(groups) == 0 || groups[len(groups)-1].Tenant != x.Tenant || groups[len(groups)-1].Space != x.Space {
			groups = append(groups, &resourceGroup{Tenant: x.Tenant, Space: x.Space})
		}
		g := groups[len(groups)-1]
		g.Rows = append(g.Rows, u.row(x))
	}
	p.Data = groups
	return u.render(w, http.StatusOK, "resources", p)
}

func (u *UI) row(x *hostview.Resource) resourceRow {
	rd := x.Ready()
	return resourceRow{Resource: x, Link: resourceURL(x.Tenant, x.Space, x.APIVersion, x.Kind, x.Name),
		Ready:   readyView{Status: rd.Status, Reason: rd.Reason, HostReason: rd.HostReason, Message: rd.Message, Class: readyClass(rd.Status)},
		Outputs: u.State.TypedOutputs(x)}
}
