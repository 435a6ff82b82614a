// Command seal recomputes every digest of a catalog root and rewrites the digest
// strings of exact refs, the package indexes and transitions.json (docs/catalog-rules.md#digests).
//
// Usage: seal [-check] [catalog-root...]
//
// The roots default to every lane root of the catalog module's data directory
// (data/<lane>, docs/catalog-rules.md#lanes), found from the catalog module or the
// repository root. With -check nothing is written and the exit status is 1 when any
// file would change.
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
		fmt.Fprintln(stderr, "usage: seal [-check] [catalog-root...]")
		fl.PrintDefaults()
	}
	if err := fl.Parse(args); err != nil {
		return 2
	}
	dirs := fl.Args()
	if len(dirs) == 0 {
		dirs = defaultRoots()
	}
	if len(dirs) == 0 {
		fmt.Fprintln(stderr, "seal: found no catalog root under data/ or catalog/data/; name the root to seal")
		return 2
	}
	status := 0
	for _, dir := range dirs {
		if s := sealOne(dir, *check, stdout, stderr); s > status {
			status = s
		}
	}
	return status
}

func sealOne(dir string, check bool, stdout, stderr io.Writer) int {
	op := seal.Seal
	if check {
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
	case check && len(changed) > 0:
		fmt.Fprintf(stderr, "seal: %d file(s) under %s are not sealed; run seal without -check\n", len(changed), dir)
		return 1
	case check:
		fmt.Fprintf(stderr, "seal: %s is sealed\n", dir)
	default:
		fmt.Fprintf(stderr, "seal: %s sealed, %d file(s) rewritten\n", dir, len(changed))
	}
	return 0
}

// defaultRoots finds the lane roots of the catalog data directory (data/<lane>) from
// the catalog module or the repository root.
func defaultRoots() []string {
	for _, c := range []string{"data", filepath.Join("catalog", "data")} {
		entries, err := os.ReadDir(c)
		if err != nil {
			continue
		}
		var out []string
		for _, e := range entries {
			if st, err := os.Stat(filepath.Join(c, e.Name(), "forms")); err == nil && st.IsDir() {
				out = append(out, filepath.Join(c, e.Name()))
			}
		}
		if len(out) > 0 {
			return out
		}
	}
	return nil
}
