package openapicheck

import (
	"io"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	verrors "github.com/pb33f/libopenapi-validator/errors"
)

// a document of one route: GET /things/{name} answers 200 with {"name": string}, closed.
const doc = `{
  "openapi": "3.1.0",
  "info": {"title": "things", "version": "1"},
  "paths": {
    "/things/{name}": {
      "get": {
        "parameters": [{"name": "name", "in": "path", "required": true, "schema": {"type": "string", "pattern": "^[a-z]+$"}}],
        "responses": {
          "200": {
            "description": "the thing",
            "content": {"application/json": {"schema": {
              "type": "object", "required": ["name"], "additionalProperties": false,
              "properties": {"name": {"type": "string"}}
            }}}
          }
        }
      }
    }
  }
}`

func answer(req *http.Request, body string) *http.Response {
	return &http.Response{
		StatusCode: 200, Request: req, Body: io.NopCloser(strings.NewReader(body)),
		Header: http.Header{"Content-Type": {"application/json"}},
	}
}

func TestReadSaysWhichStepRefused(t *testing.T) {
	for _, c := range []struct{ name, raw, want string }{
		{"not a document", `[1, 2`, "the document does not read"},
		{"not OpenAPI", `{"swagger": "2.0", "info": {"title": "x", "version": "1"}, "paths": {}}`, "the document does not build as OpenAPI 3.1: "},
		{"an invalid document", `{"openapi": "3.1.0", "info": {"title": "x"}, "paths": {}}`, "the document is not valid OpenAPI 3.1:\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			d, err := Read([]byte(c.raw))
			if err == nil || d != nil {
				t.Fatalf("Read = %v, %v; want a refusal", d, err)
			}
			if !strings.HasPrefix(err.Error(), c.want) {
				t.Errorf("Read: %v\nwant it to start %q", err, c.want)
			}
		})
	}
}

func TestRequestAndResponseFindings(t *testing.T) {
	d, err := Read([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	good, _ := http.NewRequest("GET", "http://h/things/cup", nil)
	if got := d.Request(good); got != nil {
		t.Errorf("a conforming request: %q", got)
	}
	if got := d.Response(good, answer(good, `{"name": "cup"}`)); got != nil {
		t.Errorf("a conforming answer: %q", got)
	}

	bad, _ := http.NewRequest("GET", "http://h/things/CUP", nil)
	if got := d.Request(bad); len(got) == 0 {
		t.Error("a path parameter against its pattern: no finding")
	}
	got := d.Response(good, answer(good, `{"name": "cup", "extra": 1}`))
	if len(got) < 2 || !strings.HasPrefix(got[1], "  ") {
		t.Errorf("an answer with a member the schema closes out: %q; want the finding and its schema errors, indented", got)
	}
}

// TestFindingsOfAVerdict: a verdict that passed has no finding even when the validator
// listed errors beside it, and one that refused without naming an error still has a
// line saying so (an empty list would read as a pass).
func TestFindingsOfAVerdict(t *testing.T) {
	errs := []*verrors.ValidationError{{Message: "GET /things/CUP", Reason: "pattern",
		SchemaValidationErrors: []*verrors.SchemaValidationFailure{{FieldPath: "name", KeywordLocation: "/pattern", Reason: "no match"}}}}
	for _, c := range []struct {
		name string
		ok   bool
		errs []*verrors.ValidationError
		want []string
	}{
		{"passed", true, errs, nil},
		{"refused, naming an error", false, errs, []string{"GET /things/CUP: pattern", "  name (/pattern): no match"}},
		{"refused without a finding", false, nil, []string{"refused, without a finding"}},
	} {
		if got := findings(c.ok, c.errs); !slices.Equal(got, c.want) {
			t.Errorf("%s: findings = %q, want %q", c.name, got, c.want)
		}
	}
}

// The compile of libopenapi's calls stays cached only while this package imports nothing
// of takokit, and it saves only if no other package calls libopenapi itself
// (docs/decisions.md#test-time): every package of the workspace (of the hostsim module
// alone, outside one) is listed with its imports and its tests', this one's among them.
func TestOnlyThisPackageCallsLibopenapi(t *testing.T) {
	// what go list reads is the whole tree's, tests included, and not in this test's
	// binary: `go tool mage test` keys the result on the tree's id (docs/decisions.md#test-cache)
	_ = os.Getenv("TAKOKIT_TREE_ID")
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .Imports " "}} {{join .TestImports " "}} {{join .XTestImports " "}}`, "github.com/takokit/takokit/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	listed := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		listed[f[0]] = true
		for _, imp := range f[1:] {
			// nothing outside takokit imports takokit: no takokit import, no takokit dependency
			if f[0] == self && strings.HasPrefix(imp, "github.com/takokit/") {
				t.Errorf("openapicheck depends on %s: then every change there compiles libopenapi's calls again", imp)
			}
			if strings.HasPrefix(imp, "github.com/pb33f/libopenapi") && f[0] != self {
				t.Errorf("%s imports %s: call it through openapicheck", f[0], imp)
			}
		}
	}
	gowork, err := exec.Command("go", "env", "GOWORK").Output()
	if err != nil {
		t.Fatal(err)
	}
	if w := strings.TrimSpace(string(gowork)); w != "" && w != "off" && !listed["github.com/takokit/takokit/scripts"] {
		t.Errorf("in the workspace %s, go list did not list the scenarios' package; the check saw only %d packages", w, len(listed))
	}
}

const self = "github.com/takokit/takokit/hostsim/hostsimtest/openapicheck"
