package mutationdoc

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/takokit/takokit/internal/mutate"
)

// scopeTableRows gives the rows of docs/mutation.md's scope table by their first
// cell: the cells of each, trimmed.
func scopeTableRows(t *testing.T, doc string) map[string][]string {
	t.Helper()
	_, table, ok := strings.Cut(doc, "## Scope table")
	if !ok {
		t.Fatal(`docs/mutation.md has no "## Scope table" section`)
	}
	rows := map[string][]string{}
	in := false
	for _, l := range strings.Split(table, "\n") {
		if !strings.HasPrefix(l, "|") {
			if in {
				break // the table ends at its first line that is not a row
			}
			continue
		}
		in = true
		cells := strings.Split(strings.Trim(l, "|"), " | ")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		if cells[0] == "row" || strings.HasPrefix(cells[0], "---") || strings.HasPrefix(cells[0], "**") {
			continue // the header, its rule and the total
		}
		rows[cells[0]] = cells
	}
	return rows
}

// TestScopeTableIsDocumented: docs/mutation.md's scope table has a row for each
// row of scope.json and none more, each naming the row's package (module and
// first directory) and its files, as the run reads them. A row added, moved or
// given another file without the doc fails it.
func TestScopeTableIsDocumented(t *testing.T) {
	rows, err := mutate.LoadScope(filepath.Join("..", "scope.json"))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile(filepath.Join("..", "..", "..", "docs", "mutation.md"))
	if err != nil {
		t.Fatal(err)
	}
	documented := scopeTableRows(t, string(doc))
	for _, r := range rows {
		cells, ok := documented[r.Name]
		if !ok {
			t.Errorf("docs/mutation.md's scope table has no row %q", r.Name)
			continue
		}
		delete(documented, r.Name)
		if len(cells) < 3 {
			t.Errorf("row %q of the doc has %d cells, want a package and files", r.Name, len(cells))
			continue
		}
		if want := "`" + r.Module + "/" + r.Dirs[0] + "`"; cells[1] != want {
			t.Errorf("row %q: the doc names package %s, scope.json %s", r.Name, cells[1], want)
		}
		var files []string
		for _, f := range strings.Split(cells[2], ", ") {
			files = append(files, strings.Trim(f, "`"))
		}
		if !slices.Equal(files, r.Files) {
			t.Errorf("row %q: the doc names files %q, scope.json %q", r.Name, files, r.Files)
		}
	}
	for name := range documented {
		t.Errorf("docs/mutation.md's scope table has a row %q that scope.json does not", name)
	}
}
