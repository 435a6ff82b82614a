package openapi

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/takokit/takokit/catalog/wire"
)

// One OpenAPI operation per row of wire.Routes (docs/protocol.md#routes).

var paramRe = regexp.MustCompile(`\{([A-Za-z0-9]+)\}`)

// bodies says what each route takes and answers: the request schema ("" = no body,
// "raw" = bytes) and the schema of each success status ("" = no body).
var bodies = map[string]struct {
	req     string
	answers map[int]string
}{
	"discovery":                {"", map[int]string{200: "Discovery"}},
	"forms":                    {"", map[int]string{200: "FormsResponse"}},
	"form-definition":          {"", map[int]string{200: "FormDefinitionResponse"}},
	"validate":                 {"FormRequest", map[int]string{200: "ValidateResponse"}},
	"prepare":                  {"FormRequest", map[int]string{200: "PrepareResponse"}},
	"apply":                    {"FormRequest", map[int]string{200: "FormResource", 201: "FormResource", 202: "OperationEnvelope"}},
	"read":                     {"", map[int]string{200: "FormResource"}},
	"import":                   {"FormRequest", map[int]string{200: "FormResource", 201: "FormResource", 202: "OperationEnvelope"}},
	"observe":                  {"", map[int]string{200: "ResourceEnvelope"}},
	"delete":                   {"", map[int]string{204: "", 202: "OperationEnvelope"}},
	"form-transition":          {"TransitionRequest", map[int]string{200: "TransitionAnswer", 202: "TransitionAnswer"}},
	"form-transition-readback": {"", map[int]string{200: "TransitionAnswer", 202: "TransitionAnswer"}},
	"operation":                {"", map[int]string{200: "Operation"}},
	"operation-cancel":         {"", map[int]string{200: "Operation"}},
	"artifact-upload-start":    {"ArtifactUploadRequest", map[int]string{201: "ArtifactUploadStatus"}},
	"artifact-blob-upload":     {"raw", map[int]string{201: "", 204: ""}},
	"artifact-commit":          {"", map[int]string{200: "ArtifactCommitResponse", 201: "ArtifactCommitResponse"}},
	"artifact-manifest-read":   {"", map[int]string{200: "Manifest"}},
	"artifact-blob-head":       {"", map[int]string{200: ""}},
	"artifact-upload-abandon":  {"", map[int]string{204: ""}},
	"support-forms":            {"", map[int]string{200: "SupportProfilesResponse"}},
	"support-form":             {"", map[int]string{200: "SupportProfile"}},
	"support-interface":        {"", map[int]string{200: "SupportProfile"}},
	"support-binding":          {"", map[int]string{200: "SupportProfile"}},
}

func header(name string, required bool, desc string) obj {
	return obj{"name": name, "in": "header", "required": required, "schema": obj{"type": "string"}, "description": desc}
}

func (g *gen) addRoute(paths obj, r wire.Route) {
	path := r.On(g.lane)
	var params arr
	for _, m := range paramRe.FindAllStringSubmatch(path, -1) {
		params = append(params, obj{"name": m[1], "in": "path", "required": true, "schema": obj{"type": "string"}})
	}
	switch r.Query {
	case wire.QueryExact:
		for _, q := range []string{"space", "group", "kind", "definitionVersion", "schemaDigest"} {
			params = append(params, obj{"name": q, "in": "query", "required": true, "schema": obj{"type": "string"}})
		}
	case wire.QuerySpaceOnly:
		params = append(params, obj{"name": "space", "in": "query", "required": true, "schema": obj{"type": "string"}})
	}
	if r.Keyed {
		params = append(params, header(wire.HeaderIdempotencyKey, true, "docs/protocol.md#idempotency"))
	}
	if r.Name == "apply" || r.Name == "import" || r.Name == "observe" || r.Name == "delete" || r.Name == "prepare" || r.Name == "form-transition" {
		params = append(params, header(wire.HeaderExpectedGeneration, false, "docs/protocol.md#fences"), header(wire.HeaderIfMatch, false, "docs/protocol.md#fences"))
	}
	if r.Name == "apply" || r.Name == "import" {
		params = append(params, header(wire.HeaderIfNoneMatch, false, "`*`: create intent (docs/protocol.md#fences)"))
	}
	b := bodies[r.Name]
	op := obj{"operationId": r.Name, "summary": r.Name + " (docs/protocol.md#routes)", "tags": arr{"lane"}}
	if len(params) > 0 {
		op["parameters"] = params
	}
	switch b.req {
	case "":
	case "raw":
		op["requestBody"] = obj{"required": true, "content": obj{"application/octet-stream": obj{"schema": obj{"type": "string", "contentMediaType": "application/octet-stream"}}}}
	default:
		op["requestBody"] = obj{"required": true, "content": jsonContent(ref(b.req))}
	}
	responses := obj{"default": obj{"description": "A refusal in the error envelope (docs/protocol.md#errors).", "content": jsonContent(ref("ErrorEnvelope"))}}
	for _, status := range r.Answers {
		resp := obj{"description": strconv.Itoa(status) + " " + r.Name}
		if s := b.answers[status]; s != "" {
			resp["content"] = jsonContent(ref(s))
		}
		if status == 200 || status == 201 {
			if s := b.answers[status]; s == "FormResource" || s == "ResourceEnvelope" {
				resp["headers"] = obj{wire.HeaderETag: obj{"required": true, "schema": obj{"type": "string", "pattern": "^\"[1-9][0-9]*\"$"}}}
			}
		}
		responses[strconv.Itoa(status)] = resp
	}
	if r.Name == "artifact-blob-head" {
		responses["404"] = obj{"description": "The caller's tenant does not hold the blob (a bare 404, no body)."}
	}
	op["responses"] = responses
	item, _ := paths[path].(obj)
	if item == nil {
		item = obj{}
		paths[path] = item
	}
	item[strings.ToLower(r.Method)] = op
}

// addAdmin adds one route of the admin API.
func (g *gen) addAdmin(paths obj, prefix string, a AdminRoute) {
	path := prefix + a.Path
	var params arr
	if strings.Contains(path, "*") {
		path = DocPath(path)
		params = append(params, obj{"name": "id", "in": "path", "required": true, "schema": obj{"type": "string"}})
	}
	for _, q := range a.Query {
		params = append(params, obj{"name": q.Name, "in": "query", "required": q.Required, "description": q.About, "schema": obj{"type": "string"}})
	}
	op := obj{"operationId": "admin" + strings.ReplaceAll(strings.ReplaceAll(a.Method+a.Path, "/", "-"), "*", "id"),
		"summary": a.Summary, "tags": arr{"admin"},
		"responses": obj{
			"200":     obj{"description": a.Summary, "content": jsonContent(ref("AdminDocument"))},
			"default": obj{"description": "A refusal in the error envelope.", "content": jsonContent(ref("ErrorEnvelope"))},
		}}
	if a.Open {
		op["security"] = arr{obj{}}
	} else {
		op["security"] = arr{obj{}, obj{"adminToken": arr{}}}
	}
	if len(params) > 0 {
		op["parameters"] = params
	}
	if a.Method == "POST" || a.Method == "DELETE" {
		op["requestBody"] = obj{"required": false, "content": jsonContent(obj{"type": "object"})}
	}
	item, _ := paths[path].(obj)
	if item == nil {
		item = obj{}
		paths[path] = item
	}
	item[strings.ToLower(a.Method)] = op
}
