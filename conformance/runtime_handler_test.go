package conformance

import "testing"

// The handler the undeclared-handler check adds is outside the runtime
// contract's vocabulary however that vocabulary is shaped: "alarm", else
// "alarm" grown by x until it is free (a family may define alarm, alarmx, …).
func TestUndefinedHandlerIsOutsideTheVocabulary(t *testing.T) {
	for _, c := range []struct {
		vocab []string
		want  string
	}{
		{nil, "alarm"},
		{[]string{"fetch", "scheduled", "queue"}, "alarm"},
		{[]string{"alarm"}, "alarmx"},
		{[]string{"alarmx", "alarm", "alarmxx"}, "alarmxxx"},
	} {
		if got := undefinedHandler(c.vocab); got != c.want {
			t.Errorf("undefinedHandler(%q) = %q, want %q", c.vocab, got, c.want)
		}
	}
}
