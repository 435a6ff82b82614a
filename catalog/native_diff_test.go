package catalog

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"

	"github.com/takokit/takokit/catalog/model"
	"github.com/takokit/takokit/catalog/reftest"
	"github.com/takokit/takokit/catalog/wire"
)

// The provider binary validates desired specs with the model's own checks
// (model.Schema) instead of a JSON Schema engine, so that it links none. These tests
// hold the two to the same verdicts over every desiredSchema and outputSchema of the
// embedded catalog, the test catalog and (when present) the published reference
// family: each Form's fixtures, its negative fixtures, and mutations of them.

// diffCatalogs are the catalogs whose schemas the model's checks must agree on.
func diffCatalogs(t *testing.T) map[string]*Catalog {
	t.Helper()
	out := map[string]*Catalog{}
	for _, lane := range wire.Lanes() {
		emb, err := EmbeddedLane(lane)
		if err != nil {
			t.Fatal(err)
		}
		out["embedded "+lane.Name] = emb
	}
	good, err := Load(os.DirFS(goodDir))
	if err != nil {
		t.Fatal(err)
	}
	out["test catalog"] = good
	for _, lane := range wire.Lanes() {
		t.Run("load the published reference family of "+lane.Name, func(t *testing.T) {
			ref, err := Load(os.DirFS(reftest.Lane(t, lane)))
			if err != nil {
				t.Fatal(err)
			}
			out["reference "+lane.Name] = ref
		})
	}
	return out
}

// engineVerdict validates inst with the JSON Schema engine: whether it passes, the
// instance pointers of its leaf failures, and whether a leaf came from propertyNames
// (the engine reports those at the pointer of the name's own instance, "", wherever
// the object is; the model's checks name the object instead).
func engineVerdict(t *testing.T, s *jsonschema.Schema, inst any) (ok bool, ptrs []string, propNames bool) {
	t.Helper()
	v, err := toSchemaValue(inst)
	if err != nil {
		t.Fatal(err)
	}
	err = s.Validate(v)
	if err == nil {
		return true, nil, false
	}
	var verr *jsonschema.ValidationError
	if !errors.As(err, &verr) {
		t.Fatalf("engine: %v", err)
	}
	// the leaves of the failure tree are the failures; the nodes above them only
	// gather (a group, a $ref, the schema, a propertyNames wrapper)
	var walk func(e *jsonschema.ValidationError, underNames bool)
	walk = func(e *jsonschema.ValidationError, underNames bool) {
		if _, ok := e.ErrorKind.(*kind.PropertyNames); ok {
			underNames, propNames = true, true
		}
		if len(e.Causes) > 0 {
			for _, c := range e.Causes {
				walk(c, underNames)
			}
			return
		}
		at := ""
		for _, tok := range e.InstanceLocation {
			at += "/" + wire.EscapePointerToken(tok)
		}
		switch k := e.ErrorKind.(type) {
		case *kind.AdditionalProperties:
			for _, name := range k.Properties {
				ptrs = append(ptrs, at+"/"+wire.EscapePointerToken(name))
			}
		case *kind.Required:
			for _, name := range k.Missing {
				ptrs = append(ptrs, at+"/"+wire.EscapePointerToken(name))
			}
		default:
			ptrs = append(ptrs, at)
		}
	}
	walk(verr, false)
	return false, uniqSorted(ptrs), propNames
}

func nativeVerdict(t *testing.T, s *model.Schema, inst any) (ok bool, ptrs []string) {
	t.Helper()
	ps, err := s.Validate(inst)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		ptrs = append(ptrs, p.Pointer)
	}
	return len(ps) == 0, uniqSorted(ptrs)
}

func uniqSorted(s []string) []string {
	sort.Strings(s)
	return slices.Compact(s)
}

// agree fails unless both validators give inst the same verdict and, where the engine
// names its failures by their own pointers, the same pointers.
func agree(t *testing.T, what string, eng *jsonschema.Schema, nat *model.Schema, inst any) (valid bool) {
	t.Helper()
	eok, eptrs, propNames := engineVerdict(t, eng, inst)
	nok, nptrs := nativeVerdict(t, nat, inst)
	raw, _ := json.Marshal(inst)
	if eok != nok {
		t.Errorf("%s: the engine says valid=%v %v, the model's checks valid=%v %v for\n%s", what, eok, eptrs, nok, nptrs, raw)
	} else if !propNames && !slices.Equal(eptrs, nptrs) {
		t.Errorf("%s: the engine fails %v, the model's checks %v for\n%s", what, eptrs, nptrs, raw)
	}
	return eok
}

