package catalog

import (
	"encoding/json"

	"github.com/takokit/takokit/catalog/wire"
)

// The typed shapes of catalog documents (docs/catalog-rules.md#documents). Every struct is closed by
// wire.DecodeStrict; `required` marks members that must be present.

type formRefDoc struct {
	APIVersion        string `json:"apiVersion,required"`
	Kind              string `json:"kind,required"`
	DefinitionVersion string `json:"definitionVersion,required"`
	SchemaDigest      string `json:"schemaDigest,required"`
}

func (d formRefDoc) ref() wire.FormRef {
	return wire.FormRef{APIVersion: d.APIVersion, Kind: d.Kind, DefinitionVersion: d.DefinitionVersion, SchemaDigest: d.SchemaDigest}
}

type contractRefDoc struct {
	APIVersion   string `json:"apiVersion,required"`
	Name         string `json:"name,required"`
	Version      string `json:"version,required"`
	SchemaDigest string `json:"schemaDigest,required"`
}

func (d contractRefDoc) iface() wire.InterfaceRef {
	return wire.InterfaceRef{APIVersion: d.APIVersion, Name: d.Name, Version: d.Version, SchemaDigest: d.SchemaDigest}
}

func (d contractRefDoc) binding() wire.BindingRef {
	return wire.BindingRef{APIVersion: d.APIVersion, Name: d.Name, Version: d.Version, SchemaDigest: d.SchemaDigest}
}

type fixtureDoc struct {
	Name         string  `json:"name,required"`
	DesiredPath  string  `json:"desiredPath,required"`
	ObservedPath *string `json:"observedPath"`
	OutputPath   *string `json:"outputPath"`
}

type negFixtureDoc struct {
	Name            string `json:"name,required"`
	Stage           string `json:"stage,required"`
	InputPath       string `json:"inputPath,required"`
	ExpectedFailure string `json:"expectedFailure,required"`
}

type definitionDoc struct {
	APIVersion                  string           `json:"apiVersion,required"`
	Kind                        string           `json:"kind,required"`
	DefinitionVersion           string           `json:"definitionVersion,required"`
	Title                       string           `json:"title,required"`
	Description                 *string          `json:"description"`
	Role                        string           `json:"role,required"`
	DesiredSchema               json.RawMessage  `json:"desiredSchema,required"`
	ObservedSchema              json.RawMessage  `json:"observedSchema"`
	OutputSchema                json.RawMessage  `json:"outputSchema"`
	ImmutableFields             []string         `json:"immutableFields"`
	LifecycleCapabilities       []string         `json:"lifecycleCapabilities,required"`
	ProvidedInterfaces          []contractRefDoc `json:"providedInterfaces"`
	AcceptedBindings            []contractRefDoc `json:"acceptedBindings"`
	ConformanceFixtures         []fixtureDoc     `json:"conformanceFixtures"`
	NegativeConformanceFixtures []negFixtureDoc  `json:"negativeConformanceFixtures"`
}

type packageFileDoc struct {
	Path      string          `json:"path,required"`
	MediaType string          `json:"mediaType,required"`
	Size      json.RawMessage `json:"size,required"` // an integer, never a string
	Digest    string          `json:"digest,required"`
}

type packageIndexDoc struct {
	APIVersion     string           `json:"apiVersion,required"`
	Kind           string           `json:"kind,required"`
	FormRef        formRefDoc       `json:"formRef,required"`
	DefinitionPath string           `json:"definitionPath,required"`
	Files          []packageFileDoc `json:"files,required"`
}

type operationDoc struct {
	Name         string          `json:"name,required"`
	Description  *string         `json:"description"`
	InputSchema  json.RawMessage `json:"inputSchema,required"`
	OutputSchema json.RawMessage `json:"outputSchema,required"`
	Errors       []string        `json:"errors,required"`
	Idempotent   *bool           `json:"idempotent"`
}

type semanticsDoc struct {
	Consistency string  `json:"consistency,required"`
	Pagination  *string `json:"pagination"`
	Delivery    *string `json:"delivery"`
	Ordering    *string `json:"ordering"`
}

type fixtureStepDoc struct {
	Operation     string          `json:"operation,required"`
	Input         json.RawMessage `json:"input,required"`
	Expected      json.RawMessage `json:"expected"`
	ExpectedError *string         `json:"expectedError"`
}

type interfaceFixtureDoc struct {
	Name  string           `json:"name,required"`
	Steps []fixtureStepDoc `json:"steps,required"`
}

type interfaceDoc struct {
	APIVersion  string                     `json:"apiVersion,required"`
	Kind        string                     `json:"kind,required"`
	Name        string                     `json:"name,required"`
	Version     string                     `json:"version,required"`
	Title       *string                    `json:"title"`
	Description *string                    `json:"description"`
	Operations  []operationDoc             `json:"operations,required"`
	Semantics   semanticsDoc               `json:"semantics,required"`
	Limits      map[string]json.RawMessage `json:"limits"`
	Fixtures    []interfaceFixtureDoc      `json:"fixtures"`
}

type accessModeDoc struct {
	Name       string   `json:"name,required"`
	Operations []string `json:"operations,required"`
}

type projectionDoc struct {
	Operations  []string        `json:"operations,required"`
	AccessModes []accessModeDoc `json:"accessModes"`
}

type bindingLifecycleDoc struct {
	TargetDeletion string `json:"targetDeletion,required"`
}

type kindNameDoc struct {
	APIVersion string `json:"apiVersion,required"`
	Kind       string `json:"kind,required"`
}

type bindingDoc struct {
	APIVersion         string              `json:"apiVersion,required"`
	Kind               string              `json:"kind,required"`
	Name               string              `json:"name,required"`
	Version            string              `json:"version,required"`
	Title              *string             `json:"title"`
	Description        *string             `json:"description"`
	SourceRole         string              `json:"sourceRole,required"`
	TargetInterface    contractRefDoc      `json:"targetInterface,required"`
	AllowedTargetForms []kindNameDoc       `json:"allowedTargetForms,required"`
	BindingNameGrammar string              `json:"bindingNameGrammar,required"`
	RuntimeProjection  projectionDoc       `json:"runtimeProjection,required"`
	Lifecycle          bindingLifecycleDoc `json:"lifecycle,required"`
}

type transitionDoc struct {
	Marker string     `json:"marker,required"`
	From   formRefDoc `json:"from,required"`
	To     formRefDoc `json:"to,required"`
}

type transitionsDoc struct {
	Format      string          `json:"format,required"`
	Transitions []transitionDoc `json:"transitions,required"`
}

// Candidate-set files are open at every level except the compared members.
type candidateFormDoc struct {
	FormRef       *wire.FormRef `json:"formRef"`
	PackageDigest string        `json:"packageDigest"`
	ResourceType  *string       `json:"resourceType"`
}

type candidateContractDoc struct {
	Name         string `json:"name"`
	Version      string `json:"version"`
	SchemaDigest string `json:"schemaDigest"`
}

type candidateSetDoc struct {
	Family       string                 `json:"family"`
	FormMaturity *string                `json:"formMaturity"`
	Forms        []candidateFormDoc     `json:"forms"`
	Interfaces   []candidateContractDoc `json:"interfaces"`
	Bindings     []candidateContractDoc `json:"bindings"`
}
