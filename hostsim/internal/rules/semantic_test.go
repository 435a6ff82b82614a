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
	spec := map[string]any{"cron": "0,30 8-18 * * 1-5", "hostname": "API.Example.com.", "other": "0 24 * * *"}
	CanonicalizeSpec(f, spec)
	if spec["hostname"] != "api.example.com" || spec["cron"] != "0,30 8-18 * * 1-5" || spec["other"] != "0 24 * * *" {
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