func TestNativeChecksMatchTheEngine(t *testing.T) {
	for name, cat := range diffCatalogs(t) {
		t.Run(name, func(t *testing.T) {
			rng := rand.New(rand.NewSource(12))
			for _, f := range cat.Forms() {
				nat, err := f.DesiredChecks()
				if err != nil {
					t.Fatalf("%s: the model cannot compile its desiredSchema: %v", f.Ref, err)
				}
				eng, _, _ := engineOf(f).desired.compile()
				what := f.Ref.Kind + "@" + f.Ref.DefinitionVersion + " desired"
				var seeds []any
				for _, fx := range f.Fixtures {
					if !agree(t, what+" fixture "+fx.Name, eng, nat, decode(t, fx.Desired)) {
						t.Errorf("%s: fixture %s is invalid", what, fx.Name)
					}
					seeds = append(seeds, decode(t, fx.Desired))
				}
				for _, nf := range f.NegativeFixtures {
					if nf.Stage != "desired" {
						continue
					}
					if agree(t, what+" negative fixture "+nf.Name, eng, nat, decode(t, nf.Input)) {
						t.Errorf("%s: negative fixture %s passes", what, nf.Name)
					}
					seeds = append(seeds, decode(t, nf.Input))
				}
				seeds = append(seeds, map[string]any{}, f.Materialize(nil))
				valid, invalid := fuzzAgree(t, what, eng, nat, f.DesiredJSON, seeds, rng, 800)
				if len(f.Fixtures) > 0 && (valid == 0 || invalid == 0) {
					t.Errorf("%s: the mutations made %d valid and %d invalid specs; both must occur", what, valid, invalid)
				}
				if f.OutputJSON == nil {
					continue
				}
				onat, err := f.OutputChecks()
				if err != nil {
					t.Fatalf("%s: the model cannot compile its outputSchema: %v", f.Ref, err)
				}
				oeng, _, _ := engineOf(f).output.compile()
				what = f.Ref.Kind + "@" + f.Ref.DefinitionVersion + " outputs"
				var oseeds []any
				for _, fx := range f.Fixtures {
					if fx.Output != nil {
						agree(t, what+" fixture "+fx.Name, oeng, onat, decode(t, fx.Output))
						oseeds = append(oseeds, decode(t, fx.Output))
					}
				}
				for _, nf := range f.NegativeFixtures {
					if nf.Stage == "output" {
						agree(t, what+" negative fixture "+nf.Name, oeng, onat, decode(t, nf.Input))
						oseeds = append(oseeds, decode(t, nf.Input))
					}
				}
				fuzzAgree(t, what, oeng, onat, f.OutputJSON, append(oseeds, map[string]any{}), rng, 150)
			}
		})
	}
}

// TestNativeFieldChecksMatchTheEngine: ValidateField of a Form without an engine (as in
// a generated model) gives each top-level property's values the engine's verdict.
func TestNativeFieldChecksMatchTheEngine(t *testing.T) {
	cat, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewSource(7))
	for _, f := range cat.Forms() {
		bare := *f
		bare.SetSchemas(nil)
		for _, fx := range f.Fixtures {
			spec, _ := decode(t, fx.Desired).(map[string]any)
			for name, v := range spec {
				for i := 0; i < 20; i++ {
					m := v
					if i > 0 {
						m = mutate(rng, v, schemaValues(f.DesiredJSON))
					}
					if e, n := f.ValidateField(name, m), bare.ValidateField(name, m); (e == nil) != (n == nil) {
						t.Errorf("%s %s: engine %v, model %v for %v", f.Ref.Kind, name, e, n, m)
					}
				}
			}
		}
	}
}

// fuzzAgree mutates the seeds n times and compares the verdicts on each mutant.
func fuzzAgree(t *testing.T, what string, eng *jsonschema.Schema, nat *model.Schema, schema []byte, seeds []any, rng *rand.Rand, n int) (valid, invalid int) {
	t.Helper()
	pool := schemaValues(schema)
	for i := 0; i < n; i++ {
		inst := seeds[rng.Intn(len(seeds))]
		for k := []int{1, 1, 1, 2, 3}[rng.Intn(5)]; k > 0; k-- {
			inst = mutate(rng, inst, pool)
		}
		if agree(t, fmt.Sprintf("%s mutant %d", what, i), eng, nat, inst) {
			valid++
		} else {
			invalid++
		}
	}
	return valid, invalid
}

