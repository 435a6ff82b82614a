// Package openapi writes the OpenAPI 3.1 description of what a host serves
// (docs/protocol.md#openapi): every route of the lane from the route table
// (wire.Routes) on the lane's paths, request and response schemas for every Form of
// the catalog from its own desired and output schemas, the error envelope, and the
// admin API. Nothing of it is written by hand: a catalog or route change is a change
// of the document.
package openapi

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
)

// AdminRoute is one route of the admin API, as the admin package's table lists it.
type AdminRoute struct {
	Method, Path string // Path below /_sim; "*" stands for one segment
	Open         bool   // answers without the admin token (still loopback only)
	Summary      string
	Query        []AdminParam // the query parameters it takes (any other is refused)
}

// AdminParam is a query parameter of an admin route.
type AdminParam struct {
	Name     string
	Required bool
	About    string // what it holds
}

// DocPath is an admin route's path as the document writes it: the captured
// segment ("*") as {id}.
func DocPath(path string) string { return strings.Replace(path, "*", "{id}", 1) }

// Document is the OpenAPI 3.1 document of a host speaking lane with the Forms it
// installs, with the admin routes below prefix.
func Document(lane *wire.Lane, forms []*catalog.Form, prefix string, admin []AdminRoute) ([]byte, error) {
	g := &gen{lane: lane, forms: forms, schemas: obj{}}
	if err := g.formSchemas(); err != nil {
		return nil, err
	}
	g.commonSchemas()
	paths := obj{}
	for _, r := range wire.Routes {
		g.addRoute(paths, r)
	}
	for _, a := range admin {
		g.addAdmin(paths, prefix, a)
	}
	doc := obj{
		"openapi": "3.1.0",
		"info": obj{
			"title":   "Takoform Host API " + lane.APIVersion + ", as hostsim serves it",
			"version": lane.Name,
			"description": fmt.Sprintf("Generated from the lane descriptor of %s and the Forms of the catalog the host installs (%d); "+
				"the admin API under %s is hostsim's own. See docs/protocol.md.", lane.Describe(), len(forms), prefix),
		},
		"jsonSchemaDialect": "https://json-schema.org/draft/2020-12/schema",
		"paths":             paths,
		"components": obj{
			"schemas": g.schemas,
			"securitySchemes": obj{
				"bearer":     obj{"type": "http", "scheme": "bearer", "description": "A token that maps to a tenant and a principal (docs/protocol.md#auth)."},
				"adminToken": obj{"type": "http", "scheme": "bearer", "description": "hostsim's --admin-token, when one is set (docs/protocol.md#admin)."},
			},
		},
		"security": arr{obj{"bearer": arr{}}},
	}
	return json.MarshalIndent(doc, "", "  ")
}

type (
	obj = map[string]any
	arr = []any
)

// gen builds one document.
type gen struct {
	lane    *wire.Lane
	forms   []*catalog.Form
	schemas obj
	names   []string // component names of the Forms, catalog order
}

func ref(name string) obj { return obj{"$ref": "#/components/schemas/" + name} }

// jsonContent is a JSON body of schema s.
func jsonContent(s any) obj {
	return obj{wire.ContentTypeJSON: obj{"schema": s}}
}
