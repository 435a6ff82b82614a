package lane

import (
	"net/url"
	"strings"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/artifactroute"
	"github.com/takokit/takokit/hostsim/internal/core"
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

// route is one row of the route table (docs/protocol.md#routes).
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

// routes is the table of lane; each handler is a function of the call.
func routes(lane *wire.Lane) []route {
	api := lane.APIRoot
	res := api + "/resources/{group}/{version}/{kind}/{name}"
	return []route{
		{name: "discovery", method: "GET", pattern: pat(lane.DiscoveryPath), handle: surfaceRoute((*surface.Surface).ServeDiscovery)},
		{name: "forms", method: "GET", pattern: pat(api + "/forms"), query: queryExact, handle: surfaceRoute((*surface.Surface).ServeForms)},
		{name: "form-definition", method: "GET", pattern: pat(api + "/form-definitions/{group}/{version}/{kind}"), query: queryExact, handle: surfaceRoute((*surface.Surface).ServeFormDefinition)},
		{name: "validate", method: "POST", pattern: pat(api + "/resources/validate"), handle: validate},
		{name: "prepare", method: "POST", pattern: pat(api + "/resources/prepare"), handle: prepare},
		{name: "apply", method: "PUT", pattern: pat(res), keyed: true, handle: apply},
		{name: "read", method: "GET", pattern: pat(res), query: queryExact, handle: read},
		{name: "import", method: "POST", pattern: pat(res + "/import"), keyed: true, handle: importResource},
		{name: "observe", method: "POST", pattern: pat(res + "/observe"), query: queryExact, keyed: true, handle: observe},
		{name: "delete", method: "DELETE", pattern: pat(res), query: queryExact, keyed: true, handle: del},
		// Form transitions (docs/protocol.md#transitions), served by internal/transition.
		{name: "form-transition", method: "POST", pattern: pat(res + "/form-transitions"), query: queryOwn, keyed: true, handle: formTransition},
		{name: "form-transition-readback", method: "GET", pattern: pat(res + "/form-transitions/{txid}"), query: queryOwn, handle: formTransitionReadback},
		{name: "operation", method: "GET", pattern: pat(api + "/operations/{id}"), handle: operationRoute(operationroute.Poll)},
		{name: "operation-cancel", method: "POST", pattern: pat(api + "/operations/{id}/cancel"), keyed: true, handle: operationRoute(operationroute.Cancel)},
		// Artifacts (docs/protocol.md#artifacts), served by internal/artifactroute.
		{name: "artifact-upload-start", method: "POST", pattern: pat(api + "/artifacts/uploads"), keyed: true, handle: artifactRoute(artifactroute.Start)},
		{name: "artifact-blob-upload", method: "PUT", pattern: pat(api + "/artifacts/uploads/{uploadId}/blobs/{sha256}"), raw: true, handle: artifactRoute(artifactroute.PutBlob)},
		{name: "artifact-commit", method: "POST", pattern: pat(api + "/artifacts/uploads/{uploadId}/commit"), keyed: true, handle: artifactRoute(artifactroute.Commit)},
		{name: "artifact-manifest-read", method: "GET", pattern: pat(api + "/artifacts/{manifestDigest}"), handle: artifactRoute(artifactroute.ReadManifest)},
		{name: "artifact-blob-head", method: "HEAD", pattern: pat(api + "/artifacts/blobs/{sha256}"), handle: artifactRoute(artifactroute.HeadBlob)},
		{name: "artifact-upload-abandon", method: "DELETE", pattern: pat(api + "/artifacts/uploads/{uploadId}"), keyed: true, handle: artifactRoute(artifactroute.Abandon)},
		{name: "support-forms", method: "GET", pattern: pat(api + "/support/forms"), handle: surfaceRoute((*surface.Surface).ServeSupportForms), support: true},
		{name: "support-form", method: "GET", pattern: pat(api + "/support/forms/{group}/{version}/{kind}/{definitionVersion}"), handle: surfaceRoute((*surface.Surface).ServeSupportForm), support: true},
		{name: "support-interface", method: "GET", pattern: pat(api + "/support/interfaces/{iname}/{iversion}"), handle: surfaceRoute((*surface.Surface).ServeSupportInterface), support: true},
		{name: "support-binding", method: "GET", pattern: pat(api + "/support/bindings/{iname}/{iversion}"), handle: surfaceRoute((*surface.Surface).ServeSupportBinding), support: true},
	}
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
		return nil, nil, core.NotFound("no route %s %q", method, escaped)
	}
	raw := strings.Split(escaped[1:], "/")
	segs := make([]string, len(raw))
	for i, s := range raw {
		d, err := url.PathUnescape(s)
		if err != nil {
			return nil, nil, core.Invalid("path segment %q is not a valid percent-encoding; escape it correctly", s)
		}
		if strings.Contains(d, "/") {
			return nil, nil, core.NotFound("path segment %q decodes to a \"/\" and names no route; send a Form group as two path segments", s)
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
	return nil, nil, core.NotFound("no route %s %s in the %s lane (docs/protocol.md#routes)", method, escaped, lane.APIVersion)
}
