package wire

import (
	"encoding/json"
	"reflect"
	"sort"
	"testing"
)

type walkDeep struct {
	A    *strictOuter           `json:"a"`
	List [][]strictInner        `json:"list,required"`
	Raw  json.RawMessage        `json:"raw"`
	Any  any                    `json:"any"`
	Ptrs map[string]*walkDeep   `json:"ptrs"`
	Arr  [2]strictInner         `json:"arr"`
	Num  json.Number            `json:"num"`
	Emb  struct{ X int }        `json:"emb"`
	M    map[string][]walkInner `json:"m"`
}

type walkInner struct {
	walkEmbedded
	Own string `json:"own,required"`
}

type walkEmbedded struct {
	Base string `json:"base,required"`
}

// walkCustom decodes itself through a pointer, walkValueCustom through a value:
// neither walk looks inside them (encoding/json hands them the raw bytes).
type walkCustom struct {
	Name string `json:"name,required"`
}

func (c *walkCustom) UnmarshalJSON([]byte) error { return nil }

type walkValueCustom struct {
	Name string `json:"name,required"`
}

func (walkValueCustom) UnmarshalJSON([]byte) error { return nil }

type walkHolder struct {
	Custom  walkCustom       `json:"custom"`
	PCustom *walkCustom      `json:"pcustom"`
	Value   walkValueCustom  `json:"value"`
	PValue  *walkValueCustom `json:"pvalue"`
	Plain   []strictInner    `json:"plain"`
}

// The raw walk finds exactly what the generic walk finds, in the same order.
func TestRawWalkAgreesWithTheGenericWalk(t *testing.T) {
	docs := []string{
		`{}`, `[]`, `null`, `1`, `"s"`,
		`{"kind":"k","items":[{"name":"a","size":1}],"free":{"x":{"y":1}}}`,
		`{"kind":"k","extra":1,"Kind":"x","zz":[1,{"a":"}"}],"b":"\"]"}`,
		`{"kind":"k","items":[{"name":"a"},{"name":"b","color":1},{}, null, 3]}`,
		`{"kind":"k","byKey":{"q/r":{"nam":"a"},"~x":{"name":"n","e":{"f":[]}}}}`,
		`{"items":[]}`, `{"kind":1,"items":{"name":"x"},"byKey":[1]}`,
		` { "kind" : "k" , "items" : [ { "name" : "a" , "size" : -1.5e+3 } ] } `,
		`{"list":[[{"own":"o"},{"base":"b","x":1}],[],[{}]],"a":{"kind":"k","q":true},"raw":{"any":1},"any":{"z":[{}]}}`,
		`{"ptrs":{"p":{"list":[],"ptrs":{"q":{"x":null}}},"n":null},"arr":[{"name":"a"},{"zz":1},{"name":"c"}],"num":12}`,
		`{"emb":{"X":1,"Y":2},"m":{"k":[{"own":"a","base":"b"},{"nope":false}]},"list":[]}`,
		`{"list":[],"a":{"kind":"k","items":[{"name":"a","size":1,"t":"\u00e9\\\"x"}]}}`,
		"{\r\n\t\"kind\":\"k\",\r\n\t\"items\": [ {\"name\":1}\r\n, {\"nam\":2} ,\t{\"name\":true,\"size\":3\r} ],\r\n\t\"list\": [ [ ] , [ {\"own\":1} , {} ] ]\r\n}",
		`{"custom":{"zz":1},"pcustom":{"zz":1},"value":{"zz":1},"pvalue":{"zz":1},"plain":[{"zz":1}]}`,
	}
	for _, d := range docs {
		for _, typ := range []reflect.Type{reflect.TypeOf(&strictOuter{}), reflect.TypeOf(&walkDeep{}), reflect.TypeOf(new(any)), reflect.TypeOf(&walkHolder{})} {
			if err := CheckIJSON([]byte(d)); err != nil {
				t.Fatalf("%s: %v", d, err)
			}
			raw, ok := walkRaw([]byte(d), typ)
			if !ok {
				t.Fatalf("%s: the raw walk gave up without an escaped member name", d)
			}
			gen, _ := genericProblems([]byte(d), typ)
			sortProblems(raw)
			sortProblems(gen)
			if !reflect.DeepEqual(raw, gen) {
				t.Errorf("%s as %v:\nraw     %v\ngeneric %v", d, typ, raw, gen)
			}
		}
	}
}

func sortProblems(p []JSONError) {
	sort.SliceStable(p, func(i, j int) bool { return p[i].Pointer < p[j].Pointer })
}

// A member name with an escape is left to the generic walk, which compares
// names unescaped.
func TestRawWalkLeavesEscapedNamesToTheGenericWalk(t *testing.T) {
	d := []byte(`{"\u006bind":"k","items":[{"n\u0061me":"a"}]}`)
	if _, ok := walkRaw(d, reflect.TypeOf(&strictOuter{})); ok {
		t.Fatal("the raw walk decided a document with escaped member names")
	}
	// A plain name after an escaped one leaves it undecided all the same.
	if _, ok := walkRaw([]byte(`{"\u006bind":"k","items":[]}`), reflect.TypeOf(&strictOuter{})); ok {
		t.Fatal("the raw walk decided a document whose first member name is escaped")
	}
	var v strictOuter
	if err := DecodeStrict(d, &v); err != nil || v.Kind != "k" || v.Items[0].Name != "a" {
		t.Fatalf("escaped member names: %v %+v", err, v)
	}
}

func FuzzRawWalk(f *testing.F) {
	seedCorpus(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		if CheckIJSON(data) != nil {
			return
		}
		for _, typ := range []reflect.Type{reflect.TypeOf(&strictOuter{}), reflect.TypeOf(&walkDeep{})} {
			raw, ok := walkRaw(data, typ)
			if !ok {
				continue
			}
			gen, _ := genericProblems(data, typ)
			sortProblems(raw)
			sortProblems(gen)
			if !reflect.DeepEqual(raw, gen) {
				t.Fatalf("%q: raw %v, generic %v", data, raw, gen)
			}
		}
	})
}
