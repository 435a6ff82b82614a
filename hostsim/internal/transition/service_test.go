package transition

import (
	"testing"
	"time"

	"github.com/takokit/takokit/hostsim/internal/store"
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

// New fails when it cannot create its tables.
func TestNewReportsAStoreItCannotExtend(t *testing.T) {
	w := newWorld(t)
	st, err := store.Open("")
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	if s, err := New(Options{Store: st, Host: w.s.Host}); err == nil || s != nil {
		t.Fatalf("New over a closed store: %v %v", s, err)
	}
}
