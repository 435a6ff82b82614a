package takoform

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// Tests compare diagnostics whole: severity, summary, every line of the detail and the
// attribute, as a user reads them. A change to any part of a message is a change to a
// test, so it is seen and reviewed. The parts that differ from run to run are replaced
// by placeholders first (normalized), so the expected values are literal texts.

// diagnostic is one diagnostic as a user reads it.
type diagnostic struct {
	Severity string // "error" or "warning"
	Summary  string
	Detail   string
	// Attribute is the attribute the diagnostic is about, as a configuration writes it
	// (versions[1].weight, labels["k"]), "" for none.
	Attribute string
}

func errorDiag(summary string, detail ...string) diagnostic {
	return diagnostic{Severity: "error", Summary: summary, Detail: strings.Join(detail, "\n")}
}

func warningDiag(summary string, detail ...string) diagnostic {
	return diagnostic{Severity: "warning", Summary: summary, Detail: strings.Join(detail, "\n")}
}

// at is d about the attribute attr.
func (d diagnostic) at(attr string) diagnostic {
	d.Attribute = attr
	return d
}

// wantDiags fails t unless got, normalized, is exactly want, in order.
func wantDiags(t testing.TB, got []*tfprotov6.Diagnostic, want ...diagnostic) {
	t.Helper()
	g := normalizeDiags(got)
	if want == nil {
		want = []diagnostic{}
	}
	if diff := cmp.Diff(want, g); diff != "" {
		t.Errorf("diagnostics differ (-want +got):\n%s\ngot, normalized, as Go:\n%s", diff, diagsAsGo(g))
	}
}

// runDependent are the parts of a diagnostic that differ between runs, each with the
// name of its placeholder: ids a host mints (docs/protocol.md), digests, timestamps, the
// port a loopback test server was given (four or five digits; a fixed low port such
// as 127.0.0.1:1 stays). The patterns are exact, so an id a test host writes by hand
// (req_probe) stays as it is. The first group, if any, is the part replaced.
var runDependent = []struct {
	re   *regexp.Regexp
	name string
}{
	{regexp.MustCompile(`sha256:[0-9a-f]{64}`), "sha256"},
	{regexp.MustCompile(`formtx_[0-9a-f]{64}`), "formtx"},
	{regexp.MustCompile(`req_[0-9a-f]{20}`), "req"},
	{regexp.MustCompile(`\bu-[0-9a-f]{20}\b`), "uid"},
	{regexp.MustCompile(`\bop_[0-9a-f]{20}\b`), "op"},
	{regexp.MustCompile(`\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)`), "time"},
	{regexp.MustCompile(`(?:127\.0\.0\.1|\[::1\]|localhost):(\d{4,5})\b`), "port"},
}

// normalizeDiags is ds as diagnostic values with every run-dependent part replaced by
// <name-n>: n counts the distinct values of that name in order of first appearance,
// across all of ds, so one value keeps one placeholder and two values never share one.
func normalizeDiags(ds []*tfprotov6.Diagnostic) []diagnostic {
	seen := map[string]map[string]int{}
	placeholder := func(name, v string) string {
		if seen[name] == nil {
			seen[name] = map[string]int{}
		}
		n, ok := seen[name][v]
		if !ok {
			n = len(seen[name]) + 1
			seen[name][v] = n
		}
		return fmt.Sprintf("<%s-%d>", name, n)
	}
	norm := func(s string) string {
		for _, r := range runDependent {
			var b strings.Builder
			last := 0
			for _, m := range r.re.FindAllStringSubmatchIndex(s, -1) {
				from, to := m[0], m[1]
				if len(m) > 2 {
					from, to = m[2], m[3]
				}
				b.WriteString(s[last:from])
				b.WriteString(placeholder(r.name, s[from:to]))
				last = to
			}
			s = b.String() + s[last:]
		}
		return s
	}
	out := make([]diagnostic, 0, len(ds))
	for _, d := range ds {
		sev := "warning"
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			sev = "error"
		}
		out = append(out, diagnostic{Severity: sev, Summary: norm(d.Summary), Detail: norm(d.Detail), Attribute: attrText(d.Attribute)})
	}
	return out
}

