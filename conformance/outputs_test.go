package conformance

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog"
)

// outputsForm returns a catalog Form with outputs and a fixture output document.
func outputsForm(t *testing.T) (*catalog.Form, map[string]any) {
	t.Helper()
	cat, err := catalog.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range cat.Forms() {
		for _, fx := range f.Fixtures {
			if f.HasOutputs() && fx.Output != nil {
				var out map[string]any
				if err := json.Unmarshal(fx.Output, &out); err != nil {
					t.Fatal(err)
				}
				return f, out
			}
		}
	}
	t.Skip("the embedded catalog has no Form with outputs and an output fixture")
	return nil, nil
}

func resWithOutputs(v any) *Resource {
	r := &Resource{}
	if v != nil {
		r.Status.Outputs = mustJSON(v)
	}
	return r
}

func TestOutputsProblem(t *testing.T) {
	f, good := outputsForm(t)
	if msg := outputsProblem(f, resWithOutputs(good)); msg != "" {
		t.Fatalf("the fixture's outputs are exact, got %q", msg)
	}
	first := f.Outputs[0]
	clone := func() map[string]any {
		c := map[string]any{}
		for k, v := range good {
			c[k] = v
		}
		return c
	}
	omit := clone()
	delete(omit, first.Wire)
	extra := clone()
	extra["conformanceExtra"] = "x"
	wrongType := clone()
	wrongType[first.Wire] = []any{}
	cases := map[string]struct {
		out  any
		want string
	}{
		"omitted member":    {omit, `lacks "` + first.Wire + `"`},
		"extra member":      {extra, "undeclared"},
		"wrong type":        {wrongType, "declared " + first.Type},
		"outputs missing":   {nil, "lacks outputs"},
		"outputs not a map": {[]any{}, "not an object"},
	}
	for _, o := range f.Outputs {
		bad := clone()
		switch {
		case o.Type == "string" && o.Pattern != "":
			bad[o.Wire] = "NOT A MATCH!"
			cases["pattern of "+o.Wire] = struct {
				out  any
				want string
			}{bad, "does not match"}
		case o.Type == "integer" && o.Max != nil:
			bad[o.Wire] = *o.Max + 1
			cases["bound of "+o.Wire] = struct {
				out  any
				want string
			}{bad, "outside the declared bounds"}
		}
	}
	for name, c := range cases {
		msg := outputsProblem(f, resWithOutputs(c.out))
		if !strings.Contains(msg, c.want) {
			t.Errorf("%s: outputsProblem = %q, want it to contain %q", name, msg, c.want)
		}
	}
}

func TestOutputsOmittedWithoutDeclaration(t *testing.T) {
	cat, err := catalog.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range cat.Forms() {
		if f.HasOutputs() {
			continue
		}
		if msg := outputsProblem(f, resWithOutputs(nil)); msg != "" {
			t.Fatalf("%s without outputs member: %q", f.Ref, msg)
		}
		if msg := outputsProblem(f, resWithOutputs(map[string]any{})); !strings.Contains(msg, "must be omitted") {
			t.Fatalf("%s with outputs {}: %q, want a failure saying it must be omitted", f.Ref, msg)
		}
		return
	}
	t.Skip("every Form of the embedded catalog declares outputs")
}
