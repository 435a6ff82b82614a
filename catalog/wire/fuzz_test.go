package wire

import (
	"bytes"
	"encoding/json"
	"testing"
)

func seedCorpus(f *testing.F) {
	for _, v := range jcsVectors {
		f.Add([]byte(v.in))
	}
	for _, s := range []string{`{"a":1,"a":2}`, `{"a":1,"\u0061":2}`, `[-0]`, `"\ud800"`, `01`, `1e400`, `{} {}`,
		`{"kind":"k","items":[{"name":"a"}]}`, `{"kind":"k","x":{"y":[1,2]}}`, "\xff", `[[[[[[]]]]]]`} {
		f.Add([]byte(s))
	}
}

// hasDuplicate reports whether any object in a JSON text repeats a member name,
// using encoding/json's token stream (an independent parser).
func hasDuplicate(data []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(data))
	type frame struct {
		obj  bool
		keys map[string]bool
		key  bool // next string token is a key
	}
	var stack []*frame
	for {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		top := (*frame)(nil)
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{':
				if top != nil && top.obj {
					top.key = true
				}
				stack = append(stack, &frame{obj: true, keys: map[string]bool{}, key: true})
			case '[':
				if top != nil && top.obj {
					top.key = true
				}
				stack = append(stack, &frame{})
			default:
				stack = stack[:len(stack)-1]
			}
		default:
			if top != nil && top.obj {
				if top.key {
					s := t.(string)
					if top.keys[s] {
						return true
					}
					top.keys[s] = true
					top.key = false
				} else {
					top.key = true
				}
			}
		}
	}
}

func FuzzCheckIJSON(f *testing.F) {
	seedCorpus(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		err := CheckIJSON(data)
		if err == nil && !json.Valid(data) {
			t.Fatalf("accepted invalid JSON %q", data)
		}
		if err == nil && hasDuplicate(data) {
			t.Fatalf("accepted a duplicate member: %q", data)
		}
	})
}

func FuzzDecodeStrict(f *testing.F) {
	seedCorpus(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		var v strictOuter
		err := DecodeStrict(data, &v)
		if err == nil && hasDuplicate(data) {
			t.Fatalf("accepted a duplicate member: %q", data)
		}
		var g any
		_ = DecodeStrict(data, &g)
	})
}

func FuzzCanonicalize(f *testing.F) {
	seedCorpus(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Canonicalize(data)
		if err != nil {
			return
		}
		if err := CheckIJSON(c); err != nil {
			t.Fatalf("canonical form %q of %q fails the gate: %v", c, data, err)
		}
		again, err := Canonicalize(c)
		if err != nil || !bytes.Equal(again, c) {
			t.Fatalf("canonicalization is not idempotent: %q -> %q (%v)", c, again, err)
		}
	})
}
