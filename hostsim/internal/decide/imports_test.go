package decide

import (
	"go/parser"
	"go/token"
	"os/exec"
	"strings"
	"testing"
)

// The decisions are plain functions over values: package decide imports
// neither the store nor the fault table nor HTTP, directly or through another
// hostsim package (docs/protocol.md#faults).
func TestDecisionsImportNoStoreFaultOrHTTP(t *testing.T) {
	forbidden := []string{"/hostsim/internal/store", "/hostsim/internal/fault", "net/http"}
	pkgs, err := parser.ParseDir(token.NewFileSet(), ".", nil, parser.ImportsOnly)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pkgs {
		for name, f := range p.Files {
			for _, imp := range f.Imports {
				for _, bad := range forbidden {
					if path := strings.Trim(imp.Path.Value, `"`); strings.HasSuffix(path, bad) && !strings.HasSuffix(name, "_test.go") {
						t.Errorf("%s imports %s", name, path)
					}
				}
			}
		}
	}
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.Contains(dep, "/hostsim/internal/") && (strings.HasSuffix(dep, "/store") || strings.HasSuffix(dep, "/fault")) {
			t.Errorf("package decide depends on %s", dep)
		}
	}
}
