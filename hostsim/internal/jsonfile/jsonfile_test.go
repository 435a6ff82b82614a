package jsonfile

import (
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog/wire"
)

func TestLine(t *testing.T) {
	data := []byte("{\"a\": 1,\n \"b\": {\n  \"c\": [\n   1,\n   {\"d\": true}]},\n \"e\": \"x\"}")
	for ptr, want := range map[string]int{"a": 1, "b": 2, "b/c": 3, "b/c/0": 4, "b/c/1": 5, "b/c/1/d": 5, "e": 6, "nope": 1} {
		if got := Line(data, strings.Split(ptr, "/")); got != want {
			t.Errorf("Line(%s) = %d, want %d", ptr, got, want)
		}
	}
}

// A syntax error names the line and column where the parser stopped; a
// member problem names the line of the member and keeps its JSON Pointer.
func TestProblemsPlaceEachProblemInTheFile(t *testing.T) {
	type doc struct {
		Name string `json:"name,required"`
		List []struct {
			Token string `json:"token"`
		} `json:"list"`
	}
	for _, tc := range []struct {
		data string
		want []string
	}{
		{"{\"name\": \"x\",\n \"list\": [{\"token\": \"a\"}\n  {\"token\": \"b\"}]}", []string{`f.json:3:3: /list: expected ',' or ']'`}},
		{"{\"name\": \"x\",\n", []string{"f.json:2:1: the document: "}},
		{"{\"name\": \"é\", \"list\": [}", []string{"f.json:1:24: /list/0: "}}, // columns count characters (é is two bytes)
		{"{\"name\": \"x\",\n \"list\": [{\"token\": \"a\"},\n  {\"tokn\": \"b\"}],\n \"colour\": 1}",
			[]string{`f.json:4: /colour: unknown member "colour"`, `f.json:3: /list/1/tokn: unknown member "tokn"`}},
		{"{\"list\": []}", []string{`f.json:1: the document: `}},
		{"{\"name\": 3}", []string{`f.json:1: /name: found a JSON number`}},
	} {
		err := wire.DecodeStrict([]byte(tc.data), &doc{})
		got := Problems("f.json", []byte(tc.data), err)
		if len(got) != len(tc.want) {
			t.Errorf("%q: %q, want %d problems", tc.data, got, len(tc.want))
			continue
		}
		for _, w := range tc.want {
			found := false
			for _, g := range got {
				found = found || strings.HasPrefix(g, w)
			}
			if !found {
				t.Errorf("%q: %q has no problem starting %q", tc.data, got, w)
			}
		}
	}
}
