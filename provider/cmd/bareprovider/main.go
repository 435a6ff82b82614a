// Command bareprovider is the yardstick of the plan benchmark (scripts/plan_bench_test.go):
// a framework provider serving the takoform provider's schemas, read from the file
// TAKOKIT_BARE_SCHEMA names (written by provider/cmd/barecapture), with no behaviour.
//
// Serving reads a file rather than the catalog, and the capture is another command, so
// that a bare start costs what a framework provider with literal schemas costs.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/takokit/takokit/provider/internal/bare"
)

// typeName is the provider type name the yardstick stands in for (takoform.TypeName).
const typeName = "takoform"

func main() {
	path := os.Getenv("TAKOKIT_BARE_SCHEMA")
	raw, err := os.ReadFile(path)
	if err != nil {
		fail(fmt.Errorf("TAKOKIT_BARE_SCHEMA must name a file written by barecapture: %w", err))
	}
	var f bare.File
	if err := json.Unmarshal(raw, &f); err != nil {
		fail(fmt.Errorf("%s: %w", path, err))
	}
	factory, err := bare.New(typeName, &f)
	if err != nil {
		fail(err)
	}
	if err := providerserver.Serve(context.Background(), factory, providerserver.ServeOpts{Address: "registry.terraform.io/takokit/takoform"}); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "bareprovider:", err)
	os.Exit(1)
}
