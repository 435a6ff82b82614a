// Package embedded is the project's embedded catalog of the default lane
// (catalog/data/<lane>, docs/catalog-rules.md#lanes) as a model written
// out as Go at build time (catalog/internal/modelgen, `go tool mage catalog:model`): the
// compiler lays it out as static data, so a program that links it has the checked model
// without reading, decoding or checking a document at start, and without linking the
// loader or a JSON Schema engine. Its Forms validate with their own compiled checks
// (model.Schema), which catalog's differential test holds to the engine's verdicts;
// TestGeneratedModelIsCurrent fails when catalog/data changed and the model was not
// written again.
package embedded

import (
	"sync"

	"github.com/takokit/takokit/catalog/model"
	"github.com/takokit/takokit/catalog/wire"
)

var assembled = sync.OnceValue(func() *model.Catalog {
	lane, err := wire.LaneNamed(laneName)
	if err != nil {
		panic("catalog/embedded: the generated model names " + err.Error())
	}
	return model.NewCatalog(model.LaneChoice{Lane: lane, Source: laneSource, Explicit: true}, forms, interfaces, bindings, transitions)
})

// Catalog returns the embedded catalog's model; every call returns the same catalog.
func Catalog() *model.Catalog { return assembled() }
