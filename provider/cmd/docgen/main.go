// Command docgen regenerates docs/resources and examples/resources from the
// embedded Form catalog. Run it from the repository root (`go tool mage docs`
// runs `go run ./provider/cmd/docgen`).
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/provider/takoform"
)

func main() {
	root := flag.String("root", ".", "repository root to write into")
	flag.Parse()
	cat, err := catalog.Embedded()
	if err != nil {
		fail("the embedded Form catalog does not load: %v", err)
	}
	files, err := takoform.GenerateDocs(cat)
	if err != nil {
		fail("%v", err)
	}
	if _, err := os.Stat(filepath.Join(*root, "go.work")); err != nil {
		fail("%s is not the repository root (no go.work); run from the root or pass -root", *root)
	}
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		dst := filepath.Join(*root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			fail("%v", err)
		}
		if err := os.WriteFile(dst, files[p], 0o644); err != nil {
			fail("%v", err)
		}
	}
	fmt.Printf("docgen: wrote %d files\n", len(paths))
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "docgen: "+format+"\n", args...)
	os.Exit(1)
}
