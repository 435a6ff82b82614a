package catalog

import (
	"testing"
)

// TestLookupsAnswerExactlyWhatWasAsked: every Interface, Binding and transition
// the embedded catalog declares is found by its own name and version (or
// marker, or from end), never by another's, and a name or version it does not
// declare is not found.
func TestLookupsAnswerExactlyWhatWasAsked(t *testing.T) {
	c, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	is, bs, ts := c.Interfaces(), c.Bindings(), c.Transitions()
	if len(is) < 2 || len(bs) < 2 || len(ts) < 2 {
		t.Fatalf("the embedded catalog has %d interfaces, %d bindings, %d transitions; the test needs two of each", len(is), len(bs), len(ts))
	}
	for _, want := range is {
		if got, ok := c.Interface(want.Ref.Name, want.Ref.Version); !ok || got != want {
			t.Errorf("Interface(%s, %s) = %v, %v", want.Ref.Name, want.Ref.Version, got, ok)
		}
		if _, ok := c.Interface(want.Ref.Name, want.Ref.Version+".9"); ok {
			t.Errorf("Interface(%s, %s.9) was found: a version must match exactly", want.Ref.Name, want.Ref.Version)
		}
		if _, ok := c.Interface(want.Ref.Name+"-none", want.Ref.Version); ok {
			t.Errorf("Interface(%s-none, %s) was found: a name must match exactly", want.Ref.Name, want.Ref.Version)
		}
	}
	for _, want := range bs {
		if got, ok := c.Binding(want.Ref.Name, want.Ref.Version); !ok || got != want {
			t.Errorf("Binding(%s, %s) = %v, %v", want.Ref.Name, want.Ref.Version, got, ok)
		}
		if _, ok := c.Binding(want.Ref.Name, want.Ref.Version+".9"); ok {
			t.Errorf("Binding(%s, %s.9) was found: a version must match exactly", want.Ref.Name, want.Ref.Version)
		}
		if _, ok := c.Binding(want.Ref.Name+"-none", want.Ref.Version); ok {
			t.Errorf("Binding(%s-none, %s) was found: a name must match exactly", want.Ref.Name, want.Ref.Version)
		}
	}
	for _, want := range ts {
		if got, ok := c.Transition(want.Marker); !ok || got != want {
			t.Errorf("Transition(%s) = %v, %v", want.Marker, got, ok)
		}
		from := c.TransitionsFrom(want.From)
		if len(from) == 0 || len(from) == len(ts) && !allFrom(ts, want) {
			t.Errorf("TransitionsFrom(%s) = %d transitions", want.From, len(from))
		}
		for _, f := range from {
			if f.From != want.From {
				t.Errorf("TransitionsFrom(%s) holds %s, from %s", want.From, f.Marker, f.From)
			}
		}
	}
	if _, ok := c.Transition("no-such-marker"); ok {
		t.Errorf("an unknown marker was found")
	}
}

// allFrom: every transition starts where want does.
func allFrom(ts []*Transition, want *Transition) bool {
	for _, t := range ts {
		if t.From != want.From {
			return false
		}
	}
	return true
}
