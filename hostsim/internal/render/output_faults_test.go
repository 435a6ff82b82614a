package render

import (
	"reflect"
	"testing"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/hostsim/internal/fault"
)

// declaring is a Form with an outputSchema declaring outs (none: an
// outputSchema without members).
func declaring(outs ...catalog.Output) *catalog.Form {
	return &catalog.Form{OutputJSON: []byte(`{"type":"object"}`), Outputs: outs}
}

// undeclaring is a Form without an outputSchema.
func undeclaring() *catalog.Form { return &catalog.Form{} }

// applied runs the output faults fs over out and checks which fired.
func applied(t *testing.T, f *catalog.Form, out map[string]any, fs *fault.Set, fired ...string) map[string]any {
	t.Helper()
	got := outputFaults(f, out, fs)
	if len(fired) == 0 {
		fired = []string{}
	}
	if firings := fs.Firings(); !reflect.DeepEqual(firings, fired) {
		t.Fatalf("fired %v, want %v (served %v)", firings, fired, got)
	}
	return got
}

func armed(name, value string) *fault.Set { return fault.Fixed(fault.Spec{Fault: name, Value: value}) }

// The faults on a member act on nothing when the outputSchema declares no
// member: the empty outputs are served as they are and none fires.
func TestOutputFaultsOnAnOutputSchemaWithoutMembers(t *testing.T) {
	for _, r := range []*fault.Rule{fault.OutputsOmit, fault.OutputsWrongType, fault.OutputsNullMember, fault.OutputsDropAll} {
		if got := applied(t, declaring(), map[string]any{}, armed(r.Name, "")); got == nil || len(got) != 0 {
			t.Fatalf("%s on an outputSchema without members: served %v, want {}", r.Name, got)
		}
	}
}

// outputs.extra adds its member beside the declared ones, and serves it alone
// where there were no outputs.
func TestOutputsExtraJoinsWhatIsServed(t *testing.T) {
	const extra = "injected by hostsim fault outputs.extra"
	f := declaring(catalog.Output{Wire: "hostname", Type: "string"})
	got := applied(t, f, map[string]any{"hostname": "h.example"}, armed(fault.OutputsExtra.Name, ""), fault.OutputsExtra.Name)
	if want := map[string]any{"hostname": "h.example", "unexpected": extra}; !reflect.DeepEqual(got, want) {
		t.Fatalf("outputs.extra beside declared outputs: %v, want %v", got, want)
	}
	got = applied(t, undeclaring(), nil, armed(fault.OutputsExtra.Name, "surplus"), fault.OutputsExtra.Name)
	if want := map[string]any{"surplus": extra}; !reflect.DeepEqual(got, want) {
		t.Fatalf("outputs.extra=surplus without outputs: %v, want %v", got, want)
	}
}

// outputs.empty-when-undeclared serves {} only for a Form without an
// outputSchema; declared outputs stay and the fault does not fire.
func TestEmptyWhenUndeclaredOnlyWithoutAnOutputSchema(t *testing.T) {
	name := fault.OutputsEmptyWhenUndeclared.Name
	f := declaring(catalog.Output{Wire: "hostname", Type: "string"})
	if got := applied(t, f, map[string]any{"hostname": "h.example"}, armed(name, "")); !reflect.DeepEqual(got, map[string]any{"hostname": "h.example"}) {
		t.Fatalf("%s on declared outputs: %v, want them unchanged", name, got)
	}
	if got := applied(t, undeclaring(), nil, armed(name, ""), name); got == nil || len(got) != 0 {
		t.Fatalf("%s without an outputSchema: %v, want {}", name, got)
	}
}

// outputs.pattern-violation acts on the first string output with a pattern
// and no enum: a string without a pattern, an integer and a patterned enum
// before it are passed over, and naming one of them fires nothing.
func TestPatternViolationOnlyOnAPatternedString(t *testing.T) {
	const bad = "NOT A VALUE OF ITS PATTERN (hostsim fault outputs.pattern-violation)"
	name := fault.OutputsPatternViolation.Name
	f := declaring(catalog.Output{Wire: "label", Type: "string"}, catalog.Output{Wire: "port", Type: "integer"},
		catalog.Output{Wire: "tier", Type: "string", Pattern: "^[a-z]+$", Enum: []string{"gold"}},
		catalog.Output{Wire: "hostname", Type: "string", Pattern: "^[a-z.]+$"})
	out := func() map[string]any {
		return map[string]any{"label": "l", "port": int64(443), "tier": "gold", "hostname": "h.example"}
	}
	want := out()
	want["hostname"] = bad
	if got := applied(t, f, out(), armed(name, ""), name); !reflect.DeepEqual(got, want) {
		t.Fatalf("%s by default: %v, want %v", name, got, want)
	}
	for _, m := range []string{"label", "port", "tier"} {
		if got := applied(t, f, out(), armed(name, m)); !reflect.DeepEqual(got, out()) {
			t.Fatalf("%s=%s: %v, want the outputs unchanged", name, m, got)
		}
	}
}

// outputs.out-of-range serves an integer output with a bound one past its
// maximum, or one below its minimum when it declares only that; an unbounded
// integer is passed over, and naming it fires nothing.
func TestOutOfRangeOnlyOnABoundedInteger(t *testing.T) {
	name := fault.OutputsOutOfRange.Name
	f := declaring(catalog.Output{Wire: "count", Type: "integer"}, catalog.Output{Wire: "port", Type: "integer", Max: i64(65535)},
		catalog.Output{Wire: "floor", Type: "integer", Min: i64(10)})
	out := func() map[string]any {
		return map[string]any{"count": int64(3), "port": int64(443), "floor": int64(10)}
	}
	for _, tc := range []struct {
		value, member string
		want          int64
	}{{"", "port", 65536}, {"port", "port", 65536}, {"floor", "floor", 9}} {
		want := out()
		want[tc.member] = tc.want
		if got := applied(t, f, out(), armed(name, tc.value), name); !reflect.DeepEqual(got, want) {
			t.Fatalf("%s=%s: %v, want %v", name, tc.value, got, want)
		}
	}
	if got := applied(t, f, out(), armed(name, "count")); !reflect.DeepEqual(got, out()) {
		t.Fatalf("%s=count (unbounded): %v, want the outputs unchanged", name, got)
	}
}
