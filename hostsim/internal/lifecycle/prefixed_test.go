package lifecycle

import (
	"testing"

	"github.com/takokit/takokit/catalog/wire"
)

// A refusal about a migration application names it once: prefixed adds the
// name to a message that lacks it and leaves one that starts with it alone.
func TestPrefixedNamesTheResourceOnce(t *testing.T) {
	what := `SQLiteMigrationApplication "app" in space "prod"`
	for _, c := range []struct{ in, want string }{
		{"the file failed", what + ": the file failed"},
		{what + ": the file failed", what + ": the file failed"},
	} {
		if got := prefixed(what, wire.NewError(wire.CodeInternalError, c.in)).Message; got != c.want {
			t.Errorf("prefixed(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