func decode(t *testing.T, raw []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

// schemaValues collects values a schema makes interesting: its consts and enum members,
// every property name, strings at and past its length bounds, numbers at and past its
// numeric bounds, and a few of every JSON type.
func schemaValues(schema []byte) []any {
	pool := []any{nil, true, false, "", "x", "A", "a-b", "ünï", "9", json.Number("0"), json.Number("-1"),
		json.Number("1.5"), json.Number("2.0"), json.Number("1e3"), json.Number("9007199254740993"),
		[]any{}, []any{"a"}, map[string]any{}, map[string]any{"k": "v"}, map[string]any{"bad key!": 1}}
	var doc any
	if json.Unmarshal(schema, &doc) != nil {
		return pool
	}
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, sub := range x {
				switch k {
				case "const":
					pool = append(pool, toNumbers(sub))
				case "enum":
					if arr, ok := sub.([]any); ok {
						for _, e := range arr {
							pool = append(pool, toNumbers(e))
						}
					}
				case "minLength", "maxLength":
					if n, ok := sub.(float64); ok && n < 10000 {
						pool = append(pool, strings.Repeat("a", int(n)), strings.Repeat("b", int(n)+1))
						if n > 0 {
							pool = append(pool, strings.Repeat("c", int(n)-1))
						}
					}
				case "minimum", "maximum", "minItems", "maxItems", "minProperties", "maxProperties":
					if n, ok := sub.(float64); ok {
						pool = append(pool, json.Number(fmt.Sprint(n)), json.Number(fmt.Sprint(n+1)), json.Number(fmt.Sprint(n-1)))
					}
				case "properties":
					if m, ok := sub.(map[string]any); ok {
						for name := range m {
							pool = append(pool, name)
						}
					}
				}
				walk(sub)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(doc)
	return pool
}

func toNumbers(v any) any {
	b, _ := json.Marshal(v)
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var out any
	_ = dec.Decode(&out)
	return out
}

// mutate returns a copy of v with one random change somewhere inside it.
func mutate(rng *rand.Rand, v any, pool []any) any {
	pick := func() any { return deepCopy(pool[rng.Intn(len(pool))]) }
	if rng.Intn(3) == 0 { // a value of the same JSON type: often still valid
		for i := 0; i < 20; i++ {
			if c := pick(); fmt.Sprintf("%T", c) == fmt.Sprintf("%T", v) {
				return c
			}
		}
	}
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x)+1)
		keys := make([]string, 0, len(x))
		for k, e := range x {
			out[k] = deepCopy(e)
			keys = append(keys, k)
		}
		sort.Strings(keys)
		switch r := rng.Intn(10); {
		case r == 0 || len(keys) == 0:
			if name, ok := pick().(string); ok {
				out[name] = pick()
			} else {
				out["extra"] = pick()
			}
		case r == 1:
			delete(out, keys[rng.Intn(len(keys))])
		case r == 2:
			out[keys[rng.Intn(len(keys))]] = pick()
		default:
			k := keys[rng.Intn(len(keys))]
			out[k] = mutate(rng, out[k], pool)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = deepCopy(e)
		}
		switch r := rng.Intn(8); {
		case r == 0 || len(out) == 0:
			return append(out, pick())
		case r == 1:
			return append(out, deepCopy(out[rng.Intn(len(out))])) // a duplicate
		case r == 2:
			i := rng.Intn(len(out))
			return append(out[:i], out[i+1:]...)
		default:
			i := rng.Intn(len(out))
			out[i] = mutate(rng, out[i], pool)
			return out
		}
	case string:
		switch rng.Intn(5) {
		case 3, 4: // one character for another of its class: keeps most grammars
			if len(x) > 0 {
				b := []byte(x)
				i := rng.Intn(len(b))
				switch c := b[i]; {
				case c >= '0' && c <= '9':
					b[i] = byte('0' + rng.Intn(10))
				case c >= 'a' && c <= 'f':
					b[i] = byte('a' + rng.Intn(6))
				case c >= 'a' && c <= 'z':
					b[i] = byte('a' + rng.Intn(26))
				case c >= 'A' && c <= 'Z':
					b[i] = byte('A' + rng.Intn(26))
				}
				return string(b)
			}
		case 0:
			return x + string(rune('A'+rng.Intn(60)))
		case 1:
			if len(x) > 0 {
				return x[:len(x)-1]
			}
		}
	}
	return pick()
}

func deepCopy(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = deepCopy(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = deepCopy(e)
		}
		return out
	}
	return v
}
