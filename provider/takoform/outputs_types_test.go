package takoform

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/takokit/takokit/hostsim"
)

// No Form of the embedded catalog declares a boolean output, an enum or a minimum
// length, so these tests run the provider and hostsim over the gadget catalog
// (gadget_catalog_test.go), whose Gadget 0.2.0 declares them: both sides carry the same
// contract, hostsim assigns valid outputs, and the rewriting host breaks one member
// at a time.

// gadgetsThrough creates the store and holder a Gadget needs on one gadget host; each
// create of the throughHost is then one more Gadget (g, g-2, ...) of that holder.
func gadgetsThrough(t *testing.T) *throughHost {
	t.Helper()
	h := gadgetHarness(t, hostsim.Config{})
	h.create("takoform_store", values{aName: s("main")})
	holder := h.create("takoform_holder", values{aName: s("h"), "store": s("main")})
	return &throughHost{h: h, w: gadgetG, cfg: func(name string) values { return values{aName: s(name), "holder": s(holder.str(aName))} }}
}

// TestOutputsOfEveryTypeAreWrittenTyped: the host's valid answer gives a Bool, a
// String from an enum, an Int64 from an enum and a String of at least its minimum
// length; each enum's other value is as valid as its first, and a boolean declared
// without an enum takes either value.
func TestOutputsOfEveryTypeAreWrittenTyped(t *testing.T) {
	t.Parallel()
	host := gadgetsThrough(t)
	st, d, _ := host.create(t, nil)
	mustNoError(t, "apply", d)
	if !st["healthy"].Equal(types.BoolValue(true)) || st.str("tier") != "gold" || !st["port"].Equal(i64(443)) || len(st.str("address")) < 8 {
		t.Fatalf("outputs: healthy=%v tier=%v port=%v address=%v", st["healthy"], st["tier"], st["port"], st["address"])
	}
	for output, sent := range map[string]string{"tier": `"silver"`, "port": "8443", "address": `"abcd.efg"`, "serving": "false"} {
		st, d, _ := host.create(t, setOutput(output, sent))
		mustNoError(t, output+" = "+sent, d)
		if got := st[output].String(); got != sent {
			t.Errorf("%s = %s, want %s", output, got, sent)
		}
	}
}

// TestOutputsOfEveryTypeOutsideTheirDeclarationFailTheWrite: each kind of violation a
// boolean, enum or minimum-length output can have fails the write naming it.
func TestOutputsOfEveryTypeOutsideTheirDeclarationFailTheWrite(t *testing.T) {
	t.Parallel()
	host := gadgetsThrough(t)
	for _, c := range []struct{ output, sent, problem string }{
		{"healthy", `"yes"`, `was declared boolean and the host sent the string "yes"`},
		{"healthy", "1", "was declared boolean and the host sent the number 1"},
		{"healthy", "false", "is false, not one of the declared values"},
		{"tier", `"bronze"`, `is "bronze", not one of the declared values`},
		{"port", "8080", "is 8080, not one of the declared values 443, 8443"},
		{"address", `"abc.efg"`, "has 7 characters, fewer than the declared minimum 8"},
	} {
		t.Run(c.output+"="+strings.Trim(c.sent, `"`), func(t *testing.T) {
			st, d, w := host.create(t, setOutput(c.output, c.sent))
			wantDiags(t, d, w.unusableOutput(c.output, c.problem))
			if st == nil || st.str(aUID) == "" || !st[c.output].IsNull() {
				t.Errorf("want the state written with %s null; got %v", c.output, st)
			}
		})
	}
}
