package wire

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net"
	"reflect"
	"strings"
	"testing"
	"time"
)

// fillDoc is fillPlain with shapes the fill leaves to json.
type fillDoc struct {
	fillPlain
	U      uint        `json:"u"`
	F      float64     `json:"f"`
	Quoted int         `json:"quoted,string"` // sends the whole struct to json
	Num    json.Number `json:"num"`
	Any    any         `json:"any"`
	skip   string
}

type fillBase struct {
	Base string `json:"base"`
}

type fillInner struct {
	Own  string          `json:"own,required"`
	List [][]int         `json:"list"`
	Ptr  *string         `json:"ptr"`
	Raw  json.RawMessage `json:"raw"`
}

// fillPlain has every shape the fill takes on: embedded, nested, behind pointers, in
// slices and maps.
type fillPlain struct {
	fillBase
	Name   string                `json:"name,required"`
	On     bool                  `json:"on"`
	I8     int8                  `json:"i8"`
	I64    int64                 `json:"i64"`
	N      int                   `json:"n"`
	Tags   []string              `json:"tags"`
	Labels map[string]string     `json:"labels"`
	Inner  *fillInner            `json:"inner"`
	Many   []fillInner           `json:"many"`
	ByName map[string]*fillInner `json:"byName"`
	Raw    json.RawMessage       `json:"raw"`
}

// genValue writes a random JSON value for t: mostly of t's shape, one value in chaos a
// null, a float, an escape, an out-of-range integer or a value of another type.
func genValue(r *rand.Rand, t reflect.Type, depth, chaos int) string {
	if r.IntN(chaos) == 0 || depth > 4 {
		return []string{`null`, `1.5`, `-7`, `"s"`, `true`, `{}`, `[]`, `1e3`}[r.IntN(8)]
	}
	switch {
	case t == rawMessageType:
		return genValue(r, reflect.TypeFor[map[string][]int](), depth+1, chaos)
	case t.Kind() == reflect.Pointer:
		return genValue(r, t.Elem(), depth, chaos)
	case t.Kind() == reflect.String:
		return genString(r)
	case t.Kind() == reflect.Bool:
		return []string{"true", "false"}[r.IntN(2)]
	case t.Kind() >= reflect.Int && t.Kind() <= reflect.Int64:
		if r.IntN(chaos) == 0 { // out of range for some
			return []string{"128", "-129", "9223372036854775807", "9223372036854775808", "-9223372036854775808"}[r.IntN(5)]
		}
		return []string{"0", "-0", "1", "-128", "127", "42"}[r.IntN(6)]
	case t.Kind() >= reflect.Uint && t.Kind() <= reflect.Float64:
		return []string{"0", "3", "2.25", "-1", "1e2"}[r.IntN(5)]
	case t.Kind() == reflect.Slice:
		n := r.IntN(4)
		parts := make([]string, n)
		for i := range parts {
			parts[i] = genValue(r, t.Elem(), depth+1, chaos)
		}
		return "[" + strings.Join(parts, ws(r)+","+ws(r)) + "]"
	case t.Kind() == reflect.Map:
		n := r.IntN(4)
		var parts []string
		for i := range n {
			parts = append(parts, fmt.Sprintf(`"k%d"%s:%s%s`, i, ws(r), ws(r), genValue(r, t.Elem(), depth+1, chaos)))
		}
		if r.IntN(chaos) == 0 {
			parts = append(parts, `"k\u0041":1`)
		}
		return "{" + strings.Join(parts, ",") + "}"
	case t.Kind() == reflect.Struct:
		var parts []string
		for _, f := range structFields(t) {
			if r.IntN(4) == 0 && !f.required {
				continue
			}
			name := `"` + f.name + `"`
			if r.IntN(chaos) == 0 && len(f.name) > 1 {
				name = `"` + f.name[:1] + `\u` + fmt.Sprintf("%04x", f.name[1]) + f.name[2:] + `"`
			}
			parts = append(parts, name+ws(r)+":"+ws(r)+genValue(r, f.typ, depth+1, chaos))
		}
		r.Shuffle(len(parts), func(i, j int) { parts[i], parts[j] = parts[j], parts[i] })
		return "{" + ws(r) + strings.Join(parts, ","+ws(r)) + ws(r) + "}"
	}
	return `"?"`
}

