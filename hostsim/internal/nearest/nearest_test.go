package nearest

import "testing"

// TestSuggestNamesTheClosestWithinTwoEdits: the closest known name within two
// edits (case aside) is suggested, the first of equals; none beyond two.
func TestSuggestNamesTheClosestWithinTwoEdits(t *testing.T) {
	known := []string{"WorkerVersion", "WorkerBundle", "store.fail", "store.read-fail"}
	for _, c := range []struct{ s, want string }{
		{"WorkerVersoin", ` (did you mean "WorkerVersion"?)`},
		{"workerbundle", ` (did you mean "WorkerBundle"?)`},
		{"store.fial", ` (did you mean "store.fail"?)`},
		{"store.read-fial", ` (did you mean "store.read-fail"?)`},
		{"store.fa", ` (did you mean "store.fail"?)`},
		{"store.f", ""},
		{"Queue", ""},
	} {
		if got := Suggest(c.s, known); got != c.want {
			t.Errorf("Suggest(%q) = %q, want %q", c.s, got, c.want)
		}
	}
	if d := distance("kitten", "sitting"); d != 3 {
		t.Errorf("distance(kitten, sitting) = %d, want 3", d)
	}
}
