// Command examplegen regenerates examples/resources from the embedded Form catalog:
// each resource type's resource.tf, import.sh and import-by-string-id.tf, which
// tfplugindocs then places on the type's page. Run it from the repository root
// (`go tool mage docs` runs `go run ./provider/cmd/examplegen` before tfplugindocs).
package main

import (
	"flag"
	"fmt"
	"os"
	"path"
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
	files, err := takoform.GenerateExamples(cat)
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
	removed := removeGone(*root, files)
	fmt.Printf("examplegen: wrote %d files, removed %d directories of resource types the catalog no longer has\n", len(paths), removed)
}

// removeGone deletes each examples/resources/<dir> that no generated file lives in: its
// resource type left the catalog or was renamed, and tfplugindocs would otherwise keep
// looking at it.
func removeGone(root string, files map[string][]byte) int {
	kept := map[string]bool{}
	for p := range files {
		kept[path.Dir(p)] = true
	}
	dirs, err := os.ReadDir(filepath.Join(root, "examples", "resources"))
	if err != nil {
		fail("%v", err)
	}
	n := 0
	for _, d := range dirs {
		if rel := "examples/resources/" + d.Name(); d.IsDir() && !kept[rel] {
			if err := os.RemoveAll(filepath.Join(root, filepath.FromSlash(rel))); err != nil {
				fail("%v", err)
			}
			fmt.Println("examplegen: removed", rel)
			n++
		}
	}
	return n
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "examplegen: "+format+"\n", args...)
	os.Exit(1)
}
