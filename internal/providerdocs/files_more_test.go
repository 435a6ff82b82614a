package providerdocs

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestAnIndexNoLongerRenderedIsStaleAndRemoved: a committed docs/index.md the render
// lacks is reported and removed like a resource page; without one, nothing is.
func TestAnIndexNoLongerRenderedIsStaleAndRemoved(t *testing.T) {
	pages := map[string][]byte{"docs/resources/a.md": []byte("a")}
	root := t.TempDir()
	writeFiles(t, root, map[string]string{"docs/index.md": "old", "docs/resources/a.md": "a"})
	stale, err := Stale(root, pages)
	if want := []string{"docs/index.md is no longer rendered (its resource type left the catalog or was renamed)"}; err != nil || !slices.Equal(stale, want) {
		t.Errorf("Stale = %q, %v; want %q", stale, err, want)
	}
	if err := Write(root, pages); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "docs", "index.md")); !os.IsNotExist(err) {
		t.Errorf("docs/index.md is still there (%v)", err)
	}
	empty := t.TempDir()
	if stale, err := Stale(empty, pages); err != nil || !slices.Equal(stale, []string{"docs/resources/a.md is missing"}) {
		t.Errorf("Stale of a root without docs = %q, %v", stale, err)
	}
	if err := Write(empty, pages); err != nil {
		t.Errorf("Write into a root without docs: %v", err)
	}
}

// TestWriteRefusesAFileInResourcesThatIsNoPage: only .md files of docs/resources
// are a render's; another file there is refused like one elsewhere.
func TestWriteRefusesAFileInResourcesThatIsNoPage(t *testing.T) {
	root := t.TempDir()
	err := Write(root, map[string][]byte{"docs/index.md": []byte("new"), "docs/resources/notes.txt": []byte("x")})
	if want := "tfplugindocs rendered docs/resources/notes.txt, which is neither docs/index.md nor a page of docs/resources; nothing was written"; err == nil || err.Error() != want {
		t.Errorf("Write = %v, want %s", err, want)
	}
	if _, err := os.Stat(filepath.Join(root, "docs")); !os.IsNotExist(err) {
		t.Errorf("Write refused yet wrote under docs (%v)", err)
	}
}

// TestWriteReportsAPageItCannotRemove: a page of a type that is gone but cannot be
// removed (here a directory holding a file, named like a page) fails the write.
func TestWriteReportsAPageItCannotRemove(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{"docs/resources/gone.md/inside": "x"})
	err := Write(root, map[string][]byte{"docs/index.md": []byte("new")})
	if err == nil || !strings.Contains(err.Error(), filepath.Join("docs", "resources", "gone.md")) {
		t.Errorf("Write = %v, want an error naming docs/resources/gone.md", err)
	}
}

// TestRekeySaysWhatItWasGiven: a document that is not JSON, and one holding no
// takoform schema or two, are refused saying which.
func TestRekeySaysWhatItWasGiven(t *testing.T) {
	for doc, want := range map[string]string{
		`not json`: "tofu providers schema -json printed no schema document: invalid character 'o' in literal null (expecting 'u')",
		`{"format_version":"1.0","provider_schemas":{"registry.opentofu.org/hashicorp/null":{}}}`:                                               "tofu providers schema -json holds 0 takoform provider schemas ([]), want exactly one",
		`{"format_version":"1.0","provider_schemas":{"registry.opentofu.org/takokit/takoform":{},"registry.terraform.io/takokit/takoform":{}}}`: "tofu providers schema -json holds 2 takoform provider schemas ([registry.opentofu.org/takokit/takoform registry.terraform.io/takokit/takoform]), want exactly one",
	} {
		if _, err := rekey([]byte(doc)); err == nil || err.Error() != want {
			t.Errorf("rekey(%s) = %v\nwant %s", doc, err, want)
		}
	}
}

// TestCleanEnvDropsTheCallersToolSettings: a render's programs get neither the
// caller's OpenTofu/Terraform nor provider variables, and run as in automation.
func TestCleanEnvDropsTheCallersToolSettings(t *testing.T) {
	t.Setenv("TF_CLI_CONFIG_FILE", "/elsewhere")
	t.Setenv("TOFU_X", "1")
	t.Setenv("TAKOFORM_ENDPOINT", "http://x")
	t.Setenv("KEEP_ME", "1")
	env := cleanEnv()
	for _, kv := range env {
		if strings.HasPrefix(kv, "TF_CLI_CONFIG_FILE=") || strings.HasPrefix(kv, "TOFU_X=") || strings.HasPrefix(kv, "TAKOFORM_ENDPOINT=") {
			t.Errorf("cleanEnv keeps %s", kv)
		}
	}
	for _, want := range []string{"KEEP_ME=1", "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1"} {
		if !slices.Contains(env, want) {
			t.Errorf("cleanEnv lacks %s", want)
		}
	}
}

// TestBinToolsNamesTheCommandThatBuildsAMissingOne: each missing binary is named
// with the mage target that builds it.
func TestBinToolsNamesTheCommandThatBuildsAMissingOne(t *testing.T) {
	bin := t.TempDir()
	for _, step := range []struct{ file, want string }{
		{"tofu", "tofu is missing: run `go tool mage tofu`"},
		{"terraform-provider-takoform", "terraform-provider-takoform is missing: run `go tool mage build`"},
		{"tfplugindocs", "tfplugindocs is missing: run `go tool mage releaseTools`"},
	} {
		if _, err := BinTools(bin); err == nil || !strings.Contains(err.Error(), step.want) {
			t.Errorf("BinTools without %s = %v, want %q", step.file, err, step.want)
		}
		if err := os.WriteFile(filepath.Join(bin, step.file), nil, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	tools, err := BinTools(bin)
	if err != nil || tools.Tfplugindocs != filepath.Join(bin, "tfplugindocs") {
		t.Errorf("BinTools with all three = %+v, %v", tools, err)
	}
}