// named is ds with each value replaced by its name (pairs: name, value, ...), for a value
// the test knows and whose identity the test asserts (the uid in state, not just some
// uid). Names are applied before normalizing, longest value first.
func named(ds []*tfprotov6.Diagnostic, pairs ...string) []*tfprotov6.Diagnostic {
	type pair struct{ name, value string }
	var ps []pair
	for i := 0; i+1 < len(pairs); i += 2 {
		if pairs[i+1] == "" {
			panic("named: empty value for " + pairs[i])
		}
		ps = append(ps, pair{pairs[i], pairs[i+1]})
	}
	sort.SliceStable(ps, func(i, j int) bool { return len(ps[i].value) > len(ps[j].value) })
	var args []string
	for _, p := range ps {
		args = append(args, p.value, p.name)
	}
	r := strings.NewReplacer(args...)
	out := make([]*tfprotov6.Diagnostic, len(ds))
	for i, d := range ds {
		c := *d
		c.Summary, c.Detail = r.Replace(d.Summary), r.Replace(d.Detail)
		out[i] = &c
	}
	return out
}

// fromFramework is ds as the protocol carries them, for a report rendered outside a
// protocol call (a validator's, a report's); a path may name attributes, list
// indexes and set values.
func fromFramework(t testing.TB, ds diag.Diagnostics) []*tfprotov6.Diagnostic {
	t.Helper()
	out := make([]*tfprotov6.Diagnostic, 0, len(ds))
	for _, d := range ds {
		pd := &tfprotov6.Diagnostic{Severity: tfprotov6.DiagnosticSeverityWarning, Summary: d.Summary(), Detail: d.Detail()}
		if d.Severity() == diag.SeverityError {
			pd.Severity = tfprotov6.DiagnosticSeverityError
		}
		if wp, ok := d.(diag.DiagnosticWithPath); ok {
			pd.Attribute = tftypes.NewAttributePath()
			for _, step := range wp.Path().Steps() {
				switch st := step.(type) {
				case path.PathStepAttributeName:
					pd.Attribute = pd.Attribute.WithAttributeName(string(st))
				case path.PathStepElementKeyInt:
					pd.Attribute = pd.Attribute.WithElementKeyInt(int(st))
				case path.PathStepElementKeyValue:
					v, err := st.Value.ToTerraformValue(context.Background())
					if err != nil {
						t.Fatalf("fromFramework: path %s: %v", wp.Path(), err)
					}
					pd.Attribute = pd.Attribute.WithElementKeyValue(v)
				default:
					t.Fatalf("fromFramework: path %s has a step of another kind", wp.Path())
				}
			}
		}
		out = append(out, pd)
	}
	return out
}

// attrText writes p as a configuration does: versions[1].weight, labels["k"]; an
// element of a set by its value: handlers{"queue"}.
func attrText(p *tftypes.AttributePath) string {
	var b strings.Builder
	for _, step := range p.Steps() {
		switch v := step.(type) {
		case tftypes.AttributeName:
			if b.Len() > 0 {
				b.WriteString(".")
			}
			b.WriteString(string(v))
		case tftypes.ElementKeyInt:
			b.WriteString("[" + strconv.FormatInt(int64(v), 10) + "]")
		case tftypes.ElementKeyString:
			b.WriteString("[" + strconv.Quote(string(v)) + "]")
		case tftypes.ElementKeyValue:
			var s string
			if tftypes.Value(v).As(&s) == nil {
				b.WriteString("{" + strconv.Quote(s) + "}")
			} else {
				b.WriteString("{" + tftypes.Value(v).String() + "}")
			}
		}
	}
	return b.String()
}

