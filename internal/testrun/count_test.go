package testrun

import "testing"

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
