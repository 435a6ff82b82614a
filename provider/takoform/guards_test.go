package takoform

import (
	"os"
	"slices"
	"sort"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource/schema"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/reftest"
	"github.com/takokit/takokit/catalog/wire"
)

// derivedNames is the set of attribute names a type derives from desired fields and outputs.
func derivedNames(kt *kindType) map[string]bool {
	out := map[string]bool{}
	for _, f := range kt.model.fields {
		out[f.Attr] = true
	}
	for _, o := range kt.model.outputs {
		out[o.Attr] = true
	}
	return out
}

func TestReservedListEqualsEnvelope(t *testing.T) {
	t.Parallel()
	p := testProvider(t)
	reserved := catalog.ReservedAttributes()
	built := map[string]bool{}
	variants := map[string]bool{}
	for _, kt := range p.kinds {
		derived := derivedNames(kt)
		for name := range kt.schema.Attributes {
			if derived[name] {
				if _, bad := reserved[name]; bad {
					t.Errorf("%s: derived attribute %s is on the reserved list", kt.model.typeName, name)
				}
				continue
			}
			if _, ok := reserved[name]; !ok {
				t.Errorf("%s: envelope attribute %s is not on the catalog's reserved list", kt.model.typeName, name)
			}
			built[name] = true
		}
		variants["identity"] = variants["identity"] || kt.model.newest.Role == "identity"
		variants["revision"] = variants["revision"] || kt.model.revision
		variants["update"] = variants["update"] || kt.model.anyUpdate
		variants["bundle"] = variants["bundle"] || kt.model.bundle != nil
		variants["outputs"] = variants["outputs"] || len(kt.model.outputs) > 0
	}
	for _, v := range []string{"identity", "revision", "update", "bundle", "outputs"} {
		if !variants[v] {
			t.Errorf("the probe catalog lacks a %s Form; the guard cannot see its envelope", v)
		}
	}
	for name, group := range reserved {
		if group == catalog.ReservedProvider || group == catalog.ReservedMetaArgument {
			if built[name] {
				t.Errorf("held name %s is built as an attribute", name)
			}
			continue
		}
		if !built[name] {
			t.Errorf("reserved name %s (%s) is built for no resource type", name, group)
		}
	}
}

func TestOnlyTokenIsSensitive(t *testing.T) {
	t.Parallel()
	resp := schemaResp(t)
	for _, a := range resp.Provider.Block.Attributes {
		if a.Sensitive != (a.Name == "token") {
			t.Errorf("provider attribute %s sensitive=%v", a.Name, a.Sensitive)
		}
	}
	for typ, s := range resp.ResourceSchemas {
		for _, a := range s.Block.Attributes {
			if a.Sensitive {
				t.Errorf("%s.%s is Sensitive; no resource attribute may be", typ, a.Name)
			}
		}
	}
}

func TestOutputAttributesArePlainComputed(t *testing.T) {
	t.Parallel()
	p := testProvider(t)
	for _, kt := range p.kinds {
		for _, o := range kt.model.outputs {
			a := kt.schema.Attributes[o.Attr]
			if !a.IsComputed() || a.IsOptional() || a.IsRequired() {
				t.Errorf("%s.%s: want Computed only", kt.model.typeName, o.Attr)
			}
			switch x := a.(type) {
			case schema.StringAttribute:
				if x.Default != nil || len(x.Validators) > 0 || len(x.PlanModifiers) > 0 {
					t.Errorf("%s.%s carries a default, validator or plan modifier", kt.model.typeName, o.Attr)
				}
			case schema.Int64Attribute:
				if x.Default != nil || len(x.Validators) > 0 || len(x.PlanModifiers) > 0 {
					t.Errorf("%s.%s carries a default, validator or plan modifier", kt.model.typeName, o.Attr)
				}
			case schema.BoolAttribute:
				if x.Default != nil || len(x.Validators) > 0 || len(x.PlanModifiers) > 0 {
					t.Errorf("%s.%s carries a default, validator or plan modifier", kt.model.typeName, o.Attr)
				}
			default:
				t.Errorf("%s.%s has shape %T", kt.model.typeName, o.Attr, a)
			}
		}
	}
}

// TestAttributeCountsAreExact: 18 envelope attributes for every type, plus
// update_timeout, revision_owner, main_module+modules by variant, plus one per
// field and output of the union.
func TestAttributeCountsAreExact(t *testing.T) {
	t.Parallel()
	p := testProvider(t)
	for _, kt := range p.kinds {
		want := 18 + len(kt.model.fields) + len(kt.model.outputs)
		if kt.model.anyUpdate {
			want++
		}
		if kt.model.revision {
			want++
		}
		if b := kt.model.bundle; b != nil {
			want += len(b.attrs())
		}
		if got := len(kt.schema.Attributes); got != want {
			t.Errorf("%s: %d attributes, want %d", kt.model.typeName, got, want)
		}
		if len(kt.model.outputs) == 0 {
			for name := range kt.schema.Attributes {
				if _, isOut := kt.model.newest.Output(name); isOut {
					t.Errorf("%s has output attribute %s without declared outputs", kt.model.typeName, name)
				}
			}
		}
	}
	ep := kindByType(t, p, endpointType)
	if len(ep.model.outputs) != 3 {
		t.Errorf("worker endpoint outputs = %d, want hostname, url, port", len(ep.model.outputs))
	}
}

