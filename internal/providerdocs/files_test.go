package providerdocs

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRekeyMovesTheOneTakoformSchema(t *testing.T) {
	out, err := rekey([]byte(`{"format_version":"1.0","provider_schemas":{"registry.opentofu.org/takokit/takoform":{"provider":{"version":0}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		FormatVersion   string                     `json:"format_version"`
		ProviderSchemas map[string]json.RawMessage `json:"provider_schemas"`
	}
	if err := json.Unmarshal(out, &d); err != nil {
		t.Fatal(err)
	}
	if got := string(d.ProviderSchemas[ProviderName]); got != `{"provider":{"version":0}}` || len(d.ProviderSchemas) != 1 || d.FormatVersion != "1.0" {
		t.Errorf("rekeyed document = %s", out)
	}
	for _, doc := range []string{
		`{"format_version":"1.0","provider_schemas":{}}`,
		`{"format_version":"1.0","provider_schemas":{"registry.opentofu.org/takokit/takoform":{},"registry.terraform.io/takokit/takoform":{}}}`,
		`not json`,
	} {
		if _, err := rekey([]byte(doc)); err == nil {
			t.Errorf("rekey(%s) = nil error, want one", doc)
		}
	}
}

func writeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for rel, s := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestWriteReplacesOnlyManagedPages: a render replaces docs/index.md and docs/resources,
// removes the page of a type that is gone, and leaves every other document alone.
func TestWriteReplacesOnlyManagedPages(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"docs/index.md": "old", "docs/resources/old_type.md": "old", "docs/resources/kept.md": "old",
		"docs/guides/getting-started.md": "hand", "docs/decisions.md": "hand",
	})
	pages := map[string][]byte{"docs/index.md": []byte("new"), "docs/resources/kept.md": []byte("new"), "docs/resources/new_type.md": []byte("new")}
	stale, err := Stale(root, pages)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"docs/index.md differs", "docs/resources/kept.md differs", "docs/resources/new_type.md is missing", "docs/resources/old_type.md is no longer rendered"}
	if joined := strings.Join(stale, "\n"); len(stale) != len(want) {
		t.Errorf("Stale = %q, want %d entries", stale, len(want))
	} else {
		for _, w := range want {
			if !strings.Contains(joined, w) {
				t.Errorf("Stale = %q lacks %q", stale, w)
			}
		}
	}
	if err := Write(root, pages); err != nil {
		t.Fatal(err)
	}
	if stale, _ := Stale(root, pages); len(stale) != 0 {
		t.Errorf("after Write, Stale = %q", stale)
	}
	if _, err := os.Stat(filepath.Join(root, "docs", "resources", "old_type.md")); !os.IsNotExist(err) {
		t.Errorf("the gone type's page is still there (%v)", err)
	}
	for _, hand := range []string{"docs/guides/getting-started.md", "docs/decisions.md"} {
		if b, err := os.ReadFile(filepath.Join(root, hand)); err != nil || string(b) != "hand" {
			t.Errorf("%s changed: %q %v", hand, b, err)
		}
	}
}

func TestWriteRefusesAPageItDoesNotOwn(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{"docs/guides/x.md": "hand"})
	err := Write(root, map[string][]byte{"docs/index.md": []byte("new"), "docs/guides/x.md": []byte("tfplugindocs")})
	if err == nil || !strings.Contains(err.Error(), "docs/guides/x.md") {
		t.Fatalf("Write = %v, want a refusal naming docs/guides/x.md", err)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "docs", "guides", "x.md")); string(b) != "hand" {
		t.Errorf("docs/guides/x.md was overwritten")
	}
	if _, err := os.Stat(filepath.Join(root, "docs", "index.md")); !os.IsNotExist(err) {
		t.Errorf("Write refused yet wrote docs/index.md")
	}
}
