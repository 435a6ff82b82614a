package catalog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog/reftest"
	"github.com/takokit/takokit/catalog/wire"
)

// The project's own family of each lane states the published family's facts in the
// project's own words (docs/catalog-rules.md#family). These tests hold it to that: every
// published Form, Interface and Binding has an own document whose content, once prose
// (title, description), digests and the family group are taken out, is the published
// one; the resource type and maturity the listings give agree; the published fixtures,
// moved into the own group, pass and fail the own schemas as they do the published
// ones; and no own digest equals a published one.

// TestOwnFamilyHasThePublishedFacts compares each lane's own root with the published
// folder of that lane.
func TestOwnFamilyHasThePublishedFacts(t *testing.T) {
	for _, lane := range wire.Lanes() {
		t.Run(lane.Name, func(t *testing.T) {
			own, err := EmbeddedLane(lane)
			if err != nil {
				t.Fatal(err)
			}
			pub, err := Load(os.DirFS(reftest.Lane(t, lane)))
			if err != nil {
				t.Fatalf("the published family of %s must load: %v", lane.Name, err)
			}
			for _, d := range diffFacts(familyFacts(t, own, lane), familyFacts(t, pub, lane)) {
				t.Error(d)
			}
			checkPublishedFixtures(t, own, pub)
			published := map[string]bool{}
			for _, d := range allDigests(pub) {
				published[d] = true
			}
			for _, d := range allDigests(own) {
				if published[d] {
					t.Errorf("own digest %s equals a published one; the project's documents must be its own", d)
				}
			}
		})
	}
}

// TestFactComparisonNamesABrokenFact proves the comparison can fail: each change to
// one fact of the own family (a limit, an enum value, a required member, a relation's
// target, a resource type) is reported with the document and the pointer.
func TestFactComparisonNamesABrokenFact(t *testing.T) {
	own, err := EmbeddedLane(wire.V1beta1)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		doc, ptr string
		set      any
	}{
		{"Interface edge.kv@1.0.0", "/limits/maxKeyBytes", json.Number("512")},
		{"Form WorkerVersion@0.1.0", "/desiredSchema/properties/assets/properties/notFoundHandling/enum", []any{"none"}},
		{"Form SQLiteMigrationApplication@0.1.0", "/desiredSchema/required", []any{"database"}},
		{"Form WorkerVersion@0.1.0", "/desiredSchema/properties/assets/properties/bundle/x-takoform-target-formrefs/0/kind", "WorkerBundle"},
		{"Form ObjectBucket@0.1.0", "/(resourceType)", "takoform_object_bucket"},
		{"Binding module-worker.sqlite@1.0.0", "/allowedTargetForms/0/kind", "ObjectBucket"},
	} {
		facts := familyFacts(t, own, wire.V1beta1)
		broken := familyFacts(t, own, wire.V1beta1)
		setPointer(t, broken[c.doc], c.ptr, c.set)
		diffs := diffFacts(broken, facts)
		if len(diffs) == 0 || !strings.Contains(strings.Join(diffs, "\n"), c.doc+": "+c.ptr) {
			t.Errorf("changing %s %s gave %q; want a difference naming both", c.doc, c.ptr, diffs)
		}
	}
}

// familyFacts maps each document of c ("Form WorkerVersion@0.1.0", "Interface
// edge.sql@1.0.0", "Binding module-worker.sqlite@1.0.0") to its facts.
func familyFacts(t *testing.T, c *Catalog, lane *wire.Lane) map[string]any {
	t.Helper()
	out := map[string]any{}
	for _, k := range c.Kinds() {
		for _, f := range k.Versions {
			doc := facts(t, f.DefinitionJSON, lane).(map[string]any)
			delete(doc, "conformanceFixtures") // fixtures are compared by checkPublishedFixtures
			delete(doc, "negativeConformanceFixtures")
			doc["(resourceType)"], doc["(formMaturity)"] = k.TypeName, f.Maturity
			out[fmt.Sprintf("Form %s@%s", f.Ref.Kind, f.Ref.DefinitionVersion)] = doc
		}
	}
	for _, i := range c.Interfaces() {
		doc := facts(t, i.JSON, lane).(map[string]any)
		delete(doc, "fixtures") // behaviour examples; the project's Interfaces carry none
		out["Interface "+i.Ref.Name+"@"+i.Ref.Version] = doc
	}
	for _, b := range c.Bindings() {
		out["Binding "+b.Ref.Name+"@"+b.Ref.Version] = facts(t, b.JSON, lane)
	}
	return out
}

// nameMaps are the members whose keys are names (of properties, definitions, limits)
// rather than schema keywords: a property called "title" is a fact.
var nameMaps = map[string]bool{"properties": true, "$defs": true, "patternProperties": true, "limits": true}

// setArrays are the members whose order says nothing.
var setArrays = map[string]bool{"required": true, "enum": true, "type": true, "immutableFields": true, "lifecycleCapabilities": true, "errors": true}

