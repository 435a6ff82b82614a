// Command bareprovider is the yardstick of the plan benchmark (scripts/plan_bench_test.go):
//
//	bareprovider -capture FILE [-catalog DIR]   write the takoform provider's schemas to FILE
//	bareprovider                                 serve FILE (from TAKOKIT_BARE_SCHEMA) with no behaviour
//
// Serving reads a file rather than the catalog so that a bare start costs what a
// framework provider with literal schemas costs.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/provider/internal/bare"
	"github.com/takokit/takokit/provider/takoform"
)

func main() {
	capture := flag.String("capture", "", "write the takoform provider's schemas to this file and exit")
	catDir := flag.String("catalog", "", "with -capture: a catalog directory instead of the embedded catalog")
	flag.Parse()
	if *capture != "" {
		if err := captureTo(*capture, *catDir); err != nil {
			fail(err)
		}
		return
	}
	path := os.Getenv("TAKOKIT_BARE_SCHEMA")
	raw, err := os.ReadFile(path)
	if err != nil {
		fail(fmt.Errorf("TAKOKIT_BARE_SCHEMA must name a file written by -capture: %w", err))
	}
	var f bare.File
	if err := json.Unmarshal(raw, &f); err != nil {
		fail(fmt.Errorf("%s: %w", path, err))
	}
	factory, err := bare.New(takoform.TypeName, &f)
	if err != nil {
		fail(err)
	}
	if err := providerserver.Serve(context.Background(), factory, providerserver.ServeOpts{Address: "registry.terraform.io/takokit/takoform"}); err != nil {
		fail(err)
	}
}

func captureTo(path, dir string) error {
	var cat *catalog.Catalog
	var err error
	if dir == "" {
		cat, err = catalog.Embedded()
	} else {
		cat, err = catalog.Load(os.DirFS(dir))
	}
	if err != nil {
		return err
	}
	factory, err := takoform.New("bare", cat)
	if err != nil {
		return err
	}
	f, err := bare.Capture(context.Background(), factory)
	if err != nil {
		return err
	}
	raw, err := json.Marshal(f)
	if err != nil {
		return err
	}
	return os.WriteFile(path, raw, 0o644)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "bareprovider:", err)
	os.Exit(1)
}