// diagsAsGo writes ds as the arguments of wantDiags, one detail line a line.
func diagsAsGo(ds []diagnostic) string {
	var b strings.Builder
	for _, d := range ds {
		fmt.Fprintf(&b, "%sDiag(%s", d.Severity, strconv.Quote(d.Summary))
		for _, l := range strings.Split(d.Detail, "\n") {
			fmt.Fprintf(&b, ",\n\t%s", strconv.Quote(l))
		}
		b.WriteString(")")
		if d.Attribute != "" {
			fmt.Fprintf(&b, ".at(%s)", strconv.Quote(d.Attribute))
		}
		b.WriteString(",\n")
	}
	return b.String()
}

// failRecorder records what wantDiags reports instead of failing the test.
type failRecorder struct {
	testing.TB
	failures []string
}

func (r *failRecorder) Helper() {}
func (r *failRecorder) Errorf(format string, args ...any) {
	r.failures = append(r.failures, fmt.Sprintf(format, args...))
}

// TestWantDiagsComparesWholeDiagnostics: the placeholders number each kind of
// run-dependent value by first appearance (one value, one number), hand-written ids
// and fixed ports stay, named values come first, and a difference in any part of a
// diagnostic, a missing one or an extra one fails.
func TestWantDiagsComparesWholeDiagnostics(t *testing.T) {
	t.Parallel()
	uidA, uidB := "u-0123456789abcdef0123", "u-fedcba9876543210fedc"
	digest := "sha256:" + strings.Repeat("ab", 32)
	got := []*tfprotov6.Diagnostic{{Severity: tfprotov6.DiagnosticSeverityError, Summary: "Failed to update Queue q",
		Detail: "Expected UID: " + uidA + "\nCurrent UID: " + uidB + "\nRequest: req_0123456789abcdef0123 and req_probe\n" +
			"Form: schema=" + digest + "\nAt: http://127.0.0.1:43121 not http://127.0.0.1:1, op_0123456789abcdef0123, 2025-01-02T03:04:05Z",
		Attribute: tftypes.NewAttributePath().WithAttributeName("versions").WithElementKeyInt(1).WithAttributeName("weight")},
		{Severity: tfprotov6.DiagnosticSeverityWarning, Summary: "again " + uidB, Detail: "x"}}
	want := []diagnostic{errorDiag("Failed to update Queue q",
		"Expected UID: <uid-1>",
		"Current UID: <uid-2>",
		"Request: <req-1> and req_probe",
		"Form: schema=<ours>",
		"At: http://127.0.0.1:<port-1> not http://127.0.0.1:1, <op-1>, <time-1>").at("versions[1].weight"),
		warningDiag("again <uid-2>", "x")}
	wantDiags(t, named(got, "<ours>", digest), want...)

	changed := func(edit func(*diagnostic)) []diagnostic {
		w := append([]diagnostic(nil), want...)
		edit(&w[0])
		return w
	}
	for name, w := range map[string][]diagnostic{
		"severity":  changed(func(d *diagnostic) { d.Severity = "warning" }),
		"summary":   changed(func(d *diagnostic) { d.Summary += "." }),
		"detail":    changed(func(d *diagnostic) { d.Detail = strings.Replace(d.Detail, "<uid-2>", "<uid-1>", 1) }),
		"attribute": changed(func(d *diagnostic) { d.Attribute = "versions[1]" }),
		"missing":   want[:1],
		"extra":     append(append([]diagnostic(nil), want...), warningDiag("x")),
		"none":      nil,
	} {
		r := &failRecorder{TB: t}
		wantDiags(r, named(got, "<ours>", digest), w...)
		if len(r.failures) != 1 {
			t.Errorf("%s: want one failure, got %q", name, r.failures)
		}
	}
	r := &failRecorder{TB: t}
	if wantDiags(r, nil); len(r.failures) != 0 {
		t.Errorf("no diagnostics, none wanted: %q", r.failures)
	}
}
