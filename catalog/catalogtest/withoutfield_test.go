package catalogtest

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog"
)

// TestWithoutFieldTakesTheDeadLetterQueueOut: QueueConsumer without its optional
// deadLetterQueue keeps its two other references, its canonical fixture loses the
// member, the negative fixture that exercised it is gone and every other negative
// fixture stays.
func TestWithoutFieldTakesTheDeadLetterQueueOut(t *testing.T) {
	const kind, field = "QueueConsumer", "deadLetterQueue"
	cat, err := WithoutField(t.TempDir(), kind, field)
	if err != nil {
		t.Fatal(err)
	}
	base, err := catalog.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	before, after := latest(t, base, kind), latest(t, cat, kind)
	pointers := func(f *catalog.Form) []string {
		var ps []string
		for _, r := range f.Relations {
			ps = append(ps, r.Pointer)
		}
		return ps
	}
	wantPointers := slices.DeleteFunc(pointers(before), func(p string) bool { return p == "/"+field })
	if got, want := strings.Join(pointers(after), " "), strings.Join(wantPointers, " "); got != want {
		t.Errorf("relations %s, want %s", got, want)
	}
	if _, ok := after.Field(field); ok {
		t.Errorf("%s still declares %s", kind, field)
	}
	fx, _, ok := after.CanonicalFixture()
	if !ok {
		t.Fatalf("%s lost its canonical fixture", kind)
	}
	var spec map[string]any
	if err := json.Unmarshal(fx.Desired, &spec); err != nil {
		t.Fatal(err)
	}
	if _, ok := spec[field]; ok || spec["queue"] == nil {
		t.Errorf("canonical fixture %s, want the queue without %s", fx.Desired, field)
	}
	if got, want := len(after.NegativeFixtures), len(before.NegativeFixtures)-1; got != want {
		t.Errorf("%d negative fixtures, want %d (only the one exercising %s dropped)", got, want, field)
	}
	for _, nf := range after.NegativeFixtures {
		if strings.Contains(string(nf.Input), field) {
			t.Errorf("negative fixture %s still holds %s", nf.Name, field)
		}
	}

	for _, bad := range []struct{ kind, field, want string }{
		{"NoSuchKind", "x", `no kind "NoSuchKind"`},
		{kind, "noSuchField", `declares no field "noSuchField"`},
		{kind, "queue", `"queue" is required`},
	} {
		if _, err := WithoutField(t.TempDir(), bad.kind, bad.field); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("WithoutField(%s, %s): %v, want an error saying %s", bad.kind, bad.field, err, bad.want)
		}
	}
}

func latest(t *testing.T, c *catalog.Catalog, kind string) *catalog.Form {
	t.Helper()
	var f *catalog.Form
	for _, g := range c.Forms() {
		if g.Ref.Kind == kind {
			f = g
		}
	}
	if f == nil {
		t.Fatalf("no %s in the catalog", kind)
	}
	return f
}
