package cron

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestParseCronAccepts(t *testing.T) {
	cases := []struct {
		expr string
		// expected selections: field index -> values
		want map[int][]int
	}{
		{"*/5 * * * *", map[int][]int{0: {0, 5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 55}}},
		{"0 * * * *", map[int][]int{0: {0}, 1: seq(0, 23)}},
		{"0 0 * * *", map[int][]int{0: {0}, 1: {0}, 2: seq(1, 31)}},
		{"0,30 8-18 * * 1-5", map[int][]int{0: {0, 30}, 1: seq(8, 18), 4: {1, 2, 3, 4, 5}}},
		{"59 23 31 12 6", map[int][]int{0: {59}, 1: {23}, 2: {31}, 3: {12}, 4: {6}}},
		{"05 00 01 01 00", map[int][]int{0: {5}, 1: {0}, 2: {1}, 3: {1}, 4: {0}}},
		{"0-59/59 0-23/23 1-31/30 1-12/11 0-6/6", map[int][]int{0: {0, 59}, 1: {0, 23}, 2: {1, 31}, 3: {1, 12}, 4: {0, 6}}},
		{"10-20/5,1 * * * *", map[int][]int{0: {1, 10, 15, 20}}},
		{"5-5 * * * *", map[int][]int{0: {5}}},
	}
	for _, c := range cases {
		t.Run(c.expr, func(t *testing.T) {
			got, err := Parse(c.expr)
			if err != nil {
				t.Fatalf("Parse(%q) = %v, want accepted", c.expr, err)
			}
			f := got.Fields()
			for i, want := range c.want {
				if v := f[i].Values(); !slices.Equal(v, want) {
					t.Errorf("field %d (%s) = %v, want %v", i+1, f[i].Field.Name, v, want)
				}
			}
		})
	}
}

func seq(a, b int) []int {
	var out []int
	for i := a; i <= b; i++ {
		out = append(out, i)
	}
	return out
}

func TestParseCronRefuses(t *testing.T) {
	cases := []struct {
		expr     string
		position int    // 0 = shape error
		field    string // expected field name
		reason   string // substring of the reason
	}{
		{"0 24 * * *", 2, "hour", "24 is outside 0-23"},
		{"5-1 * * * *", 1, "minute", "range 5-1 is inverted"},
		{"*/0 * * * *", 1, "minute", "step 0 is outside 1-59"},
		{"0 0 32 * *", 3, "day of month", "32 is outside 1-31"},
		{"0 0 * * 7", 5, "day of week", "7 is outside 0-6"},
		{"@daily", 0, "", "has 1 space-separated fields"},
		{"* * * *", 0, "", "has 4 space-separated fields"},
		{"* * * * * *", 0, "", "has 6 space-separated fields"},
		{"*  * * *", 0, "", "field 2 (hour) is empty"},
		{"0 0 0 * *", 3, "day of month", "0 is outside 1-31"},
		{"0 0 * 0 *", 4, "month", "0 is outside 1-12"},
		{"0 0 * 13 *", 4, "month", "13 is outside 1-12"},
		{"60 * * * *", 1, "minute", "60 is outside 0-59"},
		{"5/10 * * * *", 1, "minute", "never a bare number"},
		{"*/60 * * * *", 1, "minute", "step 60 is outside 1-59"},
		{"0 */24 * * *", 2, "hour", "step 24 is outside 1-23"},
		{"0 0 */31 * *", 3, "day of month", "step 31 is outside 1-30"},
		{"0 0 * */12 *", 4, "month", "step 12 is outside 1-11"},
		{"0 0 * * */7", 5, "day of week", "step 7 is outside 1-6"},
		{"100 * * * *", 1, "minute", "not a one- or two-digit number"},
		{"0 0 * JAN *", 4, "month", `"JAN" is not a one- or two-digit number`},
		{"0 0 * * MON", 5, "day of week", `"MON" is not`},
		{"0 0 ? * *", 3, "day of month", `"?" is not`},
		{"0 0 L * *", 3, "day of month", `"L" is not`},
		{"0 0 15W * *", 3, "day of month", `"15W" is not`},
		{"0 0 * * 5#3", 5, "day of week", `"5#3" is not`},
		{"1,,2 * * * *", 1, "minute", "empty list element"},
		{",1 * * * *", 1, "minute", "empty list element"},
		{"*/ * * * *", 1, "minute", `step "" is not`},
		{"1-2-3 * * * *", 1, "minute", `"2-3" is not`},
		{"-1 * * * *", 1, "minute", `"" is not`},
		{"*/5/2 * * * *", 1, "minute", `step "5/2" is not`},
		{"+5 * * * *", 1, "minute", `"+5" is not`},
	}
	for _, c := range cases {
		t.Run(c.expr, func(t *testing.T) {
			_, err := Parse(c.expr)
			var ce *Error
			if !errors.As(err, &ce) {
				t.Fatalf("Parse(%q) = %v, want a *Error", c.expr, err)
			}
			if ce.Position != c.position || ce.Field != c.field {
				t.Errorf("error names field %d %q, want %d %q (%v)", ce.Position, ce.Field, c.position, c.field, err)
			}
			if !strings.Contains(err.Error(), c.reason) {
				t.Errorf("error %q does not say %q", err, c.reason)
			}
		})
	}
}

// FuzzParseCron: the parser never panics, and what it accepts selects only in-range values.
func FuzzParseCron(f *testing.F) {
	for _, s := range []string{"*/5 * * * *", "0,30 8-18 * * 1-5", "5-1 * * * *", "1- * * * *", "*/ */ */ */ */"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := Parse(s)
		if err != nil {
			return
		}
		for _, set := range c.Fields() {
			for _, v := range set.Values() {
				if v < set.Field.Min || v > set.Field.Max {
					t.Fatalf("%q selects %d outside %s", s, v, set.Field.Name)
				}
			}
			if len(set.Values()) == 0 {
				t.Fatalf("%q accepted with an empty %s set", s, set.Field.Name)
			}
		}
	})
}
