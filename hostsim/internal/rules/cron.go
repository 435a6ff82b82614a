package rules

import (
	"fmt"
	"strings"
)

// CronField describes one of the five positions of a cron expression.
type CronField struct {
	Name     string // "minute", "hour", "day of month", "month", "day of week"
	Min, Max int
}

// CronFields is the table of the five fields in order (docs/protocol.md#aggregate). Day of
// week 0 is Sunday; 7 is refused.
var CronFields = [5]CronField{
	{"minute", 0, 59},
	{"hour", 0, 23},
	{"day of month", 1, 31},
	{"month", 1, 12},
	{"day of week", 0, 6},
}

// CronItem is one comma-separated element of a field: "*" (Any), "N", "A-B", "*/S" or
// "A-B/S". For "*" Start and End are the field's bounds; Step is 1 when absent.
type CronItem struct {
	Any        bool
	Start, End int
	Step       int
}

// CronSet is one parsed field: its items as written and the set of values they select.
type CronSet struct {
	Field CronField
	Items []CronItem
	bits  uint64
}

// Has reports whether v is selected.
func (s CronSet) Has(v int) bool { return v >= 0 && v < 64 && s.bits&(1<<uint(v)) != 0 }

// Values lists the selected values in ascending order.
func (s CronSet) Values() []int {
	var out []int
	for v := s.Field.Min; v <= s.Field.Max; v++ {
		if s.Has(v) {
			out = append(out, v)
		}
	}
	return out
}

// Cron is a parsed five-field UTC schedule.
type Cron struct {
	Minute, Hour, DayOfMonth, Month, DayOfWeek CronSet
}

// Fields returns the five sets in expression order.
func (c Cron) Fields() [5]CronSet {
	return [5]CronSet{c.Minute, c.Hour, c.DayOfMonth, c.Month, c.DayOfWeek}
}

// CronError says which field of which expression is wrong and why.
type CronError struct {
	Expr     string
	Position int    // 1..5; 0 when the expression's shape (field count, spacing) is wrong
	Field    string // field name; "" when Position is 0
	Token    string // the offending field or item text
	Reason   string
}

func (e *CronError) Error() string {
	if e.Position == 0 {
		return fmt.Sprintf("cron expression %q: %s", e.Expr, e.Reason)
	}
	return fmt.Sprintf("cron expression %q: field %d (%s) %q: %s", e.Expr, e.Position, e.Field, e.Token, e.Reason)
}

// CronGrammar is the accepted grammar, said once for every refusal message.
const CronGrammar = "five fields separated by single spaces (minute 0-59, hour 0-23, day of month 1-31, " +
	"month 1-12, day of week 0-6 with 0 = Sunday), each a comma list of *, N, A-B, */S or A-B/S " +
	"with one- or two-digit numbers, ranges not inverted and steps 1..(max-min) of the field; " +
	"no names, macros, ?, L, W or #, schedules are UTC"

// ParseCron parses expr by the grammar of docs/protocol.md#aggregate (not a pattern match): every
// number is checked against its field's range, ranges must not be inverted, steps lie in
// 1..(max−min) and never follow a bare number.
func ParseCron(expr string) (Cron, error) {
	parts := strings.Split(expr, " ")
	if len(parts) != 5 {
		return Cron{}, &CronError{Expr: expr, Reason: fmt.Sprintf("has %d space-separated fields, want exactly 5", len(parts))}
	}
	var sets [5]CronSet
	for i, p := range parts {
		f := CronFields[i]
		if p == "" {
			return Cron{}, &CronError{Expr: expr, Reason: fmt.Sprintf("field %d (%s) is empty: fields are separated by exactly one space", i+1, f.Name)}
		}
		set, reason, tok := parseCronField(p, f)
		if reason != "" {
			return Cron{}, &CronError{Expr: expr, Position: i + 1, Field: f.Name, Token: tok, Reason: reason}
		}
		sets[i] = set
	}
	return Cron{sets[0], sets[1], sets[2], sets[3], sets[4]}, nil
}

func parseCronField(text string, f CronField) (CronSet, string, string) {
	set := CronSet{Field: f}
	for _, item := range strings.Split(text, ",") {
		it, reason := parseCronItem(item, f)
		if reason != "" {
			return CronSet{}, reason, item
		}
		set.Items = append(set.Items, it)
		for v := it.Start; v <= it.End; v += it.Step {
			set.bits |= 1 << uint(v)
		}
	}
	return set, "", ""
}

func parseCronItem(item string, f CronField) (CronItem, string) {
	if item == "" {
		return CronItem{}, "empty list element (a comma must separate two elements)"
	}
	base, stepText, hasStep := strings.Cut(item, "/")
	it := CronItem{Step: 1}
	switch {
	case base == "*":
		it.Any, it.Start, it.End = true, f.Min, f.Max
	case strings.Contains(base, "-"):
		a, b, _ := strings.Cut(base, "-")
		var reason string
		if it.Start, reason = cronNumber(a, f); reason != "" {
			return CronItem{}, reason
		}
		if it.End, reason = cronNumber(b, f); reason != "" {
			return CronItem{}, reason
		}
		if it.Start > it.End {
			return CronItem{}, fmt.Sprintf("range %d-%d is inverted; write the smaller bound first", it.Start, it.End)
		}
	default:
		n, reason := cronNumber(base, f)
		if reason != "" {
			return CronItem{}, reason
		}
		if hasStep {
			return CronItem{}, fmt.Sprintf("a step may follow * or a range A-B, never a bare number (%s/…)", base)
		}
		it.Start, it.End = n, n
	}
	if hasStep {
		s, ok := cronDigits(stepText)
		if !ok {
			return CronItem{}, fmt.Sprintf("step %q is not a one- or two-digit number", stepText)
		}
		if s < 1 || s > f.Max-f.Min {
			return CronItem{}, fmt.Sprintf("step %d is outside 1-%d for the %s field", s, f.Max-f.Min, f.Name)
		}
		it.Step = s
	}
	return it, ""
}

func cronNumber(text string, f CronField) (int, string) {
	n, ok := cronDigits(text)
	if !ok {
		return 0, fmt.Sprintf("%q is not a one- or two-digit number (names, ?, L, W and # are not accepted)", text)
	}
	if n < f.Min || n > f.Max {
		return 0, fmt.Sprintf("%d is outside %d-%d", n, f.Min, f.Max)
	}
	return n, ""
}

func cronDigits(s string) (int, bool) {
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

// CheckCron is the apply/import/commit rule for a cron-valued spec field at pointer:
// nil when value parses, else an invalid_argument Refusal naming the pointer, the
// field at fault and the grammar.
func CheckCron(pointer, value string) *Refusal {
	if _, err := ParseCron(value); err != nil {
		return invalid(pointer, "%s: %v; accepted: %s", pointer, err, CronGrammar)
	}
	return nil
}
