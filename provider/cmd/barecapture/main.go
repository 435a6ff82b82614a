// Command barecapture writes the schemas of the takoform provider to a file that the
// plan benchmark's yardstick (provider/cmd/bareprovider) serves:
//
//	barecapture FILE [-catalog DIR]   the embedded catalog's schemas, or those over DIR
//
// It is its own command so that the yardstick links neither the catalog loader nor its
// JSON Schema engine: a bare start costs what a framework provider with literal
// schemas costs, no more.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/embedded"
	"github.com/takokit/takokit/provider/internal/bare"
	"github.com/takokit/takokit/provider/takoform"
)

func main() {
	catDir := flag.String("catalog", "", "a catalog directory instead of the embedded catalog")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: barecapture [-catalog DIR] FILE")
		os.Exit(2)
	}
	if err := captureTo(flag.Arg(0), *catDir); err != nil {
		fmt.Fprintln(os.Stderr, "barecapture:", err)
		os.Exit(1)
	}
}

func captureTo(path, dir string) error {
	cat := embedded.Catalog()
	if dir != "" {
		var err error
		if cat, err = catalog.Load(os.DirFS(dir)); err != nil {
			return err
		}
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