func genString(r *rand.Rand) string {
	return []string{`""`, `"plain"`, `"é ü"`, `"a \"quoted\" b"`, `"tab\tnl\n"`, `"\u00e9\/x"`, `"\ud83d\ude00"`, `"sp ace"`}[r.IntN(8)]
}

func ws(r *rand.Rand) string {
	return []string{"", "", "", " ", "\n\t"}[r.IntN(5)]
}

// seeded is a value of t's pointer already holding data, so that a decode merges into
// it as json merges: slices with spare capacity, a map with a key, a pointer set.
func seeded(t reflect.Type) any {
	v := reflect.New(t)
	_ = json.Unmarshal([]byte(`{"name":"old","base":"b0","tags":["t0","t1","t2"],"labels":{"keep":"me"},`+
		`"inner":{"own":"o0","list":[[1,2],[3]],"ptr":"p0"},"many":[{"own":"m0","list":[[9]]},{"own":"m1"}],"byName":{"x":{"own":"x0"}},"raw":[1]}`), v.Interface())
	return v.Interface()
}

// The fill stores exactly what json.Unmarshal stores, from a zero value and from one
// that already holds data, on documents of random shape: where it declines, what it
// stored until then is overwritten by json's decode alone.
func TestFillStoresWhatJSONStores(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 5))
	filled := map[string]int{}
	for _, typ := range []reflect.Type{reflect.TypeFor[fillPlain](), reflect.TypeFor[fillDoc](), reflect.TypeFor[benchDoc](), reflect.TypeFor[walkDeep]()} {
		for i := range 3000 {
			doc := []byte(genValue(r, typ, 0, []int{14, 400}[i%2])) // every other one mostly of its shape
			if CheckIJSON(doc) != nil {
				continue
			}
			filled[typ.Name()] += sameDecode(t, typ, doc, fmt.Sprintf("#%d", i))
		}
	}
	// the fill must take the common case, or this test compares json with itself
	if filled["fillPlain"] < 500 || filled["benchDoc"] < 500 {
		t.Errorf("the fill took too few documents to prove anything: %v", filled)
	}
	if filled["fillDoc"] != 0 {
		t.Errorf("the fill took %d fillDoc documents; a ,string field must send them all to json", filled["fillDoc"])
	}
}

// sameDecode holds the fill (then json where it declines) to json alone on doc,
// from a zero value and from a seeded one, and says how many of the two the
// fill took.
func sameDecode(t *testing.T, typ reflect.Type, doc []byte, what string) (filled int) {
	t.Helper()
	for _, start := range []func() any{func() any { return reflect.New(typ).Interface() }, func() any { return seeded(typ) }} {
		viaFill, viaJSON := start(), start()
		ok := fillRaw(doc, viaFill)
		var fillErr error
		if !ok {
			fillErr = json.Unmarshal(doc, viaFill)
		} else {
			filled++
		}
		jsonErr := json.Unmarshal(doc, viaJSON)
		if fmt.Sprint(fillErr) != fmt.Sprint(jsonErr) || !reflect.DeepEqual(viaFill, viaJSON) {
			t.Fatalf("%s %s (filled %v):\n%s\nfill then json: %+v (%v)\njson alone:     %+v (%v)", typ, what, ok, doc, viaFill, fillErr, viaJSON, jsonErr)
		}
	}
	return filled
}

// fillOdd has the field shapes json treats its own way: an embedded struct with a
// member name, a field json skips, an unexported one, an untagged one, a map
// keyed by integers, types that decode themselves (as text and as JSON).
type fillOdd struct {
	fillBase `json:"nested"`
	Skip     string `json:"-"`
	hidden   string
	Plain    string
	Ints     map[int]string `json:"ints"`
	IP       net.IP         `json:"ip"`
	When     time.Time      `json:"when"`
	N        int            `json:"n"`
}

