package catalog

import (
	"encoding/json"
	"testing"
)

// TestSafeIntegers: an integer keyword, limit or size is an integer within
// ±(2^53−1), written as an integer or as a float with no fraction; anything
// else (a fraction, a larger magnitude, a string, another token) is not one.
func TestSafeIntegers(t *testing.T) {
	for _, tc := range []struct {
		raw  string
		want int64
		ok   bool
	}{
		{"9007199254740991", 9007199254740991, true},
		{"-9007199254740991", -9007199254740991, true},
		{"9007199254740992", 0, false},
		{"-9007199254740992", 0, false},
		{"9007199254740991.0", 9007199254740991, true},
		{"-9007199254740991.0", -9007199254740991, true},
		{"9007199254740993.0", 0, false},
		{"-9007199254740993.0", 0, false},
		{"1e2", 100, true},
		{"-0", 0, true},
		{"2.5", 0, false},
		{"1e300", 0, false},
		{`"5"`, 0, false},
		{"true", 0, false},
		{"null", 0, false},
		{"[1]", 0, false},
		{"", 0, false},
	} {
		n, ok := rawInt(json.RawMessage(tc.raw))
		if ok != tc.ok || (ok && n != tc.want) {
			t.Errorf("rawInt(%s) = %d, %v; want %d, %v", tc.raw, n, ok, tc.want, tc.ok)
		}
	}
	if _, ok := safeInt("5"); ok {
		t.Error("safeInt takes a json.Number, not a Go string")
	}
}
