package rules

import (
	"strings"
	"testing"
)

// Every rule of asset lookup (docs/protocol.md#static-assets), each with a pathname
// it refuses or decides and a neighbour it lets through, under both notFoundHandling
// policies.
func TestLookupAsset(t *testing.T) {
	files := map[string]bool{"index.html": true, "app.js": true, "a/b.css": true, "A": true, "%41": true, "x%2Fy": true, "_x/y-z.1.txt": true}
	has := func(p string) bool { return files[p] }
	spa := AssetPolicy{Fallback: true, Index: "index.html"}
	none := AssetPolicy{Index: "index.html"}
	type want struct {
		outcome AssetOutcome
		serves  string
		says    string
	}
	for _, c := range []struct {
		rule, target string
		none, spa    want
	}{
		// the query and the fragment are ignored
		{"query ignored", "/app.js?v=3", want{AssetServed, "app.js", ""}, want{AssetServed, "app.js", ""}},
		{"fragment ignored", "/app.js#top", want{AssetServed, "app.js", ""}, want{AssetServed, "app.js", ""}},
		{"query of a missing path", "/nope?app.js", want{AssetMiss, "", "no file nope"}, want{AssetFallback, "index.html", "no file nope"}},
		// exactly one leading / is removed
		{"one leading slash", "/a/b.css", want{AssetServed, "a/b.css", ""}, want{AssetServed, "a/b.css", ""}},
		{"two leading slashes", "//a/b.css", want{AssetRefused, "", "empty or repeated"}, want{AssetRefused, "", "empty or repeated"}},
		{"no leading slash", "a/b.css", want{AssetRefused, "", "starts with /"}, want{AssetRefused, "", "starts with /"}},
		// the root is the canonical empty-path miss, with the same fallback
		{"root", "/", want{AssetMiss, "", "empty-path miss"}, want{AssetFallback, "index.html", "empty-path miss"}},
		{"root with a query", "/?q=1", want{AssetMiss, "", "empty-path miss"}, want{AssetFallback, "index.html", "empty-path miss"}},
		{"index by name", "/index.html", want{AssetServed, "index.html", ""}, want{AssetServed, "index.html", ""}},
		// percent-decoding happens exactly once
		{"escape decoded", "/%41", want{AssetServed, "A", ""}, want{AssetServed, "A", ""}},
		{"escape decoded once only", "/%2541", want{AssetRefused, "", "grammar"}, want{AssetRefused, "", "grammar"}},
		{"lowercase hex", "/a%2fb.css", want{AssetRefused, "", "encoded /"}, want{AssetRefused, "", "encoded /"}},
		// encoded / and \ are refused, a literal / separates
		{"encoded slash", "/a%2Fb.css", want{AssetRefused, "", "encoded /"}, want{AssetRefused, "", "encoded /"}},
		{"encoded backslash", "/a%5Cb.css", want{AssetRefused, "", "encoded \\"}, want{AssetRefused, "", "encoded \\"}},
		// backslashes are refused
		{"backslash", "/a\\b.css", want{AssetRefused, "", "backslash"}, want{AssetRefused, "", "backslash"}},
		// repeated or empty interior segments
		{"repeated slash", "/a//b.css", want{AssetRefused, "", "empty or repeated"}, want{AssetRefused, "", "empty or repeated"}},
		{"trailing slash", "/a/", want{AssetRefused, "", "empty or repeated"}, want{AssetRefused, "", "empty or repeated"}},
		{"single slashes", "/_x/y-z.1.txt", want{AssetServed, "_x/y-z.1.txt", ""}, want{AssetServed, "_x/y-z.1.txt", ""}},
		// dot segments, also encoded
		{"dot segment", "/a/./b.css", want{AssetRefused, "", "dot segment (.)"}, want{AssetRefused, "", "dot segment (.)"}},
		{"dot-dot segment", "/a/../app.js", want{AssetRefused, "", "dot segment (..)"}, want{AssetRefused, "", "dot segment (..)"}},
		{"encoded dot-dot", "/%2E%2E/app.js", want{AssetRefused, "", "dot segment (..)"}, want{AssetRefused, "", "dot segment (..)"}},
		{"dots inside a name", "/_x/y-z.1.txt", want{AssetServed, "_x/y-z.1.txt", ""}, want{AssetServed, "_x/y-z.1.txt", ""}},
		// controls (C0, DEL, C1)
		{"encoded NUL", "/app.js%00", want{AssetRefused, "", "control"}, want{AssetRefused, "", "control"}},
		{"encoded DEL", "/a%7F", want{AssetRefused, "", "control"}, want{AssetRefused, "", "control"}},
		{"encoded C1 control", "/a%C2%85", want{AssetRefused, "", "control"}, want{AssetRefused, "", "control"}},
		{"raw tab", "/a\tb", want{AssetRefused, "", "control"}, want{AssetRefused, "", "control"}},
		// Unicode noncharacters
		{"noncharacter U+FDD0", "/a%EF%B7%90", want{AssetRefused, "", "noncharacter"}, want{AssetRefused, "", "noncharacter"}},
		{"noncharacter U+FFFE", "/a%EF%BF%BE", want{AssetRefused, "", "noncharacter"}, want{AssetRefused, "", "noncharacter"}},
		{"noncharacter U+1FFFF", "/a%F0%9F%BF%BF", want{AssetRefused, "", "noncharacter"}, want{AssetRefused, "", "noncharacter"}},
		{"character U+FDCF is not one", "/a%EF%B7%8F", want{AssetRefused, "", "grammar"}, want{AssetRefused, "", "grammar"}},
		{"noncharacter U+FDEF, the last of the block", "/a%EF%B7%AF", want{AssetRefused, "", "noncharacter"}, want{AssetRefused, "", "noncharacter"}},
		{"character U+FDF0 is not one", "/a%EF%B7%B0", want{AssetRefused, "", "grammar"}, want{AssetRefused, "", "grammar"}},
		// malformed escapes
		{"escape without digits", "/a%", want{AssetRefused, "", "malformed percent-escape"}, want{AssetRefused, "", "malformed percent-escape"}},
		{"escape with one digit", "/a%4", want{AssetRefused, "", "malformed percent-escape"}, want{AssetRefused, "", "malformed percent-escape"}},
		{"escape not hex", "/a%zz", want{AssetRefused, "", "malformed percent-escape"}, want{AssetRefused, "", "malformed percent-escape"}},
		{"escape with a first digit not hex", "/a%z1", want{AssetRefused, "", "malformed percent-escape"}, want{AssetRefused, "", "malformed percent-escape"}},
		{"escape with a second digit not hex", "/a%1z", want{AssetRefused, "", "malformed percent-escape"}, want{AssetRefused, "", "malformed percent-escape"}},
		// invalid UTF-8 after decoding
		{"lone continuation byte", "/a%80", want{AssetRefused, "", "not valid UTF-8"}, want{AssetRefused, "", "not valid UTF-8"}},
		{"truncated sequence", "/a%C3", want{AssetRefused, "", "not valid UTF-8"}, want{AssetRefused, "", "not valid UTF-8"}},
		{"overlong slash", "/a%C0%AFb", want{AssetRefused, "", "not valid UTF-8"}, want{AssetRefused, "", "not valid UTF-8"}},
		{"valid UTF-8 outside the grammar", "/caf%C3%A9", want{AssetRefused, "", "grammar"}, want{AssetRefused, "", "grammar"}},
		// the manifest path grammar
		{"space", "/a%20b", want{AssetRefused, "", "grammar"}, want{AssetRefused, "", "grammar"}},
		{"segment starting with a dot", "/.env", want{AssetRefused, "", "grammar"}, want{AssetRefused, "", "grammar"}},
		{"longer than 240", "/" + strings.Repeat("a", 241), want{AssetRefused, "", "grammar"}, want{AssetRefused, "", "grammar"}},
		{"240 characters, missing", "/" + strings.Repeat("a", 240), want{AssetMiss, "", "no file"}, want{AssetFallback, "index.html", "no file"}},
		// a valid missing path is a miss, or the index under the fallback
		{"missing path", "/about", want{AssetMiss, "", "no file about"}, want{AssetFallback, "index.html", "no file about"}},
		{"missing nested path", "/app/settings/profile", want{AssetMiss, "", "no file app/settings/profile"}, want{AssetFallback, "index.html", ""}},
		// the decoded path is what is looked up, never the escaped one
		{"a file named like an escape", "/x%252Fy", want{AssetRefused, "", "grammar"}, want{AssetRefused, "", "grammar"}},
	} {
		for _, p := range []struct {
			name   string
			policy AssetPolicy
			want   want
		}{{"none", none, c.none}, {"single_page_application", spa, c.spa}} {
			got := LookupAsset(c.target, p.policy, has)
			if got.Outcome != p.want.outcome || got.Serves != p.want.serves || !strings.Contains(got.Reason, p.want.says) {
				t.Errorf("%s: %q under %s = %+v, want %s serving %q, saying %q", c.rule, c.target, p.name, got, p.want.outcome, p.want.serves, p.want.says)
			}
			if got.Outcome == AssetRefused && (got.Serves != "" || got.Path != "") {
				t.Errorf("%s: a refused pathname serves %q", c.rule, got.Serves)
			}
		}
	}
}

// A fallback needs nothing of the manifest: the index is served by path, and the
// caller (the SPA rule) guarantees the manifest declares it.
func TestLookupAssetNeverAsksForARefusedPath(t *testing.T) {
	asked := []string{}
	has := func(p string) bool { asked = append(asked, p); return false }
	for _, target := range []string{"/a/../b", "/a%2Fb", "/%ZZ", "//x", "/a\\b"} {
		LookupAsset(target, AssetPolicy{Fallback: true, Index: "index.html"}, has)
	}
	if len(asked) != 0 {
		t.Fatalf("refused pathnames reached the manifest: %v", asked)
	}
}