// fillShadowed names base twice, the outer field first: json stores the outer one.
type fillShadowed struct {
	Base string `json:"base"`
	fillBase
}

// fillEmbeddedPointer embeds a pointer, whose rules the fill leaves to json.
type fillEmbeddedPointer struct {
	*fillBase
	Name string `json:"name"`
}

// Documents that meet each of those shapes where the fill must decline or store
// what json stores: random documents never name a member "-", "" or an
// unexported field alone (any other unknown member makes the fill decline
// first), write an integer with a capital exponent, or escape a map key whose
// value the fill would store.
func TestFillDeclinesWhatJSONTreatsItsOwnWay(t *testing.T) {
	for _, tc := range []struct {
		typ reflect.Type
		doc string
	}{
		{reflect.TypeFor[fillOdd](), `{"nested":{"base":"n"},"Plain":"p","plain":"q","n":7}`},
		{reflect.TypeFor[fillOdd](), `{"base":"flat"}`},
		{reflect.TypeFor[fillOdd](), `{"-":"x"}`},
		{reflect.TypeFor[fillOdd](), `{"hidden":"h"}`},
		{reflect.TypeFor[fillOdd](), `{"":"e"}`},
		{reflect.TypeFor[fillPlain](), `{"name":"n","labels":{"k\u0041":"v"}}`},
		{reflect.TypeFor[fillOdd](), `{"ints":{"1":"a"}}`},
		{reflect.TypeFor[fillOdd](), `{"ip":"10.0.0.1"}`},
		{reflect.TypeFor[fillOdd](), `{"ip":[10,0,0,1]}`},
		{reflect.TypeFor[fillOdd](), `{"when":"2026-12-05T00:00:00Z"}`},
		{reflect.TypeFor[fillOdd](), `{"when":{}}`},
		{reflect.TypeFor[fillOdd](), `{"n":1E2}`},
		{reflect.TypeFor[fillShadowed](), `{"base":"outer"}`},
		{reflect.TypeFor[fillEmbeddedPointer](), `{"base":"b","name":"n"}`},
	} {
		sameDecode(t, tc.typ, []byte(tc.doc), "")
	}
}

// The request hostsim decodes most goes through the fill.
func TestFillTakesAnApplyRequest(t *testing.T) {
	var d benchDoc
	buf := append([]byte(nil), benchApply...)
	if !fillRaw(buf, &d) {
		t.Fatal("the fill declined the apply request of the benchmark: DecodeStrict would fall back to json")
	}
	var want benchDoc
	if err := json.Unmarshal(benchApply, &want); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(d, want) {
		t.Fatalf("fill %+v\njson %+v", d, want)
	}
	clear(buf) // the request body's buffer is reused: what was decoded owns its bytes
	if d.Form.FormRef == nil || d.Form.FormRef.Kind != "EdgeKVNamespace" || string(d.Spec) != `{"title":"a \"quoted\" title","ttl":300,"tags":["a","b"]}` {
		t.Fatalf("fill stored %+v", d)
	}
}

// Any document, of any shape: the fill and json agree (go test -fuzz FuzzFillAgreesWithJSON).
func FuzzFillAgreesWithJSON(f *testing.F) {
	seedCorpus(f)
	f.Add(benchApply)
	f.Fuzz(func(t *testing.T, data []byte) {
		if CheckIJSON(data) != nil {
			return
		}
		for _, typ := range []reflect.Type{reflect.TypeFor[fillPlain](), reflect.TypeFor[benchDoc](), reflect.TypeFor[walkDeep]()} {
			viaFill, viaJSON := seeded(typ), seeded(typ)
			var fillErr error
			if !fillRaw(data, viaFill) {
				fillErr = json.Unmarshal(data, viaFill)
			}
			jsonErr := json.Unmarshal(data, viaJSON)
			if fmt.Sprint(fillErr) != fmt.Sprint(jsonErr) || !reflect.DeepEqual(viaFill, viaJSON) {
				t.Fatalf("%s: %q\nfill then json: %+v (%v)\njson alone:     %+v (%v)", typ, data, viaFill, fillErr, viaJSON, jsonErr)
			}
		}
	})
}