func TestFormsWithoutUpdateReplaceOnEveryField(t *testing.T) {
	t.Parallel()
	p := testProvider(t)
	for _, kt := range p.kinds {
		if kt.model.anyUpdate {
			continue
		}
		if _, ok := kt.schema.Attributes[aUpdateTimeout]; ok {
			t.Errorf("%s has update_timeout but no version declares update", kt.model.typeName)
		}
		for _, f := range kt.model.fields {
			if !slices.ContainsFunc(kt.rules.replace, func(r replaceRule) bool { return r.attr == f.Attr }) {
				t.Errorf("%s.%s lacks the replace rule", kt.model.typeName, f.Attr)
			}
		}
	}
}

func TestRepairTableCoversExactlyTheCodes(t *testing.T) {
	t.Parallel()
	codes := wire.Codes()
	if len(codes) != 26 {
		t.Fatalf("wire has %d codes, want 26", len(codes))
	}
	for _, c := range codes {
		if repairs[c] == "" {
			t.Errorf("no repair for %s", c)
		}
	}
	if len(repairs) != len(codes) {
		t.Errorf("repair table has %d entries for %d codes", len(repairs), len(codes))
	}
	for _, lane := range wire.Lanes() {
		file := reftest.File(t, lane, "operations-"+lane.Name+".json")
		raw, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		v, err := decodeJSON(raw)
		if err != nil {
			t.Fatal(err)
		}
		published := findCodes(v)
		if len(published) == 0 {
			t.Fatalf("no errorEnvelope.codes found in %s", file)
		}
		var ours []string
		for _, c := range codes {
			ours = append(ours, string(c))
		}
		sort.Strings(ours)
		sort.Strings(published)
		if !slices.Equal(ours, published) {
			t.Errorf("the codes published for %s %v differ from the wire table %v", lane.Name, published, ours)
		}
	}
}

// findCodes looks for errorEnvelope.codes anywhere in the document.
func findCodes(v any) []string {
	switch x := v.(type) {
	case map[string]any:
		if env, ok := x["errorEnvelope"].(map[string]any); ok {
			if list, ok := env["codes"].([]any); ok {
				var out []string
				for _, c := range list {
					switch cc := c.(type) {
					case string:
						out = append(out, cc)
					case map[string]any:
						if s, ok := cc["code"].(string); ok {
							out = append(out, s)
						}
					}
				}
				return out
			}
		}
		for _, e := range x {
			if r := findCodes(e); r != nil {
				return r
			}
		}
	case []any:
		for _, e := range x {
			if r := findCodes(e); r != nil {
				return r
			}
		}
	}
	return nil
}

func TestProviderCodeListIsClosed(t *testing.T) {
	t.Parallel()
	want := []string{"not-configured", "discovery-failed", "lane-mismatch", "host-unreachable", "space-missing", "state-form-ref-missing",
		"state-form-ref-unsupported", "definition-version-change-needs-transition", "field-not-in-recorded-definition",
		"desired-invalid", "environment-name-duplicate", "weight-sum-invalid", "revision-owner-missing",
		"revision-owner-conflict", "revision-name-unresolved", "immutable-revision-same-name", "bundle-conflict",
		"bundle-upload-failed", "import-id-invalid", "uid-mismatch", "form-moved-outside-configuration", "relation-target-changed",
		"host-response-invalid", "output-contract-violated", "operation-resume-failed", "host-support-unreadable",
		"host-does-not-support-form", "host-does-not-support-operation", "host-does-not-support-interface",
		"host-does-not-support-binding", "host-does-not-support-value", "host-limit-exceeded",
		"host-does-not-support-transition", "form-transition-invalid", "form-transition-not-applicable",
		"form-transition-with-changes", "form-transition-indeterminate", "form-transition-rejected", "internal"}
	if len(ProviderCodes) != len(want) {
		t.Fatalf("provider codes = %d, want %d", len(ProviderCodes), len(want))
	}
	for i, w := range want {
		if ProviderCodes[i] != codePrefix+w {
			t.Errorf("code %d = %s, want %s", i, ProviderCodes[i], codePrefix+w)
		}
	}
}

func TestConstructorRefusesNilCatalog(t *testing.T) {
	t.Parallel()
	if _, err := New("test", nil); err == nil {
		t.Error("a nil catalog must be refused")
	}
}
