package rules

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/takokit/takokit/catalog/wire"
)

// Asset lookup (docs/protocol.md#static-assets): how a Worker Version with assets
// maps the pathname of a runtime request URL to a path of its StaticAssetBundle's
// manifest. It is one closed, pure operation; hostsim serves no application traffic,
// so it answers through the admin API (GET /_sim/assets/{uid}) and its tests.

// AssetOutcome is what asset lookup does with one pathname.
type AssetOutcome string

const (
	// AssetServed: the pathname names a file of the manifest, which answers.
	AssetServed AssetOutcome = "served"
	// AssetFallback: a valid pathname the manifest lacks (or the root) under the
	// single-page-application handling answers with the index.
	AssetFallback AssetOutcome = "fallback"
	// AssetMiss: a valid pathname the manifest lacks (or the root) without a
	// fallback: asset lookup produces no response.
	AssetMiss AssetOutcome = "miss"
	// AssetRefused: the pathname is not a valid manifest path; lookup fails closed
	// and never falls back.
	AssetRefused AssetOutcome = "refused"
)

// AssetPolicy is what a version's assets say about missing paths.
type AssetPolicy struct {
	Fallback bool   // notFoundHandling answers a missing path with Index
	Index    string // the index path, "index.html"
}

// AssetLookup is the outcome of looking one pathname up.
type AssetLookup struct {
	Outcome AssetOutcome
	Path    string // the decoded manifest path ("" for the root and for a refusal)
	Serves  string // the manifest path that answers: Path, the index, or ""
	Reason  string // why the pathname was refused or missed
}

// LookupAsset maps target — the escaped pathname of a request URL, with any query
// or fragment, which is ignored — to a manifest path: the pathname is
// percent-decoded exactly once as strict UTF-8 and exactly one leading "/" is
// removed; an encoded "/" or "\", a backslash, an empty or repeated segment, a dot
// segment, a control, a Unicode noncharacter, a malformed escape or invalid UTF-8
// refuses it, and so does a path outside the manifest path grammar. A refused path
// never falls back. A valid path has names a declared file; "/" is the canonical
// empty-path miss; a miss falls back to the index only under policy.Fallback.
func LookupAsset(target string, policy AssetPolicy, has func(path string) bool) AssetLookup {
	if i := strings.IndexAny(target, "?#"); i >= 0 {
		target = target[:i]
	}
	path, why := decodePathname(target)
	if why != "" {
		return AssetLookup{Outcome: AssetRefused, Reason: why}
	}
	if path != "" {
		if why := refusedPath(path); why != "" {
			return AssetLookup{Outcome: AssetRefused, Reason: why}
		}
		if has(path) {
			return AssetLookup{Outcome: AssetServed, Path: path, Serves: path}
		}
	}
	missing := "the root pathname is the canonical empty-path miss"
	if path != "" {
		missing = "the manifest declares no file " + path
	}
	if policy.Fallback {
		return AssetLookup{Outcome: AssetFallback, Path: path, Serves: policy.Index, Reason: missing + "; it falls back to " + policy.Index}
	}
	return AssetLookup{Outcome: AssetMiss, Path: path, Reason: missing}
}

// decodePathname percent-decodes an escaped pathname once and removes its one
// leading "/"; why says what refused it.
func decodePathname(p string) (path, why string) {
	if !strings.HasPrefix(p, "/") {
		return "", "a pathname starts with /"
	}
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c == '\\' {
			return "", "a backslash is not a path separator"
		}
		if c != '%' {
			b.WriteByte(c)
			continue
		}
		if i+2 >= len(p) || !isHex(p[i+1]) || !isHex(p[i+2]) {
			return "", "a malformed percent-escape at byte " + strconv.Itoa(i)
		}
		d := unhex(p[i+1])<<4 | unhex(p[i+2])
		switch d {
		case '/':
			return "", "an encoded / (%2F) would hide a segment boundary"
		case '\\':
			return "", "an encoded \\ (%5C) is refused"
		}
		b.WriteByte(d)
		i += 2
	}
	s := b.String()
	if !utf8.ValidString(s) {
		return "", "the decoded pathname is not valid UTF-8"
	}
	return s[1:], ""
}

// refusedPath checks a decoded, non-empty path; why says what refused it.
func refusedPath(path string) string {
	for _, seg := range strings.Split(path, "/") {
		switch seg {
		case "":
			return "an empty or repeated / segment"
		case ".", "..":
			return "a dot segment (" + seg + ")"
		}
	}
	for _, r := range path {
		switch {
		case unicode.IsControl(r):
			return "a control character"
		case noncharacter(r):
			return "a Unicode noncharacter"
		}
	}
	if !wire.ValidArtifactPath(path) {
		return "the path does not match the manifest path grammar (1..240 characters of letters, digits, ., _ and - in / segments that start with a letter, digit or _)"
	}
	return ""
}

// noncharacter reports the 66 Unicode noncharacters: U+FDD0..U+FDEF and the last two
// code points of every plane.
func noncharacter(r rune) bool {
	return r >= 0xFDD0 && r <= 0xFDEF || r&0xFFFE == 0xFFFE
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c >= 'a':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}
