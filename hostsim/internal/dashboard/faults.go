package dashboard

import (
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/takokit/takokit/hostsim/internal/fault"
	"github.com/takokit/takokit/hostsim/internal/hostview"
	"github.com/takokit/takokit/hostsim/internal/journal"
)

type faultsData struct {
	Stages   []stageView
	Armed    []fault.Armed
	Runtime  int // how many armed faults are run-time ones (the disarm button's)
	Form     armForm
	Selected *fault.Rule
	Kinds    []string
	Routes   []string // the lane's routes a fault may be scoped to
	Firings  []journal.Event
}

// stageOrder groups the fault table the way a request meets the faults:
// first the ones acting on any request, last the ones that each switch off
// one lane rule.
var stageOrder = []fault.Stage{fault.StageRequest, fault.StageMutation, fault.StageRender, fault.StageResponse,
	fault.StageTransition, fault.StageRules}

type stageView struct {
	Stage fault.Stage
	Rules []*fault.Rule
}

// armForm is the arm form's values, kept when the host refuses them.
type armForm struct {
	Fault, Kind, Resource, Route, Count, Value string
}

// faultsPage is every fault definition with its effect, the arm form, the
// armed faults with their fired counts, and the latest firings.
func (u *UI) faultsPage(w http.ResponseWriter, r *http.Request, s *session, _ []string) error {
	return u.drawFaults(w, r, s, http.StatusOK, armForm{Fault: r.URL.Query().Get("arm")}, "")
}

func (u *UI) drawFaults(w http.ResponseWriter, r *http.Request, s *session, status int, form armForm, problem string) error {
	p := u.newPage(r, s, "faults", "Faults")
	p.Error = problem
	armed, err := u.State.Faults()
	if err != nil {
		return err
	}
	d := &faultsData{Armed: armed, Form: form, Kinds: u.State.Kinds(), Routes: fault.RouteNames,
		Firings: reverse(u.State.RecentEvents(p.After, feedSize, func(ev journal.Event) bool { return ev.Type == "fault" }))}
	for _, a := range armed {
		if a.Source == "runtime" {
			d.Runtime++
		}
	}
	d.Selected, _ = fault.Lookup(form.Fault)
	table := hostview.FaultTable()
	order := append([]fault.Stage(nil), stageOrder...)
	for _, rule := range table { // a stage added later still shows, last
		if !slices.Contains(order, rule.Stage) {
			order = append(order, rule.Stage)
		}
	}
	for _, stage := range order {
		sv := stageView{Stage: stage}
		for _, rule := range table {
			if rule.Stage == stage {
				sv.Rules = append(sv.Rules, rule)
			}
		}
		if len(sv.Rules) > 0 {
			d.Stages = append(d.Stages, sv)
		}
	}
	p.Data = d
	return u.render(w, status, "faults", p)
}

// armFault arms one fault from the form (the admin API's POST /_sim/faults);
// a fault the table refuses is shown with the reason and nothing is armed.
func (u *UI) armFault(w http.ResponseWriter, r *http.Request, s *session, _ []string) error {
	f := armForm{Fault: r.PostForm.Get("fault"), Kind: strings.TrimSpace(r.PostForm.Get("kind")),
		Resource: strings.TrimSpace(r.PostForm.Get("resource")), Route: r.PostForm.Get("route"),
		Count: strings.TrimSpace(r.PostForm.Get("count")), Value: r.PostForm.Get("value")}
	spec := fault.Spec{Fault: f.Fault, Kind: f.Kind, Resource: f.Resource, Route: f.Route, Value: f.Value}
	if f.Count != "" {
		n, err := strconv.ParseInt(f.Count, 10, 64)
		if err != nil || n < 1 {
			return u.drawFaults(w, r, s, http.StatusBadRequest, f,
				"Nothing armed: count "+quote(f.Count)+" is not a positive whole number; leave it empty to fire on every matching request.")
		}
		spec.Count = n
	}
	if err := spec.Validate(); err != nil {
		return u.drawFaults(w, r, s, http.StatusBadRequest, f, "Nothing armed: "+err.Error()+".")
	}
	if err := u.State.Armory.Arm(r.Context(), spec); err != nil {
		return err
	}
	redirect(w, r, "/faults", "armed")
	return nil
}

// disarmFaults removes every run-time fault (DELETE /_sim/faults).
func (u *UI) disarmFaults(w http.ResponseWriter, r *http.Request, _ *session, _ []string) error {
	if err := u.State.Armory.DisarmRuntime(r.Context()); err != nil {
		return err
	}
	redirect(w, r, "/faults", "disarmed")
	return nil
}
