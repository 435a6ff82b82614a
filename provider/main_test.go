package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestBinaryLinksNoLoaderAndNoSchemaEngine: the provider binary starts from the model
// generated at build time (catalog/embedded). It links neither the catalog loader nor a
// JSON Schema engine, whose package initialization alone (parsing its metaschemas)
// would cost every start more than the rest of what the provider does before it
// answers (docs/provider-design.md#plan-cost).
func TestBinaryLinksNoLoaderAndNoSchemaEngine(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	for _, banned := range []string{"github.com/takokit/takokit/catalog", "github.com/santhosh-tekuri/jsonschema/v6"} {
		for _, d := range deps {
			if d == banned {
				t.Errorf("the provider binary links %s", banned)
			}
		}
	}
	found := false
	for _, d := range deps {
		found = found || d == "github.com/takokit/takokit/catalog/embedded"
	}
	if !found {
		t.Error("the provider binary does not link the generated model (catalog/embedded)")
	}
}
