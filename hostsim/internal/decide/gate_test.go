package decide

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog"
)

// formOf is the embedded catalog's Form of kind and its canonical fixture.
func formOf(t *testing.T, kind string) (*catalog.Form, func() map[string]any) {
	t.Helper()
	cat, err := catalog.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range cat.Forms() {
		if f.Ref.Kind == kind && len(f.Fixtures) > 0 {
			return f, func() map[string]any { return specOf(t, f) }
		}
	}
	t.Fatalf("the embedded catalog has no %s with a fixture", kind)
	return nil, nil
}

// Each fault of the spec gate acts only where the rule it breaks would
// refuse: asked about a spec the gate passes anyway, it records no firing.
func TestGateFaultsActOnlyWhereTheyChangeTheAnswer(t *testing.T) {
	version, versionSpec := formOf(t, "WorkerVersion")
	domain, domainSpec := formOf(t, "WorkerCustomDomain")
	// A Form of another role with the same closed handler set: the handler
	// vocabulary the fault opens is a revision's only.
	notRevision := *version
	notRevision.Role = "attachment"
	with := func(spec map[string]any, k string, v any) map[string]any { spec[k] = v; return spec }
	for _, tc := range []struct {
		name  string
		f     *catalog.Form
		spec  map[string]any
		fault Fault
		pass  bool
		fired int32
		field string // the hostname the gated spec holds, when set
		want  string
	}{
		{name: "handlers.open-vocabulary, handlers within the vocabulary and a set without an enum",
			f: version, spec: with(versionSpec(), "handlers", []any{"fetch", "queue"}), fault: HandlersOpenVocabulary, pass: true},
		{name: "handlers.open-vocabulary, a handler outside the vocabulary",
			f: version, spec: with(versionSpec(), "handlers", []any{"fetch", "email"}), fault: HandlersOpenVocabulary, pass: true, fired: 1},
		{name: "handlers.open-vocabulary on a Form that is not a revision",
			f: &notRevision, spec: with(versionSpec(), "handlers", []any{"fetch", "email"}), fault: HandlersOpenVocabulary},
		{name: "hostname.idna-map, an ASCII hostname",
			f: domain, spec: with(domainSpec(), "hostname", "Shop.Example.com"), fault: HostnameIDNAMap, pass: true, field: "hostname", want: "shop.example.com"},
		{name: "hostname.idna-map, a U-label",
			f: domain, spec: with(domainSpec(), "hostname", "Bücher.Example"), fault: HostnameIDNAMap, pass: true, fired: 1, field: "hostname", want: "xn--bcher-kva.example"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := armed(tc.fault)
			g, ds, err := (*GateMemo)(nil).Gate(tc.f, tc.spec, a)
			if err != nil {
				t.Fatal(err)
			}
			if (g != nil) != tc.pass || (ds == nil) != tc.pass {
				t.Fatalf("passed %v (%v), want %v", g != nil, ds, tc.pass)
			}
			if got := a.Fired(tc.fault); got != tc.fired {
				t.Fatalf("the fault fired %d times, want %d", got, tc.fired)
			}
			if tc.field != "" && g.Spec[tc.field] != tc.want {
				t.Fatalf("%s = %v, want %q", tc.field, g.Spec[tc.field], tc.want)
			}
		})
	}
}

// hostname.idna-map maps a U-label first; hostname.as-sent then leaves the
// mapped A-label as it is (not lowercased again, not the U-label sent).
func TestGateHostnameIDNAMapThenAsSent(t *testing.T) {
	domain, domainSpec := formOf(t, "WorkerCustomDomain")
	spec := domainSpec()
	spec["hostname"] = "Bücher.Example"
	a := armed(HostnameIDNAMap, HostnameAsSent)
	g, ds, err := Gate(domain, spec)
	if err != nil || ds == nil {
		t.Fatalf("without a fault a U-label passed the gate: %v %v", ds, err)
	}
	g, ds, err = (*GateMemo)(nil).Gate(domain, spec, a)
	if err != nil || ds != nil {
		t.Fatalf("idna-map then as-sent: %v %v", ds, err)
	}
	if g.Spec["hostname"] != "xn--bcher-kva.example" || a.Fired(HostnameIDNAMap) != 1 || a.Fired(HostnameAsSent) != 1 {
		t.Fatalf("hostname %v; fired idna-map %d, as-sent %d", g.Spec["hostname"], a.Fired(HostnameIDNAMap), a.Fired(HostnameAsSent))
	}
}

