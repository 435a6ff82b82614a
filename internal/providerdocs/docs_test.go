package providerdocs

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/takokit/takokit/internal/fsx"
	"github.com/takokit/takokit/internal/testinputs"
)

// These tests need bin/tofu, bin/terraform-provider-takoform and bin/tfplugindocs; `go tool
// mage test` builds them first, `go tool mage unit` skips the tests by name, and run alone
// without them they fail with the command that builds them.

func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return root
}

func binTools(t *testing.T) Tools {
	t.Helper()
	tools, err := BinTools(filepath.Join(repoRoot(t), "bin"))
	if err != nil {
		t.Fatal(err)
	}
	return tools
}

var rendered struct {
	once   sync.Once
	pages  map[string][]byte
	schema []byte
	err    error
}

// render renders the docs and reads the schema once for every test of the package.
func render(t *testing.T) (map[string][]byte, []byte) {
	t.Helper()
	tools := binTools(t)
	rendered.once.Do(func() {
		rendered.pages, rendered.err = Render(repoRoot(t), tools)
		if rendered.err == nil {
			dir, err := os.MkdirTemp("", "takokit-schema-")
			if err != nil {
				rendered.err = err
				return
			}
			defer os.RemoveAll(dir)
			rendered.schema, rendered.err = ProviderSchema(tools, dir)
		}
	})
	if rendered.err != nil {
		t.Fatal(rendered.err)
	}
	return rendered.pages, rendered.schema
}

// TestProviderDocsAreCurrent is CI's staleness check: the committed docs/index.md and
// docs/resources are what tfplugindocs renders from today's schema, templates and examples.
func TestProviderDocsAreCurrent(t *testing.T) {
	testinputs.DeclarePart("PROVIDER_DOCS") // its programs read that part of the tree: docs/decisions.md#test-cache
	pages, _ := render(t)
	stale, err := Stale(repoRoot(t), pages)
	if err != nil {
		t.Fatal(err)
	}
	if len(stale) > 0 {
		t.Errorf("the provider docs are stale; run `go tool mage docs` (or `go tool mage providerDocs`) and commit the result:\n  %s",
			strings.Join(stale, "\n  "))
	}
}

type attribute struct {
	Description string `json:"description"`
	NestedType  *struct {
		Attributes map[string]attribute `json:"attributes"`
	} `json:"nested_type"`
}

type block struct {
	Description string               `json:"description"`
	Attributes  map[string]attribute `json:"attributes"`
}

type schemaDoc struct {
	ProviderSchemas map[string]struct {
		Provider struct {
			Block block `json:"block"`
		} `json:"provider"`
		ResourceSchemas map[string]struct {
			Block block `json:"block"`
		} `json:"resource_schemas"`
	} `json:"provider_schemas"`
}

// descriptions lists "name: description" of every attribute, nested ones included.
func descriptions(attrs map[string]attribute, into map[string]string) {
	for name, a := range attrs {
		into[name] = a.Description
		if a.NestedType != nil {
			descriptions(a.NestedType.Attributes, into)
		}
	}
}

// TestProviderDocsCarryTheSchema: one page per resource type of the schema, named without
// the provider prefix, holding the type's whole description (summary, definition versions,
// typed outputs), every attribute's description nested ones included, its examples and its
// import; the provider page holds every setting.
func TestProviderDocsCarryTheSchema(t *testing.T) {
	testinputs.DeclarePart("PROVIDER_DOCS") // its programs read that part of the tree: docs/decisions.md#test-cache
	root := repoRoot(t)
	pages, raw := render(t)
	var doc schemaDoc
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	ps, ok := doc.ProviderSchemas[ProviderName]
	if !ok || len(ps.ResourceSchemas) == 0 {
		t.Fatalf("the schema holds no %s resource types", ProviderName)
	}
	index := string(pages["docs/index.md"])
	settings := map[string]string{}
	descriptions(ps.Provider.Block.Attributes, settings)
	for name, d := range settings {
		if !strings.Contains(index, "- `"+name+"` (") || !strings.Contains(index, d) {
			t.Errorf("docs/index.md lacks setting %s or its description %q", name, d)
		}
	}
	resourcePages := 0
	for p := range pages {
		if strings.HasPrefix(p, "docs/resources/") {
			resourcePages++
		}
	}
	if resourcePages != len(ps.ResourceSchemas) {
		t.Errorf("%d resource pages for %d resource types", resourcePages, len(ps.ResourceSchemas))
	}
	for typ, rs := range ps.ResourceSchemas {
		p := "docs/resources/" + strings.TrimPrefix(typ, ProviderName+"_") + ".md"
		page := string(pages[p])
		if page == "" {
			t.Errorf("%s: no page %s", typ, p)
			continue
		}
		summary, sections, _ := strings.Cut(rs.Block.Description, "\n\n")
		for _, want := range []string{"# " + typ + " (Resource)", summary, sections, "## Example Usage", "## Definition versions", "## Schema", "## Import"} {
			if !strings.Contains(page, want) {
				t.Errorf("%s lacks %q", p, want)
			}
		}
		attrs := map[string]string{}
		descriptions(rs.Block.Attributes, attrs)
		for name, d := range attrs {
			if !strings.Contains(page, "- `"+name+"` (") || !strings.Contains(page, d) {
				t.Errorf("%s lacks attribute %s or its description %q", p, name, d)
			}
		}
		for _, ex := range []string{"resource.tf", "import.sh", "import-by-string-id.tf"} {
			b, err := os.ReadFile(filepath.Join(root, "examples", "resources", typ, ex))
			if err != nil || !strings.Contains(page, strings.TrimSpace(string(b))) {
				t.Errorf("%s does not show examples/resources/%s/%s (%v)", p, typ, ex, err)
			}
		}
	}
}

