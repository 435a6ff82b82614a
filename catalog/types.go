package catalog

import "github.com/takokit/takokit/catalog/model"

// The model's types under their catalog names: package catalog loads and checks a
// catalog directory and builds the read-only model of package model
// (catalog/model), whose types these are.
type (
	Catalog         = model.Catalog
	Kind            = model.Kind
	KindName        = model.KindName
	FieldKind       = model.FieldKind
	Form            = model.Form
	Field           = model.Field
	RefTarget       = model.RefTarget
	Output          = model.Output
	Relation        = model.Relation
	Interface       = model.Interface
	Binding         = model.Binding
	Transition      = model.Transition
	Fixture         = model.Fixture
	NegativeFixture = model.NegativeFixture
	SchemaError     = model.SchemaError
	SchemaProblem   = model.SchemaProblem
)

// Field kinds (docs/catalog-rules.md#documents).
const (
	FieldString      = model.FieldString
	FieldStringEnum  = model.FieldStringEnum
	FieldInteger     = model.FieldInteger
	FieldBoolean     = model.FieldBoolean
	FieldStringSet   = model.FieldStringSet
	FieldStringList  = model.FieldStringList
	FieldJSONMap     = model.FieldJSONMap
	FieldObject      = model.FieldObject
	FieldReference   = model.FieldReference
	FieldBindingList = model.FieldBindingList
	FieldObjectList  = model.FieldObjectList
)

// Reserved attribute groups (docs/catalog-rules.md#loader-rules).
const (
	ReservedEveryResource = model.ReservedEveryResource
	ReservedUpdate        = model.ReservedUpdate
	ReservedRevision      = model.ReservedRevision
	ReservedArtifact      = model.ReservedArtifact
	ReservedProvider      = model.ReservedProvider
	ReservedMetaArgument  = model.ReservedMetaArgument
)

// Snake turns a lowerCamelCase wire name into its HCL attribute name (model.Snake).
func Snake(wire string) string { return model.Snake(wire) }

// TypeName is the provider resource type of a kind slug (model.TypeName).
func TypeName(slug string) string { return model.TypeName(slug) }

// ReservedAttributes returns every reserved attribute name mapped to its group
// (model.ReservedAttributes).
func ReservedAttributes() map[string]string { return model.ReservedAttributes() }
