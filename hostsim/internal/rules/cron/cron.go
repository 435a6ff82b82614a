// Package cron parses the five-field UTC schedules a cron-valued spec field
// holds (docs/protocol.md#aggregate): a parser of the grammar, not a pattern
// match, whose errors name the field at fault. It knows nothing of Forms or
// refusals; package rules turns its errors into the wire's invalid_argument.
package cron

import (
	"fmt"
	"strings"
)

// Field describes one of the five positions of a cron expression.
type Field struct {
	Name     string // "minute", "hour", "day of month", "month", "day of week"
	Min, Max int
}

// Fields is the table of the five fields in order (docs/protocol.md#aggregate). Day of
// week 0 is Sunday; 7 is refused.
var Fields = [5]Field{
	{"minute", 0, 59},
	{"hour", 0, 23},
	{"day of month", 1, 31},
	{"month", 1, 12},
	{"day of week", 0, 6},
}

// Item is one comma-separated element of a field: "*" (Any), "N", "A-B", "*/S" or
// "A-B/S". For "*" Start and End are the field's bounds; Step is 1 when absent.
type Item struct {
	Any        bool
	Start, End int
	Step       int
}

// Set is one parsed field: its items as written and the set of values they select.
type Set struct {
	Field Field
	Items []Item
	bits  uint64
}

// Has reports whether v is selected.
func (s Set) Has(v int) bool { return v >= 0 && v < 64 && s.bits&(1<<uint(v)) != 0 }

// Values lists the selected values in ascending order.
func (s Set) Values() []int {
	var out []int
	for v := s.Field.Min; v <= s.Field.Max; v++ {
		if s.Has(v) {
			out = append(out, v)
		}
	}
	return out
}

// Schedule is a parsed five-field UTC schedule.
type Schedule struct {
	Minute, Hour, DayOfMonth, Month, DayOfWeek Set
}

// Fields returns the five sets in expression order.
func (c Schedule) Fields() [5]Set {
	return [5]Set{c.Minute, c.Hour, c.DayOfMonth, c.Month, c.DayOfWeek}
}

// Error says which field of which expression is wrong and why.
type Error struct {
	Expr     string
	Position int    // 1..5; 0 when the expression's shape (field count, spacing) is wrong
	Field    string // field name; "" when Position is 0
	Token    string // the offending field or item text
	Reason   string
}

func (e *Error) Error() string {
	if e.Position == 0 {
		return fmt.Sprintf("cron expression %q: %s", e.Expr, e.Reason)
	}
	return fmt.Sprintf("cron expression %q: field %d (%s) %q: %s", e.Expr, e.Position, e.Field, e.Token, e.Reason)
}

// Grammar is the accepted grammar, said once for every refusal message.
const Grammar = "five fields separated by single spaces (minute 0-59, hour 0-23, day of month 1-31, " +
	"month 1-12, day of week 0-6 with 0 = Sunday), each a comma list of *, N, A-B, */S or A-B/S " +
	"with one- or two-digit numbers, ranges not inverted and steps 1..(max-min) of the field; " +
	"no names, macros, ?, L, W or #, schedules are UTC"

// Parse parses expr by the grammar of docs/protocol.md#aggregate (not a pattern match): every
// number is checked against its field's range, ranges must not be inverted, steps lie in
// 1..(max−min) and never follow a bare number.
func Parse(expr string) (Schedule, error) {
	parts := strings.Split(expr, " ")
	if len(parts) != 5 {
		return Schedule{}, &Error{Expr: expr, Reason: fmt.Sprintf("has %d space-separated fields, want exactly 5", len(parts))}
	}
	var sets [5]Set
	for i, p := range parts {
		f := Fields[i]
		if p == "" {
			return Schedule{}, &Error{Expr: expr, Reason: fmt.Sprintf("field %d (%s) is empty: fields are separated by exactly one space", i+1, f.Name)}
		}
		set, reason, tok := parseField(p, f)
		if reason != "" {
			return Schedule{}, &Error{Expr: expr, Position: i + 1, Field: f.Name, Token: tok, Reason: reason}
		}
		sets[i] = set
	}
	return Schedule{sets[0], sets[1], sets[2], sets[3], sets[4]}, nil
}

func parseField(text string, f Field) (Set, string, string) {
	set := Set{Field: f}
	for _, item := range strings.Split(text, ",") {
		it, reason := parseItem(item, f)
		if reason != "" {
			return Set{}, reason, item
		}
		set.Items = append(set.Items, it)
		for v := it.Start; v <= it.End; v += it.Step {
			set.bits |= 1 << uint(v)
		}
	}
	return set, "", ""
}

func parseItem(item string, f Field) (Item, string) {
	if item == "" {
		return Item{}, "empty list element (a comma must separate two elements)"
	}
	base, stepText, hasStep := strings.Cut(item, "/")
	it := Item{Step: 1}
	switch {
	case base == "*":
		it.Any, it.Start, it.End = true, f.Min, f.Max
	case strings.Contains(base, "-"):
		a, b, _ := strings.Cut(base, "-")
		var reason string
		if it.Start, reason = number(a, f); reason != "" {
			return Item{}, reason
		}
		if it.End, reason = number(b, f); reason != "" {
			return Item{}, reason
		}
		if it.Start > it.End {
			return Item{}, fmt.Sprintf("range %d-%d is inverted; write the smaller bound first", it.Start, it.End)
		}
	default:
		n, reason := number(base, f)
		if reason != "" {
			return Item{}, reason
		}
		if hasStep {
			return Item{}, fmt.Sprintf("a step may follow * or a range A-B, never a bare number (%s/…)", base)
		}
		it.Start, it.End = n, n
	}
	if hasStep {
		s, ok := digits(stepText)
		if !ok {
			return Item{}, fmt.Sprintf("step %q is not a one- or two-digit number", stepText)
		}
		if s < 1 || s > f.Max-f.Min {
			return Item{}, fmt.Sprintf("step %d is outside 1-%d for the %s field", s, f.Max-f.Min, f.Name)
		}
		it.Step = s
	}
	return it, ""
}

func number(text string, f Field) (int, string) {
	n, ok := digits(text)
	if !ok {
		return 0, fmt.Sprintf("%q is not a one- or two-digit number (names, ?, L, W and # are not accepted)", text)
	}
	if n < f.Min || n > f.Max {
		return 0, fmt.Sprintf("%d is outside %d-%d", n, f.Min, f.Max)
	}
	return n, ""
}

func digits(s string) (int, bool) {
	if len(s) < 1 || len(s) > 2 {
		return 0, false
	}
	n := 0
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}
