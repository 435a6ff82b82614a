package model

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// TestUniqueItemsNamesTheFirstEqualPair: a list under uniqueItems has one problem,
// naming the first later entry equal to an earlier one (and the earliest such),
// compared as JSON values; a list of distinct entries has none. The scan ends on
// every list: a second's watchdog fails a scan that does not, rather than hanging
// the test.
func TestUniqueItemsNamesTheFirstEqualPair(t *testing.T) {
	s := mustCompile(t, `{"type":"array","uniqueItems":true}`)
	for _, c := range []struct {
		list []any
		want string
	}{
		{[]any{}, ""},
		{[]any{"a"}, ""},
		{[]any{"a", "b", "c"}, ""},
		{[]any{"a", "b", "a", "b"}, "entries 0 and 2 are equal; entries must be distinct"},
		{[]any{"a", "b", "b", "a"}, "entries 1 and 2 are equal; entries must be distinct"},
		{[]any{json.Number("3"), map[string]any{"k": "v"}, 3.0}, "entries 0 and 2 are equal; entries must be distinct"},
	} {
		type result struct {
			ps  []SchemaProblem
			err error
		}
		done := make(chan result, 1)
		go func() {
			ps, err := s.Validate(c.list)
			done <- result{ps, err}
		}()
		select {
		case r := <-done:
			if r.err != nil {
				t.Fatal(r.err)
			}
			var msgs []string
			for _, p := range r.ps {
				msgs = append(msgs, p.Pointer+" "+p.Message)
			}
			want := ""
			if c.want != "" {
				want = " " + c.want // at the list itself, the document's root
			}
			if got := strings.Join(msgs, "\n"); got != want {
				t.Errorf("Validate(%v) problems %q, want %q", c.list, got, want)
			}
		case <-time.After(time.Second):
			t.Fatalf("Validate(%v) did not return within a second: its uniqueness scan does not end", c.list)
		}
	}
}
