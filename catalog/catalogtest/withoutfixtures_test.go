package catalogtest

import (
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog"
)

func TestWithoutFixturesStripsOneKindAndReseals(t *testing.T) {
	const kind = "ModuleWorker"
	cat, err := WithoutFixtures(t.TempDir(), kind)
	if err != nil {
		t.Fatal(err)
	}
	base, err := catalog.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	var stripped *catalog.Form
	for _, f := range cat.Forms() {
		_, why, ok := f.CanonicalFixture()
		switch {
		case f.Ref.Kind != kind && !ok:
			t.Errorf("%s lost its canonical fixture", f.Ref)
		case f.Ref.Kind == kind && ok:
			t.Errorf("%s still has a canonical fixture", f.Ref)
		case f.Ref.Kind == kind:
			stripped = f
			if len(f.Fixtures) != 0 || len(f.NegativeFixtures) != 0 || !strings.Contains(why, "declares no conformanceFixtures") {
				t.Errorf("%s: %d fixtures, %d negative, note %q", f.Ref, len(f.Fixtures), len(f.NegativeFixtures), why)
			}
		}
	}
	if stripped == nil {
		t.Fatalf("no %s in the stripped catalog", kind)
	}
	if orig, ok := base.Form(stripped.Ref); ok {
		t.Fatalf("%s kept the built-in schema digest %s; its definition changed", kind, orig.Ref.SchemaDigest)
	}
	// every exact ref to the kind follows its new digest (WorkerDeployment pins it)
	var pinned int
	for _, f := range cat.Forms() {
		for _, r := range f.Relations {
			for _, ref := range r.TargetFormRefs {
				if ref.Kind != kind {
					continue
				}
				pinned++
				if ref != stripped.Ref {
					t.Errorf("%s %s still names %s, want %s", f.Ref.Kind, r.Pointer, ref, stripped.Ref)
				}
			}
		}
	}
	if pinned == 0 {
		t.Fatalf("no Form pins %s by its exact ref; the reseal is not exercised", kind)
	}
	if _, err := WithoutFixtures(t.TempDir(), "NoSuchKind"); err == nil || !strings.Contains(err.Error(), "NoSuchKind") {
		t.Fatalf("an unknown kind: %v, want an error naming it", err)
	}
}
