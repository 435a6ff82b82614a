package dashboard

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/takokit/takokit/hostsim/internal/hostview"
	"github.com/takokit/takokit/hostsim/internal/journal"
)

type resourceData struct {
	resourceRow
	Pins   []pinView
	Events []journal.Event
	// Database is the real database of a SQLiteDatabase (nil for other kinds).
	Database *hostview.Database
}

type pinView struct {
	Pointer, Relation, Target, TargetUID, Link string
	TargetRef, BindingRef                      refView
}

// refView is an exact reference kept as JSON (a FormRef or a BindingRef),
// shown short with the whole of it on hover.
type refView struct{ Short, Full string }

func shortRef(raw string) refView {
	var r struct {
		Kind, DefinitionVersion, Name, Version string
	}
	if raw == "" || json.Unmarshal([]byte(raw), &r) != nil {
		return refView{Short: raw, Full: raw}
	}
	switch {
	case r.Kind != "" && r.DefinitionVersion != "":
		return refView{Short: r.Kind + "@" + r.DefinitionVersion, Full: raw}
	case r.Name != "" && r.Version != "":
		return refView{Short: r.Name + "@" + r.Version, Full: raw}
	}
	return refView{Short: raw, Full: raw}
}

// resourcePage is one resource: its identity, Ready and every condition,
// typed outputs, spec, relation pins, a database's ledger and tables, and the
// journal events about it.
// The path is resources/{tenant}/{space}/{apiVersion…}/{kind}/{name}.
func (u *UI) resourcePage(w http.ResponseWriter, r *http.Request, s *session, args []string) error {
	if len(args) < 5 {
		return notFound("%s is not a resource address: resources/{tenant}/{space}/{apiVersion}/{kind}/{name}.", r.URL.Path)
	}
	tenant, space, kind, name := args[0], args[1], args[len(args)-2], args[len(args)-1]
	apiVersion := strings.Join(args[2:len(args)-2], "/")
	x, err := u.State.Resource(r.Context(), tenant, space, apiVersion, kind, name)
	if err != nil {
		return err
	}
	if x == nil {
		return notFound("No %s %q is stored in tenant %s, space %s (%s). It may never have been created, or it was deleted; "+
			"the Resources page lists what the host holds.", kind, name, tenant, space, apiVersion)
	}
	p := u.newPage(r, s, "resources", x.Kind+" "+x.Name)
	d := &resourceData{resourceRow: u.row(x)}
	for _, pin := range x.Pins {
		d.Pins = append(d.Pins, pinView{Pointer: pin.Pointer, Relation: pin.Relation,
			Target: pin.TargetKind + " " + pin.TargetName, TargetUID: pin.TargetUID, TargetRef: shortRef(pin.TargetRef), BindingRef: shortRef(pin.BindingRef),
			Link: resourceURL(x.Tenant, x.Space, pin.TargetAPIVersion, pin.TargetKind, pin.TargetName)})
	}
	if d.Database, err = u.State.DatabaseOf(r.Context(), x); err != nil {
		return err
	}
	d.Events = reverse(u.State.ResourceEvents(x, p.After, feedSize))
	p.Data = d
	return u.render(w, http.StatusOK, "resource", p)
}
