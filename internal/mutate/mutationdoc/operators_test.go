package mutationdoc

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/takokit/takokit/internal/mutate"
)

// TestOperatorTableIsDocumented: docs/mutation.md names every operator.
func TestOperatorTableIsDocumented(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "..", "docs", "mutation.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, op := range mutate.Operators {
		if !strings.Contains(string(doc), "`"+string(op.Kind)+"`") {
			t.Errorf("docs/mutation.md does not name `%s`", op.Kind)
		}
	}
}
