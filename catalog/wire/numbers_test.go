package wire

import (
	"encoding/json"
	"errors"
	"testing"
)

// TestDecodeNumbers: numbers keep their text, one value is the whole document (a
// second value, a stray closing bracket or any other byte after it is refused), and
// what is not JSON fails as encoding/json says.
func TestDecodeNumbers(t *testing.T) {
	var v any
	if err := DecodeNumbers([]byte(" {\"n\": 1e3, \"big\": 9007199254740993}\n\t"), &v); err != nil {
		t.Fatal(err)
	}
	m := v.(map[string]any)
	if m["n"] != json.Number("1e3") || m["big"] != json.Number("9007199254740993") {
		t.Errorf("numbers decoded as %#v and %#v, want their text", m["n"], m["big"])
	}
	for _, trailing := range []string{`{} {}`, `{}]`, `{}}`, `1 x`, `"a","b"`} {
		if err := DecodeNumbers([]byte(trailing), &v); !errors.Is(err, ErrTrailingData) {
			t.Errorf("DecodeNumbers(%q) = %v, want ErrTrailingData", trailing, err)
		}
	}
	var obj map[string]any
	for _, bad := range []string{``, `{`, `[1,]`, `nul`} {
		err := DecodeNumbers([]byte(bad), &obj)
		if err == nil || errors.Is(err, ErrTrailingData) {
			t.Errorf("DecodeNumbers(%q) = %v, want encoding/json's error", bad, err)
		}
	}
	if err := DecodeNumbers([]byte(`[1]`), &obj); err == nil {
		t.Error("an array into a map: no error")
	}
}
