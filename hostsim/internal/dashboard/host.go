package dashboard

import (
	"net/http"
	"sort"

	"github.com/takokit/takokit/hostsim/internal/hostview"
	"github.com/takokit/takokit/hostsim/internal/journal"
)

// feedSize is how many events a page's feed shows when it is drawn.
const feedSize = 50

type hostData struct {
	Description       string
	LaneURL, AdminURL string
	Refuses           []string
	Installed         hostview.Installed
	Counters          *hostview.Counters
	Dispatch          []dispatch
	Resources         int
	NotReady          int
	Pending           int
	Armed             int
	Events            []journal.Event
}

type dispatch struct {
	OperationID string
	Calls       int64
}

// hostPage is the profile in force and what it refuses compared with full,
// the counters, and a live feed of every request and journal event.
func (u *UI) hostPage(w http.ResponseWriter, r *http.Request, s *session, _ []string) error {
	p := u.newPage(r, s, "host", "Host")
	p.Refresh = "*"
	ctx := r.Context()
	refuses, err := u.State.Refusals()
	if err != nil {
		return err
	}
	c, err := u.State.Counters(ctx)
	if err != nil {
		return err
	}
	res, err := u.State.Resources(ctx)
	if err != nil {
		return err
	}
	ops, err := u.State.Operations(ctx)
	if err != nil {
		return err
	}
	armed, err := u.State.Faults()
	if err != nil {
		return err
	}
	d := &hostData{Description: u.State.Profile().Description, LaneURL: "http://" + r.Host, AdminURL: "http://" + r.Host + "/_sim",
		Refuses: refuses, Installed: u.State.Installed(), Counters: c, Resources: len(res), Armed: len(armed),
		Events: reverse(u.State.RecentEvents(p.After, feedSize, nil))}
	for i := range res {
		if res[i].Ready().Status != "True" {
			d.NotReady++
		}
	}
	for _, o := range ops {
		if !o.Done {
			d.Pending++
		}
	}
	for id, n := range c.Dispatch {
		d.Dispatch = append(d.Dispatch, dispatch{id, n})
	}
	sort.Slice(d.Dispatch, func(i, j int) bool { return d.Dispatch[i].OperationID < d.Dispatch[j].OperationID })
	p.Data = d
	return u.render(w, http.StatusOK, "host", p)
}

// reverse puts the newest event first, as the feeds show them.
func reverse(evs []journal.Event) []journal.Event {
	out := make([]journal.Event, len(evs))
	for i, ev := range evs {
		out[len(evs)-1-i] = ev
	}
	return out
}
