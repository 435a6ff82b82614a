package rules

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestClipsKeepTheirBoundAndWholeCharacters: a hostReason of exactly its bound
// is kept; longer is cut to the bound, never inside a character.
func TestClipsKeepTheirBoundAndWholeCharacters(t *testing.T) {
	exact := strings.Repeat("a", MaxHostReason)
	if got := ClipHostReason(exact); got != exact {
		t.Errorf("a hostReason of exactly %d bytes was cut to %d", MaxHostReason, len(got))
	}
	if got := ClipHostReason(exact + "b"); got != exact {
		t.Errorf("%d bytes: cut to %d, want the first %d", MaxHostReason+1, len(got), MaxHostReason)
	}
	// "é" is two bytes: the 256th byte is the first half of one
	straddle := strings.Repeat("a", MaxHostReason-1) + "é"
	if got := ClipHostReason(straddle); got != strings.Repeat("a", MaxHostReason-1) || !utf8.ValidString(got) {
		t.Errorf("a character across the bound: got %d bytes (valid %v), want the %d before it", len(got), utf8.ValidString(got), MaxHostReason-1)
	}
	if exact := strings.Repeat("a", MaxMessage); clip(exact) != exact {
		t.Errorf("a message of exactly %d bytes was changed", MaxMessage)
	}
	long := strings.Repeat("a", MaxMessage-len("…")-1) + "é" + strings.Repeat("b", 10)
	if got := clip(long); !strings.HasSuffix(got, "a…") || !utf8.ValidString(got) || len(got) > MaxMessage {
		t.Errorf("a long message with a character across the cut: %d bytes, valid %v, ends %q", len(got), utf8.ValidString(got), got[len(got)-8:])
	}
}

// TestDependencyInUseListsHoldersWithinItsBound: few holders are all named;
// so many that the list would pass its bound are named up to it, then
// counted ("and N more").
func TestDependencyInUseListsHoldersWithinItsBound(t *testing.T) {
	few := []Holder{{"Worker", "a", "/x"}, {"Worker", "b", "/y"}}
	if r := DependencyInUse(`Store "s"`, few); !strings.Contains(r.Message, `Worker "a" at /x, Worker "b" at /y;`) {
		t.Errorf("two holders: %s", r.Message)
	}
	var many []Holder
	for i := range 400 {
		many = append(many, Holder{"Worker", fmt.Sprintf("worker-%03d", i), "/spec/x"})
	}
	r := DependencyInUse(`Store "s"`, many)
	items := strings.Count(r.Message, "Worker ")
	if !strings.Contains(r.Message, fmt.Sprintf(" and %d more", 400-items)) || items == 0 || items == 400 {
		t.Fatalf("400 holders: %d named, message %d bytes: ...%s", items, len(r.Message), r.Message[len(r.Message)-60:])
	}
	// 112 entries of 32 bytes fill the bound exactly: the 112th, ending on it, is named
	per := len(`Worker "worker-000" at /spec/x, `)
	if want := (MaxMessage - 512) / per; items != want {
		t.Errorf("400 holders: %d named, want %d (as many as fit in %d bytes)", items, want, MaxMessage-512)
	}
	// a list just over its bound (and under the message's) is cut too
	over := many[:(MaxMessage-512)/per+5]
	if r := DependencyInUse(`Store "s"`, over); !strings.Contains(r.Message, " and ") || strings.Count(r.Message, "Worker ") == len(over) {
		t.Errorf("%d holders (%d bytes listed): not cut", len(over), len(over)*per)
	}
	// a list of exactly its bound is named whole
	var exact []string
	for i := 0; i < 4; i++ {
		exact = append(exact, strings.Repeat("x", (MaxMessage-512-6)/4))
	}
	exact[3] += strings.Repeat("x", MaxMessage-512-len(strings.Join(exact, ", ")))
	if got := clipList(exact); len(strings.Join(exact, ", ")) != MaxMessage-512 || got != strings.Join(exact, ", ") {
		t.Errorf("a list of exactly %d bytes: %d bytes back, ends %q", MaxMessage-512, len(got), got[len(got)-12:])
	}
}

// A string with no character boundary in reach (UTF-8 continuation bytes
// only) is cut to nothing, never read before its start.
func TestClipsOfBytesThatAreNoCharacters(t *testing.T) {
	junk := strings.Repeat("\x80", MaxMessage+10)
	if got := ClipHostReason(junk); got != "" {
		t.Errorf("hostReason of continuation bytes only: %d bytes back, want none", len(got))
	}
	if got := clip(junk); got != "…" {
		t.Errorf("message of continuation bytes only: %d bytes back, want only the ellipsis", len(got))
	}
}
