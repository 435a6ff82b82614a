package takoform

import (
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func repoRoot(t *testing.T) string {
	t.Helper()
	wd, _ := os.Getwd()
	for dir := wd; filepath.Dir(dir) != dir; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.work")); err == nil {
			return dir
		}
	}
	t.Skipf("no go.work above %s; the generated docs live in the repository", wd)
	return ""
}

// TestGeneratedExamplesAreFresh fails when examples/resources differs from what the
// catalog generates. Fix: go tool mage docs (go run ./provider/cmd/examplegen). The pages
// under docs/resources are tfplugindocs' and checked at the repository root
// (internal/providerdocs).
func TestGeneratedExamplesAreFresh(t *testing.T) {
	t.Parallel()
	root := repoRoot(t)
	files, err := GenerateExamples(testCatalog(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range slices.Sorted(maps.Keys(files)) {
		got, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
		if err != nil || string(got) != string(files[p]) {
			t.Errorf("%s is stale or missing; run `go tool mage docs`", p)
		}
	}
	dirs, _ := filepath.Glob(filepath.Join(root, "examples", "resources", "*"))
	for _, d := range dirs {
		rel, _ := filepath.Rel(root, filepath.Join(d, "resource.tf"))
		if _, ok := files[filepath.ToSlash(rel)]; !ok {
			t.Errorf("%s belongs to no resource type of the catalog; run `go tool mage docs`, which removes it", filepath.Dir(rel))
		}
	}
}

func TestGeneratedExamplesCoverEveryType(t *testing.T) {
	t.Parallel()
	files, err := GenerateExamples(testCatalog(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, kt := range testProvider(t).kinds {
		m := kt.model
		dir := "examples/resources/" + m.typeName + "/"
		ex, sh, block := string(files[dir+"resource.tf"]), string(files[dir+"import.sh"]), string(files[dir+"import-by-string-id.tf"])
		if ex == "" || sh == "" || block == "" {
			t.Fatalf("%s: resource.tf, import.sh or import-by-string-id.tf missing", m.typeName)
		}
		for _, o := range m.outputs {
			if !strings.Contains(ex, m.typeName+".example."+o.Attr) {
				t.Errorf("%s: example does not read .%s", m.typeName, o.Attr)
			}
		}
		if strings.Contains(ex, "jsondecode") {
			t.Errorf("%s: example decodes JSON instead of reading typed outputs", m.typeName)
		}
		if m.revision && !strings.Contains(ex, "create_before_destroy = true") {
			t.Errorf("%s: revision example lacks create_before_destroy", m.typeName)
		}
		// both import IDs the page shows are ones ImportState accepts, naming this kind's newest Form
		for _, line := range strings.Split(sh, "\n") {
			rest, ok := strings.CutPrefix(line, "tofu import "+m.typeName+".example ")
			if !ok {
				continue
			}
			id := strings.Trim(rest, "'")
			space, name, ref, err := parseImportID(id)
			if err != nil || space != "prod" || name != "example-"+m.kind.Slug {
				t.Errorf("%s: import.sh ID %s parses to space %q name %q (%v)", m.typeName, id, space, name, err)
			}
			if ref != nil && *ref != m.newest.Ref {
				t.Errorf("%s: import.sh exact ID names %+v, not the newest Form %+v", m.typeName, *ref, m.newest.Ref)
			}
		}
		if strings.Count(sh, "tofu import ") != 2 {
			t.Errorf("%s: import.sh shows %d import commands, want the SPACE/NAME and the JSON form", m.typeName, strings.Count(sh, "tofu import "))
		}
	}
}

// TestGeneratedExamplesAreFormatted runs `tofu fmt -check` when bin/tofu is built.
func TestGeneratedExamplesAreFormatted(t *testing.T) {
	_ = os.Getenv("TAKOKIT_BIN_ID_TOFU") // bin/tofu is outside this module: docs/decisions.md#test-cache
	t.Parallel()
	root := repoRoot(t)
	tofu := filepath.Join(root, "bin", "tofu")
	if _, err := os.Stat(tofu); err != nil {
		t.Skipf("%s is absent (go tool mage tofu builds it); skipping the fmt check", tofu)
	}
	files, err := GenerateExamples(testCatalog(t))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for p, b := range files {
		if strings.HasSuffix(p, ".tf") {
			name := strings.ReplaceAll(strings.TrimPrefix(p, "examples/resources/"), "/", "_")
			if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	cmd := exec.Command(tofu, "fmt", "-check", "-diff", dir)
	cmd.Env = append(os.Environ(), "TF_CLI_CONFIG_FILE="+filepath.Join(dir, "none.tfrc"))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("tofu fmt -check: %v\n%s", err, out)
	}
}
