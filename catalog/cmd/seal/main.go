// Command seal recomputes every digest of a catalog root and rewrites the digest
// strings of exact refs, the package indexes and transitions.json (docs/catalog-rules.md#digests).
//
// Usage: seal [-check] [catalog-root]
//
// The root defaults to the catalog module's data directory: "data" when run inside the
// catalog module, "catalog/data" when run at the repository root. With -check nothing
// is written and the exit status is 1 when any file would change.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/takokit/takokit/catalog/internal/seal"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("seal", flag.ContinueOnError)
	fl.SetOutput(stderr)
	check := fl.Bool("check", false, "report the files that would change without writing them; exit 1 if any")
	fl.Usage = func() {
		fmt.Fprintln(stderr, "usage: seal [-check] [catalog-root]")
		fl.PrintDefaults()
	}
	if err := fl.Parse(args); err != nil {
		return 2
	}
	if fl.NArg() > 1 {
		fl.Usage()
		return 2
	}
	dir := fl.Arg(0)
	if dir == "" {
		dir = defaultRoot()
	}
	op := seal.Seal
	if *check {
		op = seal.Check
	}
	changed, err := op(dir)
	if err != nil {
		fmt.Fprintln(stderr, err)
		fmt.Fprintf(stderr, "seal: %s was left unchanged; fix the problems above and run seal again\n", dir)
		return 1
	}
	for _, p := range changed {
		fmt.Fprintln(stdout, filepath.Join(dir, filepath.FromSlash(p)))
	}
	switch {
	case *check && len(changed) > 0:
		fmt.Fprintf(stderr, "seal: %d file(s) under %s are not sealed; run seal without -check\n", len(changed), dir)
		return 1
	case *check:
		fmt.Fprintf(stderr, "seal: %s is sealed\n", dir)
	default:
		fmt.Fprintf(stderr, "seal: %s sealed, %d file(s) rewritten\n", dir, len(changed))
	}
	return 0
}

// defaultRoot finds the catalog data directory from the catalog module or the
// repository root.
func defaultRoot() string {
	for _, c := range []string{"data", filepath.Join("catalog", "data")} {
		if st, err := os.Stat(filepath.Join(c, "forms")); err == nil && st.IsDir() {
			return c
		}
	}
	if _, err := os.Stat("go.work"); err == nil {
		return filepath.Join("catalog", "data")
	}
	return "data"
}
