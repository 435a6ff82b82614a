// Package openapicheck reads an OpenAPI 3.1 document and checks HTTP requests and
// answers against it, with pb33f's libopenapi and its validator, for the tests that
// hold hostsim's document to what hostsim does (docs/protocol.md#openapi).
//
// It imports nothing of takokit and its API has only standard types, so the calls into
// libopenapi are compiled once, here, and stay in go's cache: a test package that made
// them itself took about 7 CPU-s more to compile, again every time anything it imports
// changed (docs/decisions.md#test-time).
package openapicheck

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"
	verrors "github.com/pb33f/libopenapi-validator/errors"
)

// Doc is a document that read, built as OpenAPI 3.1 and validated as one.
// Its fields hold only standard types, so a test importing the package compiles none of
// the validator's.
type Doc struct {
	request  func(*http.Request) []string
	response func(*http.Request, *http.Response) []string
}

// Read reads raw as an OpenAPI 3.1 document. The error says which step refused it: the
// document does not read, its model does not build, no validator can be made of it, or
// the validator finds it invalid (then each finding on a line of its own).
func Read(raw []byte) (*Doc, error) {
	doc, err := libopenapi.NewDocument(raw)
	if err != nil {
		return nil, fmt.Errorf("the document does not read: %w", err)
	}
	if _, err := doc.BuildV3Model(); err != nil {
		return nil, fmt.Errorf("the document does not build as OpenAPI 3.1: %w", err)
	}
	v, errs := validator.NewValidator(doc)
	if len(errs) > 0 {
		return nil, fmt.Errorf("no validator can be made of the document: %v", errs)
	}
	if found := findings(v.ValidateDocument()); found != nil {
		return nil, fmt.Errorf("the document is not valid OpenAPI 3.1:\n%s", strings.Join(found, "\n"))
	}
	return &Doc{
		request: func(req *http.Request) []string { return findings(v.ValidateHttpRequest(req)) },
		response: func(req *http.Request, resp *http.Response) []string {
			return findings(v.ValidateHttpResponse(req, resp))
		},
	}, nil
}

// Request checks req (its body read, so give a request whose body can be spent) against
// the document: what the validator found, one finding a line, none when it conforms.
func (d *Doc) Request(req *http.Request) []string { return d.request(req) }

// Response checks resp, the answer to req, against the document as Request does.
func (d *Doc) Response(req *http.Request, resp *http.Response) []string {
	return d.response(req, resp)
}

// findings are a validator's verdict as lines: none when ok, else "message: reason" for
// each error, followed by its schema errors, indented, with the field and the schema
// keyword that refused it (one line saying so when it refused without any).
func findings(ok bool, errs []*verrors.ValidationError) []string {
	if ok {
		return nil
	}
	var out []string
	for _, e := range errs {
		out = append(out, e.Message+": "+e.Reason)
		for _, se := range e.SchemaValidationErrors {
			out = append(out, "  "+se.FieldPath+" ("+se.KeywordLocation+"): "+se.Reason)
		}
	}
	if len(out) == 0 {
		return []string{"refused, without a finding"}
	}
	return out
}
