package jsonvalue

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog/wire"
)

// same fails unless Decode gives for data what encoding/json gives: the value, or an
// error with the same text.
func same(t *testing.T, what string, data []byte) {
	t.Helper()
	got, gotErr := Decode(data)
	want, wantErr := slow(data)
	if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) || !reflect.DeepEqual(got, want) {
		t.Fatalf("%s: Decode(%.200q) = %#v, %v; encoding/json gives %#v, %v", what, data, got, gotErr, want, wantErr)
	}
}

// TestDecodeIsEncodingJSONOnTheRepositorysDocuments: every JSON file of the
// repository (catalogs, profiles, fixtures) decodes as encoding/json decodes it.
func TestDecodeIsEncodingJSONOnTheRepositorysDocuments(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	n := 0
	err := filepath.WalkDir(root, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() && (e.Name() == ".git" || e.Name() == "bin" || e.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if e.IsDir() || !strings.HasSuffix(path, ".json") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		same(t, path, data)
		n++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 50 {
		t.Fatalf("only %d JSON files under %s", n, root)
	}
}

// TestDecodeIsEncodingJSONOnGeneratedDocuments: nested values with escapes, non-ASCII
// text and every number form, written compact and spaced, decode alike.
func TestDecodeIsEncodingJSONOnGeneratedDocuments(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for i := range 3000 {
		v := generated(r, 0)
		compact, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		same(t, fmt.Sprint("document ", i), compact)
		spaced, _ := json.MarshalIndent(v, " ", "\t")
		same(t, fmt.Sprint("spaced document ", i), spaced)
	}
}

var numbers = []string{"0", "-0", "7", "-12", "3.25", "1e9", "1E+2", "-2.5e-3", "12345678901234567890123"}
var texts = []string{"", "a", "f00001.txt", "tab\there", `quote"and\back`, "é ü 漢字", "\U0001F600", "<script>&", "\u2028", "nul\x00"}

func generated(r *rand.Rand, depth int) any {
	switch k := r.IntN(8); {
	case k == 0 && depth < 5:
		m := map[string]any{}
		for range r.IntN(5) {
			m[texts[r.IntN(len(texts))]+fmt.Sprint(r.IntN(3))] = generated(r, depth+1)
		}
		return m
	case k == 1 && depth < 5:
		a := make([]any, r.IntN(5))
		for i := range a {
			a[i] = generated(r, depth+1)
		}
		return a
	case k == 2:
		return json.Number(numbers[r.IntN(len(numbers))])
	case k == 3:
		return r.IntN(2) == 0
	case k == 4:
		return nil
	default:
		return texts[r.IntN(len(texts))]
	}
}

// TestDecodeIsEncodingJSONOnWhatItCannotRead: malformed documents, and those Decode
// leaves to encoding/json (invalid UTF-8, nesting past its limit), give
// encoding/json's values and errors.
func TestDecodeIsEncodingJSONOnWhatItCannotRead(t *testing.T) {
	for _, doc := range []string{"", " ", "{", "[", `{"a"}`, `{"a":}`, `{"a":1,}`, "[1,]", "[1 2]", `{"a":1 "b":2}`,
		"01", "-", "1.", "1e", "1e+", "+1", ".5", "tru", "truex", "nul", "[true false]", `"open`, `"ctl` + "\x01" + `"`,
		"\"bad utf8 \xff\"", `"\u00e9\ud83d\ude00"`, `"\ud800"`, `"\x"`, `{"a":1}{`, "1 2", `{"a":1,"a":2}`,
		`{"a":[1,{"b":null}],"c":"\/"}`, `{}]`, `1]`, `[1]}`, strings.Repeat("[", 10001) + strings.Repeat("]", 10001),
		strings.Repeat("[", 9999) + strings.Repeat("]", 9999)} {
		same(t, "document", []byte(doc))
	}
	for _, doc := range []string{"1 2", `{"a":1}{`, `{}]`, `[1]}`} {
		if _, err := Decode([]byte(doc)); !errors.Is(err, wire.ErrTrailingData) {
			t.Errorf("Decode(%q) = %v, want wire.ErrTrailingData", doc, err)
		}
	}
}

func FuzzDecode(f *testing.F) {
	for _, s := range []string{`{"a":[1,2.5e3,"x\n",true,null]}`, `[]`, `"é"`, `-0`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { same(t, "fuzzed", data) })
}
