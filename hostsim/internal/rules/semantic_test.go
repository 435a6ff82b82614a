package rules

import (
	"os"
	"regexp"
	"testing"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/reftest"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/rules/cron"
)

func semanticForm() *catalog.Form {
	return &catalog.Form{Fields: []catalog.Field{
		{Wire: "cron", Pointer: "/cron", Kind: catalog.FieldString, Pattern: CronPattern},
		{Wire: "hostname", Pointer: "/hostname", Kind: catalog.FieldString, Pattern: HostnamePattern},
		{Wire: "other", Pointer: "/other", Kind: catalog.FieldString, Pattern: "^x$"},
	}}
}

func TestCheckSemanticFields(t *testing.T) {
	f := semanticForm()
	spec := map[string]any{"cron": "0,30 8-18 * * 1-5", "hostname": "API.Example.com.", "other": "Keep.Case."}
	CanonicalizeSpec(f, spec)
	if spec["hostname"] != "api.example.com" || spec["cron"] != "0,30 8-18 * * 1-5" || spec["other"] != "Keep.Case." {
		t.Fatalf("canonicalized spec = %v", spec)
	}
	claims, r := CheckSemanticFields(f, spec)
	if r != nil || len(claims) != 1 || claims[0] != (Claim{"/hostname", "api.example.com"}) {
		t.Fatalf("claims = %v, %v", claims, r)
	}
	_, r = CheckSemanticFields(f, map[string]any{"cron": "0 24 * * *"})
	if r == nil || r.Code != wire.CodeInvalidArgument || r.Pointer != "/cron" {
		t.Fatalf("cron refusal = %+v", r)
	}
	_, r = CheckSemanticFields(f, map[string]any{"hostname": "bücher.example"})
	if r == nil || r.Pointer != "/hostname" {
		t.Fatalf("hostname refusal = %+v", r)
	}
}

// TestSemanticIsAStringFieldsPattern: a field means a hostname or a cron schedule
// only when it is a plain string field whose pattern is exactly the grammar's; a
// list of strings under the same pattern, or another pattern, means nothing more.
func TestSemanticIsAStringFieldsPattern(t *testing.T) {
	for _, c := range []struct {
		field catalog.Field
		want  Semantic
	}{
		{catalog.Field{Kind: catalog.FieldString, Pattern: HostnamePattern}, SemanticHostname},
		{catalog.Field{Kind: catalog.FieldString, Pattern: CronPattern}, SemanticCron},
		{catalog.Field{Kind: catalog.FieldString, Pattern: HostnamePattern[1:]}, SemanticNone},
		{catalog.Field{Kind: catalog.FieldString}, SemanticNone},
		{catalog.Field{Kind: catalog.FieldStringList, Pattern: HostnamePattern}, SemanticNone},
		{catalog.Field{Kind: catalog.FieldStringSet, Pattern: CronPattern}, SemanticNone},
	} {
		if got := FieldSemantic(&c.field); got != c.want {
			t.Errorf("FieldSemantic(%s field, pattern %.12q…) = %q, want %q", c.field.Kind, c.field.Pattern, got, c.want)
		}
	}
}

// TestCronPatternOnlyIsAskedOnlyOfAFailedParse: the lax hook (the fault
// cron.pattern-only) is asked only when a cron field fails its parse, and lets
// it pass only when it answers true; a hostname is checked whatever it answers.
func TestCronPatternOnlyIsAskedOnlyOfAFailedParse(t *testing.T) {
	f := semanticForm()
	for _, c := range []struct {
		name   string
		spec   map[string]any
		answer *bool // nil: no hook
		asked  int
		refuse string // the refused pointer, "" for none
	}{
		{"valid cron, hook", map[string]any{"cron": "*/5 * * * *"}, new(true), 0, ""},
		{"bad cron, no hook", map[string]any{"cron": "0 24 * * *"}, nil, 0, "/cron"},
		{"bad cron, hook says no", map[string]any{"cron": "0 24 * * *"}, new(false), 1, "/cron"},
		{"bad cron, hook says yes", map[string]any{"cron": "0 24 * * *"}, new(true), 1, ""},
		{"bad hostname, hook says yes", map[string]any{"hostname": "bücher.example"}, new(true), 0, "/hostname"},
	} {
		asked := 0
		var hook func() bool
		if c.answer != nil {
			hook = func() bool { asked++; return *c.answer }
		}
		_, r := CheckSemanticFieldsLax(f, c.spec, hook)
		got := ""
		if r != nil {
			got = r.Pointer
		}
		if got != c.refuse || asked != c.asked {
			t.Errorf("%s: refused at %q, hook asked %d times; want %q, %d", c.name, got, asked, c.refuse, c.asked)
		}
	}
}

// TestParsedCronMatchesPattern: whatever the parser accepts the schema pattern accepts
// too (the parser only narrows), over a generated corpus of field shapes.
func TestParsedCronMatchesPattern(t *testing.T) {
	re := regexp.MustCompile(CronPattern)
	atoms := []string{"*", "*/5", "0", "59", "1-5", "1-5/2", "05", "7", "24", "5-1", "*/0", "1,2", "L", ""}
	n := 0
	for _, a := range atoms {
		for _, b := range atoms {
			for _, c := range []string{"*", "31", "1-31/30"} {
				expr := a + " " + b + " " + c + " * *"
				if _, err := cron.Parse(expr); err == nil {
					n++
					if !re.MatchString(expr) {
						t.Errorf("parser accepts %q, which the pattern refuses", expr)
					}
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("corpus accepted nothing")
	}
}

// TestCatalogSemanticFields: each catalog has exactly one cron field and one hostname
// field, recognized by pattern alone.
func TestCatalogSemanticFields(t *testing.T) {
	check := func(t *testing.T, c *catalog.Catalog) {
		found := map[Semantic][]string{}
		for _, f := range c.Forms() {
			for i := range f.Fields {
				if s := FieldSemantic(&f.Fields[i]); s != SemanticNone {
					found[s] = append(found[s], f.Ref.Kind+"@"+f.Ref.DefinitionVersion+f.Fields[i].Pointer)
				}
			}
		}
		if len(found[SemanticCron]) != 1 || len(found[SemanticHostname]) != 1 {
			t.Fatalf("semantic fields = %v, want one cron and one hostname field", found)
		}
		t.Logf("semantic fields: %v", found)
	}
	for _, lane := range wire.Lanes() {
		t.Run("embedded "+lane.Name, func(t *testing.T) {
			c, err := catalog.EmbeddedLane(lane)
			if err != nil {
				t.Fatal(err)
			}
			check(t, c)
		})
		t.Run("reference "+lane.Name, func(t *testing.T) {
			c, err := catalog.Load(os.DirFS(reftest.Lane(t, lane)))
			if err != nil {
				t.Fatal(err)
			}
			check(t, c)
		})
	}
}
