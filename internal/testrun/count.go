package testrun

import (
	"fmt"
	"strconv"
	"strings"
)

// Count reads a count of 1 or more from the environment variable name (getenv):
// def when it is unset or empty, and def with an error naming the variable when
// it holds anything else. The test targets check their counts first, so a typo
// (TAKOKIT_TEST_JOBS=four) stops the run instead of silently meaning the default.
func Count(getenv func(string) string, name string, def int) (int, error) {
	v := strings.TrimSpace(getenv(name))
	if v == "" {
		return def, nil
	}
	n, _ := strconv.Atoi(v) // 0 when v is no number
	if n < 1 {
		return def, fmt.Errorf("%s=%s is not a whole number of 1 or more; unset it for the default, %d", name, getenv(name), def)
	}
	return n, nil
}

// Switch reads an on/off environment variable (getenv): "1" is on, unset, empty or
// "0" off; anything else is an error naming it, since the tests read only "1"
// (TAKOKIT_TEST_FRESH=true silently meant off).
func Switch(getenv func(string) string, name string) (bool, error) {
	switch getenv(name) {
	case "1":
		return true, nil
	case "", "0":
		return false, nil
	}
	return false, fmt.Errorf("%s=%s: set it to 1 to turn it on, or unset it", name, getenv(name))
}
