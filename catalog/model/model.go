// Package model is the read-only catalog model every takokit module uses: Forms,
// Interfaces, Bindings and transitions as package catalog derives them from a catalog
// directory (docs/catalog-rules.md), with the Form's own validators. It holds no loader
// and links no JSON Schema engine, so a program that only needs the model (a provider
// binary over a model generated at build time, docs/provider-design.md#plan-cost)
// starts without paying for either. Nothing here names a particular kind.
//
// Package catalog aliases every type of this package: catalog.Form is model.Form.
package model

import (
	"encoding/json"
	"sync"

	"github.com/takokit/takokit/catalog/wire"
)

// Catalog is a complete, validated catalog. It is read-only once built (NewCatalog);
// accessors return copies of slices.
type Catalog struct {
	lane        LaneChoice
	forms       []*Form
	byRef       map[wire.FormRef]*Form
	kinds       []*Kind
	interfaces  []*Interface
	bindings    []*Binding
	transitions []*Transition
}

// KindName is a Form group and kind, without a definition version.
type KindName struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
}

// Kind gathers every loaded definition version of one (apiVersion, kind).
type Kind struct {
	APIVersion, Kind, Slug, TypeName string
	Versions                         []*Form // oldest to newest by semantic-version precedence
}

// FieldKind classifies a top-level desired property (docs/catalog-rules.md#documents).
type FieldKind string

const (
	FieldString      FieldKind = "string"
	FieldStringEnum  FieldKind = "string-enum"
	FieldInteger     FieldKind = "integer"
	FieldBoolean     FieldKind = "boolean"
	FieldStringSet   FieldKind = "string-set"
	FieldStringList  FieldKind = "string-list"
	FieldJSONMap     FieldKind = "json-map"
	FieldObject      FieldKind = "object" // a closed object of scalar and reference members
	FieldReference   FieldKind = "reference"
	FieldBindingList FieldKind = "binding-list"
	FieldObjectList  FieldKind = "object-list"
)

// Form is one loaded definition version.
type Form struct {
	Ref           wire.FormRef
	PackageDigest string
	Slug          string
	TypeName      string // the provider resource type: the family listing's resourceType, else derived from Slug
	Maturity      string // the family's formMaturity from its candidate-set.json; "" when none says
	Role          string
	Title         string
	Description   string

	Fields         []Field
	Outputs        []Output
	Relations      []Relation
	Capabilities   []string
	DeclaresUpdate bool
	Immutable      map[string]bool // desired pointers: top-level ("/worker") or an object member ("/assets/bundle")
	Provided       []wire.InterfaceRef
	Accepted       []wire.BindingRef

	DefinitionJSON []byte // definition.json exactly as stored
	DesiredJSON    []byte // desiredSchema exactly as authored
	OutputJSON     []byte // outputSchema exactly as authored; nil without outputs
	ObservedJSON   []byte // observedSchema exactly as authored; nil without one

	Fixtures         []Fixture // positive; the one named "canonical" first (the loader orders them)
	NegativeFixtures []NegativeFixture

	// schemas is the JSON Schema engine the loader gave this Form (SetSchemas), nil
	// for a Form of a generated model: it then validates with its own checks (native).
	schemas SchemaValidator
	native  *nativeSchemas
}

// nativeSchemas are a Form's own validators, each compiled on first use.
type nativeSchemas struct {
	desired, output, observed lazyNative
	fields                    sync.Map // wire name -> *Schema of one top-level property
}

// Field is one top-level desired property, or a member of an object, an object-list
// item or a binding-list item.
type Field struct {
	Wire        string // wire (JSON) name
	Attr        string // HCL attribute name (docs/catalog-rules.md#naming)
	Pointer     string // JSON Pointer; list members use "*" for the element ("/versions/*/weight"), object members none ("/assets/bundle")
	Kind        FieldKind
	Required    bool
	Default     json.RawMessage // exact authored bytes; nil when none
	Immutable   bool
	Enum        []string // string-enum, or the items of a string-set/list
	Pattern     string   // string; the items of a string-set/list; a reference's target name
	Min, Max    *int64
	MinItems    *int64
	MaxItems    *int64
	MinLength   *int64
	MaxLength   *int64
	Unique      bool
	Members     []Field // object members, object-list and binding-list item members
	Ref         *RefTarget
	Binding     *wire.BindingRef // binding-list: the accepted binding it projects
	RefMember   string           // binding-list: wire name of the item's reference member
	Description string
}

// RefTarget is what a reference node points at.
type RefTarget struct {
	APIVersion        string
	Kind              string
	TargetFormRefs    []wire.FormRef
	RequiredInterface *wire.InterfaceRef
}

// Output is one declared output: always a required scalar (docs/catalog-rules.md#loader-rules).
type Output struct {
	Wire, Attr  string
	Type        string // string | integer | boolean
	Pattern     string // anchored; Regexp compiles it (the loader refuses one that does not compile)
	Description string
	Min, Max    *int64
	MinLength   *int64
	MaxLength   *int64
	Enum        []string // string enums as written; integer/boolean enums in JSON text
}

// Relation is one reference node of the desired schema.
type Relation struct {
	Pointer           string // "/worker", "/versions/*/workerVersion"
	TargetAPIVersion  string
	TargetKind        string
	TargetFormRefs    []wire.FormRef
	RequiredInterface *wire.InterfaceRef
	Binding           *wire.BindingRef
}

// Interface is one loaded Interface Definition.
type Interface struct {
	Ref         wire.InterfaceRef
	Title       string
	Description string
	Operations  []string
	JSON        []byte // exact stored bytes
}

// Binding is one loaded Binding Definition.
type Binding struct {
	Ref                wire.BindingRef
	Title              string
	Description        string
	SourceRole         string
	TargetInterface    wire.InterfaceRef
	AllowedTargetForms []KindName
	NameGrammar        string
	Operations         []string
	JSON               []byte // exact stored bytes
}

// Transition is one declared Form transition (docs/catalog-rules.md#layout).
type Transition struct {
	Marker   string
	From, To wire.FormRef
}

// Fixture is a positive conformance fixture with its documents loaded.
type Fixture struct {
	Name    string
	Desired json.RawMessage
	Output  json.RawMessage // nil when the fixture has no output document
}

// NegativeFixture is a document that must fail validation at Stage.
type NegativeFixture struct {
	Name, Stage, ExpectedFailure string
	Input                        json.RawMessage
}
