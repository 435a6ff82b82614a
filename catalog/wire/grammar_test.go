package wire

import (
	"strconv"
	"strings"
	"testing"
)

func TestValidUID(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want bool
	}{
		{"a", true}, {"Z9", true}, {"0abc.def_g-h", true}, {strings.Repeat("a", 128), true},
		{"", false}, {strings.Repeat("a", 129), false}, {"-a", false}, {".a", false}, {"_a", false},
		{"a/b", false}, {"a b", false}, {"é", false}, {"a\x00", false},
	} {
		if got := ValidUID(tc.in); got != tc.want {
			t.Errorf("ValidUID(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

func TestParseDecimal(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
		ok   bool
	}{
		{"1", 1, true}, {"42", 42, true}, {"9223372036854775807", 1<<63 - 1, true},
		{"", 0, false}, {"0", 0, false}, {"01", 0, false}, {"-1", 0, false}, {"+1", 0, false},
		{"1e3", 0, false}, {"1.0", 0, false}, {" 1", 0, false}, {"9223372036854775808", 0, false},
		{"99999999999999999999", 0, false}, {"1_000", 0, false},
	} {
		got, ok := ParseDecimal(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("ParseDecimal(%q) = %d, %v; want %d, %v", tc.in, got, ok, tc.want, tc.ok)
		}
		if ValidDecimal(tc.in) != tc.ok {
			t.Errorf("ValidDecimal(%q) disagrees with ParseDecimal", tc.in)
		}
		if tc.ok && FormatDecimal(got) != tc.in {
			t.Errorf("FormatDecimal(%d) = %q, want %q", got, FormatDecimal(got), tc.in)
		}
	}
}

func FuzzParseDecimal(f *testing.F) {
	for _, s := range []string{"1", "0", "9223372036854775807", "9223372036854775808", "-5", "007"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, ok := ParseDecimal(s)
		if !ok {
			return
		}
		if n < 1 || strconv.FormatInt(n, 10) != s {
			t.Fatalf("ParseDecimal(%q) = %d accepted a non-canonical form", s, n)
		}
	})
}

func TestConditionVocabularies(t *testing.T) {
	if len(ConditionTypes()) != 6 || len(ConditionStatuses()) != 3 || len(ConditionReasons()) != 12 {
		t.Fatalf("vocabulary sizes %d/%d/%d, want 6/3/12", len(ConditionTypes()), len(ConditionStatuses()), len(ConditionReasons()))
	}
	for _, r := range ConditionReasons() {
		if !KnownConditionReason(r) {
			t.Errorf("reason %q not known", r)
		}
	}
	for _, bad := range []string{"", "available", "InventedByHostsim"} {
		if KnownConditionReason(bad) || KnownConditionType(bad) || KnownConditionStatus(bad) {
			t.Errorf("%q accepted by a closed vocabulary", bad)
		}
	}
	if !KnownConditionType(ConditionReconciling) || !KnownConditionStatus(StatusUnknown) {
		t.Error("known members refused")
	}
}
