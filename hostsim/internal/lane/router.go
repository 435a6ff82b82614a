package lane

import (
	"net/url"
	"strings"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/artifactroute"
	"github.com/takokit/takokit/hostsim/internal/decide"
	"github.com/takokit/takokit/hostsim/internal/operationroute"
	"github.com/takokit/takokit/hostsim/internal/surface"
)

// queryRule says what a route's query string may hold.
type queryRule int

const (
	queryNone  queryRule = iota // any query → invalid_argument
	queryExact                  // the five-key exact FormRef query
	queryOwn                    // the handler checks its own query (Form transitions: space only)
)

// route is one row of the route table (docs/protocol.md#routes): a row of wire.Routes
// with hostsim's handler bound to it.
type route struct {
	name    string
	method  string
	pattern []string // literal segments or {param}
	query   queryRule
	keyed   bool // Idempotency-Key required
	handle  func(*call) *wire.Error
	support bool // counted as a support read
	raw     bool // the body is raw bytes the handler streams (blob PUT)
}

func pat(s string) []string { return strings.Split(strings.TrimPrefix(s, "/"), "/") }

// handler is what hostsim runs for one route of the table.
type handler struct {
	handle func(*call) *wire.Error
	raw    bool
}

// handlers binds each route of wire.Routes, by name, to its handler.
var handlers = map[string]handler{
	"discovery":                {handle: surfaceRoute((*surface.Surface).ServeDiscovery)},
	"forms":                    {handle: surfaceRoute((*surface.Surface).ServeForms)},
	"form-definition":          {handle: surfaceRoute((*surface.Surface).ServeFormDefinition)},
	"validate":                 {handle: validate},
	"prepare":                  {handle: prepare},
	"apply":                    {handle: apply},
	"read":                     {handle: read},
	"import":                   {handle: importResource},
	"observe":                  {handle: observe},
	"delete":                   {handle: del},
	"form-transition":          {handle: formTransition},
	"form-transition-readback": {handle: formTransitionReadback},
	"operation":                {handle: operationRoute(operationroute.Poll)},
	"operation-cancel":         {handle: operationRoute(operationroute.Cancel)},
	"artifact-upload-start":    {handle: artifactRoute(artifactroute.Start)},
	"artifact-blob-upload":     {handle: artifactRoute(artifactroute.PutBlob), raw: true},
	"artifact-commit":          {handle: artifactRoute(artifactroute.Commit)},
	"artifact-manifest-read":   {handle: artifactRoute(artifactroute.ReadManifest)},
	"artifact-blob-head":       {handle: artifactRoute(artifactroute.HeadBlob)},
	"artifact-upload-abandon":  {handle: artifactRoute(artifactroute.Abandon)},
	"support-forms":            {handle: surfaceRoute((*surface.Surface).ServeSupportForms)},
	"support-form":             {handle: surfaceRoute((*surface.Surface).ServeSupportForm)},
	"support-interface":        {handle: surfaceRoute((*surface.Surface).ServeSupportInterface)},
	"support-binding":          {handle: surfaceRoute((*surface.Surface).ServeSupportBinding)},
}

// routes is the table of lane: every row of wire.Routes on lane's paths, with its handler.
func routes(lane *wire.Lane) []route {
	out := make([]route, 0, len(wire.Routes))
	for _, r := range wire.Routes {
		h, ok := handlers[r.Name]
		if !ok {
			panic("hostsim: no handler for route " + r.Name)
		}
		q := map[wire.RouteQuery]queryRule{wire.QueryNone: queryNone, wire.QueryExact: queryExact, wire.QuerySpaceOnly: queryOwn}[r.Query]
		out = append(out, route{name: r.Name, method: r.Method, pattern: pat(r.On(lane)), query: q, keyed: r.Keyed,
			handle: h.handle, support: r.Support, raw: h.raw})
	}
	return out
}

// fits reports whether segs match pattern: each literal equal, each {param}
// non-empty.
func fits(pattern, segs []string) bool {
	for j, p := range pattern {
		if strings.HasPrefix(p, "{") {
			if segs[j] == "" {
				return false
			}
		} else if p != segs[j] {
			return false
		}
	}
	return true
}

// match finds the route for an escaped path. Segments decode one by one: a bad
// escape is invalid_argument, a segment decoding to "/" names no route.
func match(lane *wire.Lane, table []route, method, escaped string) (*route, map[string]string, *wire.Error) {
	if !strings.HasPrefix(escaped, "/") {
		return nil, nil, decide.NotFound("no route %s %q", method, escaped)
	}
	raw := strings.Split(escaped[1:], "/")
	segs := make([]string, len(raw))
	for i, s := range raw {
		d, err := url.PathUnescape(s)
		if err != nil {
			return nil, nil, decide.Invalid("path segment %q is not a valid percent-encoding; escape it correctly", s)
		}
		if strings.Contains(d, "/") {
			return nil, nil, decide.NotFound("path segment %q decodes to a \"/\" and names no route; send a Form group as two path segments", s)
		}
		segs[i] = d
	}
	for i := range table {
		rt := &table[i]
		if rt.method != method || len(rt.pattern) != len(segs) || !fits(rt.pattern, segs) {
			continue
		}
		params := make(map[string]string, 4)
		for j, p := range rt.pattern {
			if strings.HasPrefix(p, "{") {
				params[strings.Trim(p, "{}")] = segs[j]
			}
		}
		return rt, params, nil
	}
	return nil, nil, decide.NotFound("no route %s %s in the %s lane (docs/protocol.md#routes)", method, escaped, lane.APIVersion)
}
