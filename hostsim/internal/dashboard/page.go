package dashboard

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/takokit/takokit/hostsim/internal/hostview"
	"github.com/takokit/takokit/hostsim/internal/journal"
)

//go:embed templates/*.html
var templateFS embed.FS

// pageNames are the templates under templates/, each drawn inside layout.html.
var pageNames = []string{"host", "resources", "resource", "operations", "transitions", "faults", "error"}

// parsedPages are the pages parsed once per process, for every host it runs: a
// parsed template is only executed after, which html/template allows from many
// goroutines at once. Parsing them per host was a quarter of hostsim.New's CPU in the
// provider's tests; BenchmarkStartToFirstRequest went from 3.0 ms and 9,417 allocations
// to 1.9 ms and 1,175 (docs/decisions.md#test-time, "Session 31").
var parsedPages = sync.OnceValues(parsePages)

// parsePages parses each page with the layout.
func parsePages() (map[string]*template.Template, error) {
	out := map[string]*template.Template{}
	for _, name := range pageNames {
		t, err := template.New(name).Funcs(funcs).ParseFS(templateFS, "templates/layout.html", "templates/"+name+".html")
		if err != nil {
			return nil, fmt.Errorf("dashboard template %s: %w", name, err)
		}
		out[name] = t
	}
	return out, nil
}

// page is what every template receives.
type page struct {
	Title   string
	Nav     string // the nav entry this page belongs to
	Prefix  string
	CSRF    string
	Profile string
	// After is the newest journal event the page shows: the live stream
	// follows from it. Refresh lists the event types that redraw the page's
	// live regions ("*" = every event).
	After   int64
	Refresh string
	Notice  string
	Error   string
	Data    any
}

// pageError is a refusal drawn as a page.
type pageError struct {
	Status        int
	Title, Detail string
}

func (e *pageError) Error() string { return e.Title + ": " + e.Detail }

func notFound(format string, args ...any) *pageError {
	return &pageError{Status: http.StatusNotFound, Title: "Not found", Detail: fmt.Sprintf(format, args...)}
}

// newPage starts the data of a page.
func (u *UI) newPage(r *http.Request, s *session, nav, title string) *page {
	p := &page{Title: title, Nav: nav, Prefix: Prefix, CSRF: s.csrf, Profile: u.State.Profile().Name,
		After: u.State.LastEvent(), Refresh: "mutation fault transition operation-accepted operation-settled operation-cancelled migration migration-failed"}
	p.Notice = notices[r.URL.Query().Get("notice")]
	return p
}

// notices are the messages a redirect after a form may ask for.
var notices = map[string]string{
	"armed":     "Fault armed. Its fired count below grows as requests meet it.",
	"disarmed":  "Run-time faults disarmed; the profile's faults stay armed.",
	"completed": "Operation completed: it committed its mutation.",
	"failed":    "Operation failed with the chosen error code; nothing was committed.",
}

// render draws a page whole before sending it, so a template error never
// leaves half a page.
func (u *UI) render(w http.ResponseWriter, status int, name string, p *page) error {
	var buf bytes.Buffer
	if err := u.pages[name].ExecuteTemplate(&buf, "layout", p); err != nil {
		return fmt.Errorf("draw the %s page: %w", name, err)
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
	return nil
}

// errorPage draws a refusal or a failure as a page with its status.
func (u *UI) errorPage(w http.ResponseWriter, r *http.Request, s *session, err error) {
	var pe *pageError
	if !errors.As(err, &pe) {
		pe = &pageError{Status: http.StatusInternalServerError, Title: "The host could not answer",
			Detail: "Reading the host's state failed: " + err.Error()}
	}
	p := &page{Title: pe.Title, Prefix: Prefix, CSRF: s.csrf, Profile: u.State.Profile().Name, After: u.State.LastEvent(), Data: pe}
	if err := u.render(w, pe.Status, "error", p); err != nil {
		u.plain(w, pe.Status, pe.Title+": "+pe.Detail)
	}
}

// redirect answers a form with the page to show next (post/redirect/get).
func redirect(w http.ResponseWriter, r *http.Request, path, notice string) {
	http.Redirect(w, r, Prefix+path+"?notice="+url.QueryEscape(notice), http.StatusSeeOther)
}

var funcs = template.FuncMap{
	"resourceURL":  resourceURL,
	"readyClass":   readyClass,
	"pretty":       pretty,
	"literal":      literal,
	"clock":        clock,
	"summary":      summary,
	"subjectOf":    hostview.EventSubject,
	"stepName":     hostview.StepName,
	"detail":       detail,
	"join":         strings.Join,
	"statusClass":  statusClass,
	"feed":         feed,
	"resourceFeed": resourceFeed,
}

// feedView is a live feed: the events drawn with the page and what the
// script appends to it (Filter: all, or one event type, or resource).
type feedView struct {
	Filter, Tenant, Kind, Name, UID string
	Events                          []journal.Event
}

func feed(filter string, evs []journal.Event) feedView { return feedView{Filter: filter, Events: evs} }

func resourceFeed(r *hostview.Resource, evs []journal.Event) feedView {
	return feedView{Filter: "resource", Tenant: r.Tenant, Kind: r.Kind, Name: r.Name, UID: r.UID, Events: evs}
}

// resourceURL is the dashboard page of a resource:
// resources/{tenant}/{space}/{apiVersion…}/{kind}/{name}, each part escaped.
func resourceURL(tenant, space, apiVersion, kind, name string) string {
	parts := []string{tenant, space}
	parts = append(parts, strings.Split(apiVersion, "/")...)
	parts = append(parts, kind, name)
	for i, p := range parts {
		parts[i] = url.PathEscape(p)
	}
	return Prefix + "/resources/" + strings.Join(parts, "/")
}

// readyClass is the CSS class of a condition status.
func readyClass(status string) string {
	switch status {
	case "True":
		return "ok"
	case "False":
		return "bad"
	case "":
		return "none"
	}
	return "warn"
}

// clock shows an RFC 3339 time (a string or a *string) as the time of day,
// UTC, to the millisecond.
func clock(v any) string {
	var at string
	switch x := v.(type) {
	case string:
		at = x
	case *string:
		if x == nil {
			return ""
		}
		at = *x
	}
	t, err := time.Parse(time.RFC3339Nano, at)
	if err != nil {
		return at
	}
	return t.UTC().Format("15:04:05.000")
}

// detail is an event's data, compact and redacted, for a tooltip.
func detail(ev journal.Event) string { return compact(ev.Data) }
