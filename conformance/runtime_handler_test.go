package conformance

import (
	"testing"
	"time"
)

// The handler the undeclared-handler check adds is outside the runtime
// contract's vocabulary however that vocabulary is shaped: "alarm", else
// "alarm" grown by x until it is free (a family may define alarm, alarmx, …).
// A search that never ends fails the test after a second rather than hanging it.
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
		got := make(chan string, 1)
		go func() { got <- undefinedHandler(c.vocab) }()
		select {
		case h := <-got:
			if h != c.want {
				t.Errorf("undefinedHandler(%q) = %q, want %q", c.vocab, h, c.want)
			}
		case <-time.After(time.Second):
			t.Fatalf("undefinedHandler(%q) did not return within a second: its search for a free name does not end", c.vocab)
		}
	}
}
