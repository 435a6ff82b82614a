package profile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An unknown profile name, given directly or as a file's extends, gets the
// closest built-in name and the list of all of them; the file's extends is
// placed at its line.
func TestUnknownProfileSuggestsTheClosestBuiltin(t *testing.T) {
	dir := t.TempDir()
	child := filepath.Join(dir, "child.json")
	os.WriteFile(child, []byte("{\"name\": \"child\",\n \"extends\": \"kv-onyl\"}"), 0o644)
	far := filepath.Join(dir, "far.json")
	os.WriteFile(far, []byte(`{"name": "far", "extends": "zzzzzzzz"}`), 0o644)
	all := "built-in profiles are: " + strings.Join(BuiltinNames, ", ")
	for _, tc := range []struct {
		ref      string
		want     []string
		wantNone string
	}{
		{"ful", []string{`unknown profile "ful" (did you mean "full"?)`, all}, ""},
		{child, []string{child + `:2: /extends: unknown profile "kv-onyl" (did you mean "kv-only"?)`, all}, ""},
		{far, []string{far + `:1: /extends: unknown profile "zzzzzzzz"; ` + all}, "did you mean"},
	} {
		_, err := Load(tc.ref)
		if err == nil {
			t.Fatalf("Load(%s) accepted", tc.ref)
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("Load(%s): %v\ndoes not say %q", tc.ref, err, w)
			}
		}
		if tc.wantNone != "" && strings.Contains(err.Error(), tc.wantNone) {
			t.Errorf("Load(%s): %v guesses a name nothing is close to", tc.ref, err)
		}
	}
}

// A profile file that is not JSON names file:line:column where the parser
// stopped; a member problem names file:line and its JSON Pointer.
func TestProfileFileProblemsArePlaced(t *testing.T) {
	dir := t.TempDir()
	for name, tc := range map[string]struct{ data, want string }{
		"broken.json":  {"{\"name\": \"broken\", \"extends\": \"full\",\n", ":2:1: the document: expected a member name"},
		"missing.json": {"{\"name\": \"m\",\n \"support\": \"served\"\n \"extends\": \"full\"}", `:3:2: the document: expected ',' or '}'`},
		"colour.json":  {"{\"name\": \"odd\",\n \"extends\": \"full\",\n \"colour\": \"blue\"}", `:3: /colour: unknown member "colour"`},
	} {
		path := filepath.Join(dir, name)
		os.WriteFile(path, []byte(tc.data), 0o644)
		_, err := Load(path)
		if err == nil || !strings.Contains(err.Error(), "profile file "+path+" does not parse") || !strings.Contains(err.Error(), path+tc.want) {
			t.Errorf("Load(%s): %v\nwant %q", name, err, path+tc.want)
		}
	}
}