// facts decodes a document and takes out what is not a fact: prose (title,
// description), digests (schemaDigest), the family group (a string naming one of the
// lane's families becomes "<family>"), and the order of set-like arrays.
func facts(t *testing.T, raw []byte, lane *wire.Lane) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	var norm func(v any, names bool) any
	norm = func(v any, names bool) any {
		switch x := v.(type) {
		case map[string]any:
			out := map[string]any{}
			for k, e := range x {
				if !names && (k == "title" || k == "description" || k == "schemaDigest") {
					continue
				}
				e = norm(e, !names && nameMaps[k])
				if arr, ok := e.([]any); ok && !names && setArrays[k] {
					sort.Slice(arr, func(i, j int) bool { return jsonText(arr[i]) < jsonText(arr[j]) })
				}
				out[k] = e
			}
			return out
		case []any:
			out := make([]any, len(x))
			for i, e := range x {
				out[i] = norm(e, false)
			}
			return out
		case string:
			if slices.Contains(lane.Families, x) {
				return "<family>"
			}
		}
		return v
	}
	return norm(v, false)
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// diffFacts lists every difference between own and published facts, document by
// document. An own definition version the published family lacks is the project's
// own extension (docs/catalog-rules.md#family) when its kind is published.
func diffFacts(own, pub map[string]any) []string {
	var out []string
	for _, id := range sortedKeys(pub) {
		o, ok := own[id]
		if !ok {
			out = append(out, id+": published, but the own family has no such document")
			continue
		}
		diffValue(id, "", o, pub[id], &out)
	}
	for _, id := range sortedKeys(own) {
		if _, ok := pub[id]; ok {
			continue
		}
		if kind, _, _ := strings.Cut(strings.TrimPrefix(id, "Form "), "@"); strings.HasPrefix(id, "Form ") && hasKind(pub, kind) {
			continue // the project's own definition version of a published kind
		}
		out = append(out, id+": the own family has it, the published family does not")
	}
	return out
}

func diffValue(id, ptr string, own, pub any, out *[]string) {
	om, ok1 := own.(map[string]any)
	pm, ok2 := pub.(map[string]any)
	if ok1 && ok2 {
		keys := sortedKeys(pm)
		for _, k := range sortedKeys(om) {
			if _, ok := pm[k]; !ok {
				keys = append(keys, k)
			}
		}
		for _, k := range keys {
			p := ptr + "/" + wire.EscapePointerToken(k)
			o, inOwn := om[k]
			p2, inPub := pm[k]
			switch {
			case !inOwn:
				*out = append(*out, fmt.Sprintf("%s: %s: published %s, missing in the own document", id, p, jsonText(p2)))
			case !inPub:
				*out = append(*out, fmt.Sprintf("%s: %s: own %s, absent from the published document", id, p, jsonText(o)))
			default:
				diffValue(id, p, o, p2, out)
			}
		}
		return
	}
	oa, ok1 := own.([]any)
	pa, ok2 := pub.([]any)
	if ok1 && ok2 && len(oa) == len(pa) {
		for i := range pa {
			diffValue(id, fmt.Sprintf("%s/%d", ptr, i), oa[i], pa[i], out)
		}
		return
	}
	if jsonText(own) != jsonText(pub) {
		*out = append(*out, fmt.Sprintf("%s: %s: own %s, published %s", id, ptr, jsonText(own), jsonText(pub)))
	}
}

func hasKind(facts map[string]any, kind string) bool {
	for id := range facts {
		if strings.HasPrefix(id, "Form "+kind+"@") {
			return true
		}
	}
	return false
}

// checkPublishedFixtures runs every published fixture of a Form, moved into the own
// family's group, through the own Form of the same kind and version: the canonical
// one passes, every negative one fails at its stage, and the own Form declares a
// negative fixture of the same name and stage.
func checkPublishedFixtures(t *testing.T, own, pub *Catalog) {
	t.Helper()
	for _, pk := range pub.Kinds() {
		for _, pf := range pk.Versions {
			ok, found := ownForm(own, pf)
			if !found {
				continue // reported by the fact comparison
			}
			regroup := func(raw []byte) []byte {
				return bytes.ReplaceAll(raw, []byte(`"`+pf.Ref.APIVersion+`"`), []byte(`"`+ok.Ref.APIVersion+`"`))
			}
			for _, fx := range pf.Fixtures {
				if err := ok.ValidateDesired(json.RawMessage(regroup(fx.Desired))); err != nil {
					t.Errorf("%s: the published fixture %s fails the own schema: %v", ok.Ref, fx.Name, err)
				}
				if fx.Output != nil {
					if err := ok.ValidateOutputs(json.RawMessage(regroup(fx.Output))); err != nil {
						t.Errorf("%s: the published fixture %s's outputs fail the own output schema: %v", ok.Ref, fx.Name, err)
					}
				}
			}
			for _, nf := range pf.NegativeFixtures {
				if !slices.ContainsFunc(ok.NegativeFixtures, func(o NegativeFixture) bool { return o.Name == nf.Name && o.Stage == nf.Stage }) {
					t.Errorf("%s: no own negative fixture %s at stage %s, which the published Form has", ok.Ref, nf.Name, nf.Stage)
				}
				in := json.RawMessage(regroup(nf.Input))
				var err error
				switch nf.Stage {
				case "desired":
					err = ok.ValidateDesired(in)
				case "output":
					err = ok.ValidateOutputs(in)
				default:
					err = ok.ValidateObserved(in)
				}
				if err == nil {
					t.Errorf("%s: the published negative fixture %s passes the own schema", ok.Ref, nf.Name)
				}
			}
		}
	}
}

func ownForm(own *Catalog, pf *Form) (*Form, bool) {
	for _, k := range own.Kinds() {
		if k.Kind == pf.Ref.Kind {
			return k.Version(pf.Ref.DefinitionVersion)
		}
	}
	return nil, false
}

// setPointer replaces the value at a JSON Pointer of a decoded document.
func setPointer(t *testing.T, doc any, ptr string, v any) {
	t.Helper()
	toks := strings.Split(ptr, "/")[1:]
	for i, tok := range toks {
		last := i == len(toks)-1
		switch x := doc.(type) {
		case map[string]any:
			if last {
				x[tok] = v
				return
			}
			doc = x[tok]
		case []any:
			var n int
			fmt.Sscan(tok, &n)
			if last {
				x[n] = v
				return
			}
			doc = x[n]
		default:
			t.Fatalf("%s: no value at %q", ptr, tok)
		}
	}
}
