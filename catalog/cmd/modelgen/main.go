// Command modelgen writes the embedded catalog's model as Go source (catalog/embedded),
// after the checking load: a provider binary links the result instead of loading and
// checking the catalog at every start (docs/provider-design.md#plan-cost).
//
//	go run ./cmd/modelgen -o embedded/model_gen.go   (go tool mage catalog:model)
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/internal/modelgen"
)

func main() {
	out := flag.String("o", "embedded/model_gen.go", "file to write")
	flag.Parse()
	if err := run(*out); err != nil {
		fmt.Fprintln(os.Stderr, "modelgen:", err)
		os.Exit(1)
	}
}

func run(out string) error {
	cat, err := catalog.Embedded()
	if err != nil {
		return fmt.Errorf("the embedded catalog does not load: %w", err)
	}
	// a Form of the generated model validates with its own checks: every schema must
	// compile with them, or the model is not written
	for _, f := range cat.Forms() {
		if _, err := f.DesiredChecks(); err != nil {
			return fmt.Errorf("%s: desiredSchema: %w", f.Ref, err)
		}
		if _, err := f.OutputChecks(); err != nil {
			return fmt.Errorf("%s: outputSchema: %w", f.Ref, err)
		}
	}
	src, err := modelgen.Generate(cat, "embedded")
	if err != nil {
		return err
	}
	return os.WriteFile(out, src, 0o644)
}
