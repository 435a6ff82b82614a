package testrun

import (
	"fmt"
	"testing"
)

func TestCountReadsAPositiveWholeNumber(t *testing.T) {
	for _, c := range []struct {
		value string
		want  int
		err   string
	}{
		{"", 2, ""},
		{"  ", 2, ""},
		{"3", 3, ""},
		{" 5 ", 5, ""},
		{"1", 1, ""},
		{"0", 2, "TAKOKIT_TEST_JOBS=0 is not a whole number of 1 or more; unset it for the default, 2"},
		{"-1", 2, "TAKOKIT_TEST_JOBS=-1 is not a whole number of 1 or more; unset it for the default, 2"},
		{"four", 2, "TAKOKIT_TEST_JOBS=four is not a whole number of 1 or more; unset it for the default, 2"},
		{"2.5", 2, "TAKOKIT_TEST_JOBS=2.5 is not a whole number of 1 or more; unset it for the default, 2"},
	} {
		got, err := Count(func(string) string { return c.value }, "TAKOKIT_TEST_JOBS", 2)
		msg := ""
		if err != nil {
			msg = err.Error()
		}
		if got != c.want || msg != c.err {
			t.Errorf("Count(%q) = %d, %q; want %d, %q", c.value, got, msg, c.want, c.err)
		}
	}
}

func TestSwitchIsOneOrOff(t *testing.T) {
	for value, want := range map[string]string{"1": "true", "": "false", "0": "false",
		"true": "TAKOKIT_TEST_FRESH=true: set it to 1 to turn it on, or unset it",
		"yes":  "TAKOKIT_TEST_FRESH=yes: set it to 1 to turn it on, or unset it",
		" 1":   "TAKOKIT_TEST_FRESH= 1: set it to 1 to turn it on, or unset it"} {
		on, err := Switch(func(string) string { return value }, "TAKOKIT_TEST_FRESH")
		got := fmt.Sprint(on)
		if err != nil {
			got = err.Error()
		}
		if got != want {
			t.Errorf("Switch(%q) = %s, want %s", value, got, want)
		}
	}
}