// A cron that only cron.pattern-only let through is not remembered as
// passed: the same spec without the fault is refused again.
func TestGateMemoForgetsWhatCronPatternOnlyLetThrough(t *testing.T) {
	trigger, triggerSpec := formOf(t, "WorkerCronTrigger")
	var gm GateMemo
	spec := triggerSpec()
	spec["cron"] = "99 * * * *" // the schema's pattern, not a minute
	a := armed(CronPatternOnly)
	if _, ds, err := gm.Gate(trigger, spec, a); err != nil || ds != nil || a.Fired(CronPatternOnly) != 1 {
		t.Fatalf("cron.pattern-only: %v %v, fired %d", ds, err, a.Fired(CronPatternOnly))
	}
	if _, ds, err := gm.Gate(trigger, spec, nil); err != nil || len(ds) == 0 {
		t.Fatalf("the spec cron.pattern-only let through passed again without it: %v %v", ds, err)
	}
}

// The gate reports one diagnostic per schema problem, each naming its
// field, and at most 256 of them.
func TestGateDiagnostics(t *testing.T) {
	domain, domainSpec := formOf(t, "WorkerCustomDomain")
	spec := domainSpec()
	spec["extra"] = true
	_, ds, err := Gate(domain, spec)
	if err != nil || len(ds) != 1 {
		t.Fatalf("one unknown member: %d diagnostics %v, %v", len(ds), ds, err)
	}
	if ds[0].Field != "/extra" || !strings.HasPrefix(ds[0].Message, "spec/extra: ") || ds[0].Severity != "error" {
		t.Fatalf("diagnostic %+v", ds[0])
	}
	spec = domainSpec()
	for i := range 300 {
		spec[fmt.Sprintf("extra%03d", i)] = true
	}
	if _, ds, err := Gate(domain, spec); err != nil || len(ds) != 256 {
		t.Fatalf("300 unknown members: %d diagnostics, want 256 (%v)", len(ds), err)
	}
}

// A diagnostic's message is at most 4000 bytes and an ellipsis.
func TestClip(t *testing.T) {
	at := strings.Repeat("x", 4000)
	if clip(at) != at {
		t.Fatal("a 4000-byte message was clipped")
	}
	if got := clip(at + "yz"); got != at+"…" {
		t.Fatalf("a 4002-byte message clipped to %d bytes", len(got))
	}
}

// The view handlers.open-vocabulary validates drops the values outside the
// enum of every closed string set of a revision, leaving the spec sent as it
// was; sets without an enum and values within it stay.
func TestWithinVocabularyDropsFromEveryClosedSet(t *testing.T) {
	version, versionSpec := formOf(t, "WorkerVersion")
	twoSets := *version
	twoSets.Fields = slices.Clone(version.Fields)
	for i := range twoSets.Fields {
		if twoSets.Fields[i].Wire == "requiredSensitiveVars" {
			twoSets.Fields[i].Enum = []string{"API_TOKEN"}
		}
	}
	m := versionSpec()
	m["handlers"] = []any{"fetch", "email"}
	m["requiredSensitiveVars"] = []any{"API_TOKEN", "OTHER"}
	for _, tc := range []struct {
		f                  *catalog.Form
		handlers, required []any
	}{
		{f: version, handlers: []any{"fetch"}, required: []any{"API_TOKEN", "OTHER"}},
		{f: &twoSets, handlers: []any{"fetch"}, required: []any{"API_TOKEN"}},
	} {
		out := withinVocabulary(tc.f, m)
		if !reflect.DeepEqual(out["handlers"], tc.handlers) || !reflect.DeepEqual(out["requiredSensitiveVars"], tc.required) {
			t.Fatalf("the view holds handlers %v, requiredSensitiveVars %v; want %v, %v", out["handlers"], out["requiredSensitiveVars"], tc.handlers, tc.required)
		}
		if out["worker"] == nil || len(out) != len(m) {
			t.Fatalf("the view lost members: %v", out)
		}
	}
	if len(m["handlers"].([]any)) != 2 || len(m["requiredSensitiveVars"].([]any)) != 2 {
		t.Fatalf("the spec sent was changed: %v", m)
	}
}
