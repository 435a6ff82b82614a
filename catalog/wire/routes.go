package wire

import "strings"

// The lane's routes as data (docs/protocol.md#routes): one row per route, the same on
// every lane, with paths written below two placeholders a Lane fills in. hostsim
// binds its handlers to these rows by name, and the OpenAPI description of the lane
// is generated from them.

// Path placeholders of a route: the lane's API root and its discovery path.
const (
	PathAPI       = "{api}"
	PathDiscovery = "{discovery}"
)

// RouteQuery says what a route's query string may hold.
type RouteQuery int

const (
	QueryNone      RouteQuery = iota // no query at all
	QueryExact                       // the five-key exact FormRef query (docs/protocol.md#routes)
	QuerySpaceOnly                   // space alone (the Form-transition routes)
)

// Route is one row of the route table.
type Route struct {
	Name   string
	Method string
	// Path is the path template: literal segments and {param} segments, starting with
	// PathAPI or PathDiscovery.
	Path  string
	Query RouteQuery
	// Keyed routes need an Idempotency-Key.
	Keyed bool
	// Answers are the success statuses the route gives.
	Answers []int
	// Support routes are the support surface (counted as support reads).
	Support bool
}

const resourcePath = PathAPI + "/resources/{group}/{version}/{kind}/{name}"

// Routes is the route table, in the order docs/protocol.md#routes lists it.
var Routes = []Route{
	{Name: "discovery", Method: "GET", Path: PathDiscovery, Answers: []int{200}},
	{Name: "forms", Method: "GET", Path: PathAPI + "/forms", Query: QueryExact, Answers: []int{200}},
	{Name: "form-definition", Method: "GET", Path: PathAPI + "/form-definitions/{group}/{version}/{kind}", Query: QueryExact, Answers: []int{200}},
	{Name: "validate", Method: "POST", Path: PathAPI + "/resources/validate", Answers: []int{200}},
	{Name: "prepare", Method: "POST", Path: PathAPI + "/resources/prepare", Answers: []int{200}},
	{Name: "apply", Method: "PUT", Path: resourcePath, Keyed: true, Answers: []int{200, 201, 202}},
	{Name: "read", Method: "GET", Path: resourcePath, Query: QueryExact, Answers: []int{200}},
	{Name: "import", Method: "POST", Path: resourcePath + "/import", Keyed: true, Answers: []int{200, 201, 202}},
	{Name: "observe", Method: "POST", Path: resourcePath + "/observe", Query: QueryExact, Keyed: true, Answers: []int{200}},
	{Name: "delete", Method: "DELETE", Path: resourcePath, Query: QueryExact, Keyed: true, Answers: []int{204, 202}},
	{Name: "form-transition", Method: "POST", Path: resourcePath + "/form-transitions", Query: QuerySpaceOnly, Keyed: true, Answers: []int{200, 202}},
	{Name: "form-transition-readback", Method: "GET", Path: resourcePath + "/form-transitions/{txid}", Query: QuerySpaceOnly, Answers: []int{200, 202}},
	{Name: "operation", Method: "GET", Path: PathAPI + "/operations/{id}", Answers: []int{200}},
	{Name: "operation-cancel", Method: "POST", Path: PathAPI + "/operations/{id}/cancel", Keyed: true, Answers: []int{200}},
	{Name: "artifact-upload-start", Method: "POST", Path: PathAPI + "/artifacts/uploads", Keyed: true, Answers: []int{201}},
	{Name: "artifact-blob-upload", Method: "PUT", Path: PathAPI + "/artifacts/uploads/{uploadId}/blobs/{sha256}", Answers: []int{201, 204}},
	{Name: "artifact-commit", Method: "POST", Path: PathAPI + "/artifacts/uploads/{uploadId}/commit", Keyed: true, Answers: []int{200, 201}},
	{Name: "artifact-manifest-read", Method: "GET", Path: PathAPI + "/artifacts/{manifestDigest}", Answers: []int{200}},
	{Name: "artifact-blob-head", Method: "HEAD", Path: PathAPI + "/artifacts/blobs/{sha256}", Answers: []int{200}},
	{Name: "artifact-upload-abandon", Method: "DELETE", Path: PathAPI + "/artifacts/uploads/{uploadId}", Keyed: true, Answers: []int{204}},
	{Name: "support-forms", Method: "GET", Path: PathAPI + "/support/forms", Answers: []int{200}, Support: true},
	{Name: "support-form", Method: "GET", Path: PathAPI + "/support/forms/{group}/{version}/{kind}/{definitionVersion}", Answers: []int{200}, Support: true},
	{Name: "support-interface", Method: "GET", Path: PathAPI + "/support/interfaces/{iname}/{iversion}", Answers: []int{200}, Support: true},
	{Name: "support-binding", Method: "GET", Path: PathAPI + "/support/bindings/{iname}/{iversion}", Answers: []int{200}, Support: true},
}

// RouteNamed returns the route called name.
func RouteNamed(name string) (Route, bool) {
	for _, r := range Routes {
		if r.Name == name {
			return r, true
		}
	}
	return Route{}, false
}

// On returns the route's path template on lane: the placeholders filled, the {param}
// segments kept.
func (r Route) On(l *Lane) string {
	if rest, ok := strings.CutPrefix(r.Path, PathDiscovery); ok {
		return l.DiscoveryPath + rest
	}
	return l.APIRoot + strings.TrimPrefix(r.Path, PathAPI)
}
