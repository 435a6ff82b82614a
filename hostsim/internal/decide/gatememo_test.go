package decide

import (
	"encoding/json"
	"testing"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
)

// twoForms returns two Forms of the embedded catalog with a canonical fixture.
func twoForms(t *testing.T) (*catalog.Form, *catalog.Form) {
	t.Helper()
	cat, err := catalog.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	var fs []*catalog.Form
	for _, f := range cat.Forms() {
		if len(f.Fixtures) > 0 {
			fs = append(fs, f)
		}
	}
	if len(fs) < 2 {
		t.Fatalf("the embedded catalog has %d Forms with a fixture; want two", len(fs))
	}
	return fs[0], fs[1]
}

func specOf(t *testing.T, f *catalog.Form) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(f.Fixtures[0].Desired, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestGateMemoRemembersPassesOnly(t *testing.T) {
	f, g := twoForms(t)
	var gm GateMemo
	want, ds, err := Gate(f, specOf(t, f))
	if err != nil || ds != nil {
		t.Fatalf("the fixture of %s does not pass the gate: %v %v", f.Ref, ds, err)
	}
	for i := range 2 {
		got, ds, err := gm.Gate(f, specOf(t, f), nil)
		if err != nil || ds != nil {
			t.Fatalf("call %d: %v %v", i, ds, err)
		}
		if got.Digest != want.Digest || string(got.JCS) != string(want.JCS) || got.Form != f {
			t.Fatalf("call %d: the memo changed the answer: %s %s, want %s %s", i, got.Digest, got.JCS, want.Digest, want.JCS)
		}
	}
	if len(gm.m) != 1 {
		t.Fatalf("after two passes of one spec the memo holds %d entries, want 1", len(gm.m))
	}
	bad := specOf(t, f)
	bad["notAMemberOfAnySchema"] = true
	for i := range 2 {
		if _, ds, err := gm.Gate(f, bad, nil); err != nil || len(ds) == 0 {
			t.Fatalf("call %d: a spec with an unknown member passed (%v %v)", i, ds, err)
		}
	}
	if _, err := gm.GateOrRefuse(f, bad, nil); err == nil || err.Code != wire.CodeInvalidArgument {
		t.Fatalf("GateOrRefuse of a bad spec = %v, want invalid_argument", err)
	}
	if len(gm.m) != 1 {
		t.Fatalf("a refusal was remembered: %d entries", len(gm.m))
	}
	if _, ds, err := gm.Gate(g, specOf(t, g), nil); err != nil || ds != nil {
		t.Fatalf("the fixture of %s: %v %v", g.Ref, ds, err)
	}
	if len(gm.m) != 2 {
		t.Fatalf("two Forms' passes make %d entries, want 2", len(gm.m))
	}
}

// A remembered pass is what answers: a digest planted as passed is not
// checked again (this is what saves the schema check on a repeated spec).
func TestGateMemoAnswersFromWhatItRemembers(t *testing.T) {
	f, _ := twoForms(t)
	bad := specOf(t, f)
	bad["notAMemberOfAnySchema"] = true
	m := f.Materialize(bad)
	b, err := wire.CanonicalValue(m)
	if err != nil {
		t.Fatal(err)
	}
	var gm GateMemo
	gm.pass(f, wire.RawDigest(b))
	if _, ds, err := gm.Gate(f, bad, nil); err != nil || ds != nil {
		t.Fatalf("a planted pass was checked again: %v %v", ds, err)
	}
	var nilMemo *GateMemo
	if _, ds, _ := nilMemo.Gate(f, bad, nil); len(ds) == 0 {
		t.Fatal("a nil memo remembered something")
	}
}

func TestGateMemoForgetsAllWhenFull(t *testing.T) {
	f, _ := twoForms(t)
	var gm GateMemo
	for i := range gateMemoMax {
		gm.pass(f, string(rune(i))+"x")
	}
	if len(gm.m) != gateMemoMax {
		t.Fatalf("%d entries, want %d", len(gm.m), gateMemoMax)
	}
	gm.pass(f, "one more")
	if len(gm.m) != 1 || !gm.passed(f, "one more") {
		t.Fatalf("a full memo was not emptied before the new pass: %d entries", len(gm.m))
	}
}
