package request

import (
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/fault"
)

// armed is a fault set with each named fault armed without a count.
func armed(names ...string) *fault.Set {
	var specs []fault.Spec
	for _, n := range names {
		specs = append(specs, fault.Spec{Fault: n})
	}
	return fault.Fixed(specs...)
}

var refA = wire.FormRef{APIVersion: "edge.example.dev/v1", Kind: "Queue", DefinitionVersion: "0.1.0",
	SchemaDigest: "sha256:" + "a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1"}