// TestProviderDocsExamplesValidate runs `tofu validate` over each example directory
// (examples/provider, examples/resources/<type>) against the built provider, so an example
// naming an attribute the schema lacks, or one of the wrong type, fails.
func TestProviderDocsExamplesValidate(t *testing.T) {
	testinputs.DeclarePart("PROVIDER_DOCS") // its programs read that part of the tree: docs/decisions.md#test-cache
	root := repoRoot(t)
	tools := binTools(t)
	dirs, err := filepath.Glob(filepath.Join(root, "examples", "resources", "*"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no examples/resources/* (%v)", err)
	}
	dirs = append([]string{filepath.Join(root, "examples", "provider")}, dirs...)
	sort.Strings(dirs[1:])
	rc, err := WriteCLIConfig(t.TempDir(), tools)
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range dirs {
		rel, _ := filepath.Rel(root, dir)
		t.Run(filepath.ToSlash(rel), func(t *testing.T) {
			t.Parallel() // its own copy of the example
			work := t.TempDir()
			if err := fsx.CopyTree(dir, work); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(filepath.Join(work, "provider.tf")); err != nil {
				if err := os.WriteFile(filepath.Join(work, "versions.tf"), []byte(schemaConfig), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			cmd := exec.Command(tools.Tofu, "validate", "-no-color")
			cmd.Dir, cmd.Env = work, append(cleanEnv(), "TF_CLI_CONFIG_FILE="+rc)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("tofu validate %s: %v\n%s", rel, err, out)
			}
		})
	}
}

// TestProviderDocsRenderSaysWhyTfplugindocsRefused: a template tfplugindocs cannot
// parse fails its generate step, a page without front matter its validate step;
// either way Render returns nothing and says which step and why, without the
// [DEBUG] line validate prints per file.
func TestProviderDocsRenderSaysWhyTfplugindocsRefused(t *testing.T) {
	testinputs.DeclarePart("PROVIDER_DOCS") // its programs read that part of the tree: docs/decisions.md#test-cache
	tools := binTools(t)
	for _, tc := range []struct{ name, index, want string }{
		{"unparsable", "{{ .Bad", `tfplugindocs generate failed (exit status 1); its output:`},
		{"no front matter", "# takoform\n", "tfplugindocs validate failed (exit status 1); its output:"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel() // its own copy of the templates and examples
			root := t.TempDir()
			for _, d := range []string{"templates", filepath.Join("examples", "provider"), filepath.Join("examples", "resources")} {
				if err := fsx.CopyTree(filepath.Join(repoRoot(t), d), filepath.Join(root, d)); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.WriteFile(filepath.Join(root, "templates", "index.md.tmpl"), []byte(tc.index), 0o644); err != nil {
				t.Fatal(err)
			}
			pages, err := Render(root, tools)
			if err == nil || pages != nil {
				t.Fatalf("Render = %d pages, %v; want nothing and an error", len(pages), err)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, tc.want) || strings.Contains(msg, "[DEBUG]") {
				t.Errorf("Render's error:\n%s\nwant it to start %q, without [DEBUG] lines", msg, tc.want)
			}
			why := map[string]string{"unparsable": `unable to parse template "{{ .Bad"`, "no front matter": "docs/index.md: error checking file frontmatter: no frontmatter found"}[tc.name]
			if !strings.Contains(msg, why) {
				t.Errorf("Render's error does not say why (%q):\n%s", why, msg)
			}
		})
	}
}
