package transition

import (
	"testing"
	"time"
)

// New defaults the clock: a Service built without one still stamps its rows.
func TestNewDefaultsTheClock(t *testing.T) {
	w := newWorld(t)
	s, err := New(Options{Store: w.st, Host: w.s.Host, Renderer: w.s.Renderer, Relations: w.s.Relations})
	if err != nil {
		t.Fatal(err)
	}
	if s.Now == nil || time.Since(s.Now()) > time.Minute {
		t.Fatalf("the default clock is not the wall clock")
	}
}
