package takoform

import (
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog/wire"
)

// TestResourceRequestBodies pins the canonical bytes of the typed request bodies: the
// five members for prepare; review added for a create PUT (never expectedUid); review
// and both identity fences for an update PUT. These bytes feed the idempotency key,
// so a change here would break replay of a recorded answer.
func TestResourceRequestBodies(t *testing.T) {
	t.Parallel()
	ref := wire.FormRef{APIVersion: "g.example/v1", Kind: "Cache", DefinitionVersion: "0.1.0", SchemaDigest: "sha256:ab"}
	q := newResourceRequest(ref, "cache", "dev", map[string]any{"ttl": 5})
	const head = `{"apiVersion":"g.example/v1",`
	const rest = `"form":{"formRef":{"apiVersion":"g.example/v1","definitionVersion":"0.1.0","kind":"Cache","schemaDigest":"sha256:ab"}},"kind":"Cache","metadata":{"name":"cache","space":"dev"}`
	for _, c := range []struct {
		name string
		body any
		want string
	}{
		{"prepare", q, head + rest + `,"spec":{"ttl":5}}`},
		{"create PUT", q.forPut("sha256:p", fences{}), head + rest + `,"review":{"prepareDigest":"sha256:p"},"spec":{"ttl":5}}`},
		{"update PUT", q.forPut("sha256:p", fences{uid: "u-1", generation: "3"}),
			head + `"expectedGeneration":"3","expectedUid":"u-1",` + rest + `,"review":{"prepareDigest":"sha256:p"},"spec":{"ttl":5}}`},
	} {
		got, err := wire.CanonicalValue(c.body)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != c.want {
			t.Errorf("%s body:\n got %s\nwant %s", c.name, got, c.want)
		}
		if c.name == "create PUT" && strings.Contains(string(got), "expectedUid") {
			t.Errorf("a create never sends expectedUid: %s", got)
		}
	}
	if q.Review != nil || q.ExpectedUID != nil {
		t.Error("forPut changed the prepare request it was built from")
	}
}
