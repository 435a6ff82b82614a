package rules

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// HandlerVocabulary is the handler vocabulary of the worker runtime contract, in its
// order; the scanner reports only these names.
var HandlerVocabulary = []string{"fetch", "scheduled", "queue"}

// ScannableMediaTypes are the module media types the export scanner reads; any other
// module exports nothing (docs/protocol.md#artifacts step 1).
var ScannableMediaTypes = []string{"application/javascript+module", "text/plain"}

// ExportedHandlers runs the lexical scanner of docs/protocol.md#artifacts (not a JavaScript
// parser, docs/protocol.md) over a module's bytes and returns the exported handler names among
// HandlerVocabulary, in vocabulary order. A module of another media type, with bytes
// that are not UTF-8, without an `export default {` object, or that the scanner cannot
// walk to its matching `}` (unterminated literal, comment or bracket, mismatched
// brackets) exports nothing.
func ExportedHandlers(mediaType string, module []byte) []string {
	if !slices.Contains(ScannableMediaTypes, mediaType) || !utf8.Valid(module) {
		return nil
	}
	s := &exportScanner{b: module}
	open := s.findExportDefault()
	if open < 0 {
		return nil
	}
	names, ok := s.members(open)
	if !ok {
		return nil
	}
	var out []string
	for _, h := range HandlerVocabulary {
		if slices.Contains(names, h) {
			out = append(out, h)
		}
	}
	return out
}

// CheckHandlersExported refuses (invalid_argument at pointer) every declared handler the
// main module does not export; module describes where the exports were read from, e.g.
// `main module "index.js" of WorkerBundle "web"`.
func CheckHandlersExported(pointer string, declared, exported []string, module string) *Refusal {
	var missing []string
	for _, h := range declared {
		if !slices.Contains(exported, h) {
			missing = append(missing, fmt.Sprintf("%q", h))
		}
	}
	if len(missing) == 0 {
		return nil
	}
	ex := "nothing"
	if len(exported) > 0 {
		ex = `"` + strings.Join(exported, `", "`) + `"`
	}
	return invalid(pointer, "%s: declared handler(s) %s not exported by %s, which exports %s; "+
		"declare only handlers the module's `export default { … }` object defines, or upload a bundle exporting them",
		pointer, strings.Join(missing, ", "), module, ex)
}

type exportScanner struct{ b []byte }

func (s *exportScanner) runeAt(i int) (rune, int) {
	if i >= len(s.b) {
		return utf8.RuneError, 0
	}
	return utf8.DecodeRune(s.b[i:])
}

func isJSSpace(r rune) bool { return unicode.IsSpace(r) || r == '\uFEFF' }

func isIdentStart(r rune) bool { return r == '_' || r == '$' || unicode.IsLetter(r) }

func isIdentPart(r rune) bool { return isIdentStart(r) || unicode.IsDigit(r) }

// skipTrivia returns the end of the comment or literal starting at i, i when none
// starts there, and -1 when it is unterminated.
func (s *exportScanner) skipTrivia(i int) int {
	b := s.b
	if i >= len(b) {
		return i
	}
	switch b[i] {
	case '/':
		if i+1 < len(b) && b[i+1] == '/' {
			for j := i + 2; j < len(b); j++ {
				if b[j] == '\n' || b[j] == '\r' {
					return j
				}
			}
			return len(b)
		}
		if i+1 < len(b) && b[i+1] == '*' {
			if k := strings.Index(string(b[i+2:]), "*/"); k >= 0 {
				return i + 2 + k + 2
			}
			return -1
		}
	case '\'', '"', '`':
		q := b[i]
		for j := i + 1; j < len(b); j++ {
			switch b[j] {
			case '\\':
				j++
			case q:
				return j + 1
			}
		}
		return -1
	}
	return i
}

// skipSpace skips whitespace and, when comments is true, comments too.
func (s *exportScanner) skipSpace(i int, comments bool) int {
	for i < len(s.b) {
		r, n := s.runeAt(i)
		if isJSSpace(r) {
			i += n
			continue
		}
		if comments && s.b[i] == '/' && i+1 < len(s.b) && (s.b[i+1] == '/' || s.b[i+1] == '*') {
			j := s.skipTrivia(i)
			if j < 0 {
				return len(s.b)
			}
			i = j
			continue
		}
		return i
	}
	return i
}

func (s *exportScanner) word(i int) (string, int) {
	j := i
	for j < len(s.b) {
		r, n := s.runeAt(j)
		if !(isIdentPart(r) || j == i && isIdentStart(r)) {
			break
		}
		j += n
	}
	return string(s.b[i:j]), j
}

// findExportDefault returns the index of the `{` of the first `export default {`
// outside comments and literals, or -1.
func (s *exportScanner) findExportDefault() int {
	b := s.b
	prevIdent := false
	for i := 0; i < len(b); {
		if j := s.skipTrivia(i); j != i {
			if j < 0 {
				return -1
			}
			i, prevIdent = j, false
			continue
		}
		r, n := s.runeAt(i)
		if !prevIdent && isIdentStart(r) {
			w, end := s.word(i)
			if w == "export" {
				if open := s.afterExport(end); open >= 0 {
					return open
				}
			}
			i, prevIdent = end, true
			continue
		}
		prevIdent = isIdentPart(r)
		i += n
	}
	return -1
}

// afterExport matches whitespace, `default`, optional whitespace and `{` at i.
func (s *exportScanner) afterExport(i int) int {
	j := s.skipSpace(i, false)
	if j == i {
		return -1
	}
	w, end := s.word(j)
	if w != "default" {
		return -1
	}
	k := s.skipSpace(end, false)
	if k < len(s.b) && s.b[k] == '{' {
		return k
	}
	return -1
}

// members walks from the `{` at open to its matching `}` and returns the names of the
// depth-1 members followed by `(` or `:`. ok is false when the walk cannot finish.
func (s *exportScanner) members(open int) (names []string, ok bool) {
	stack := []byte{'}'}
	expect := true
	for i := open + 1; i < len(s.b); {
		if expect && len(stack) == 1 {
			expect = false
			name, next := s.member(i)
			if name != "" {
				names = append(names, name)
			}
			i = next
			continue
		}
		if j := s.skipTrivia(i); j != i {
			if j < 0 {
				return nil, false
			}
			i = j
			continue
		}
		switch c := s.b[i]; c {
		case '{':
			stack = append(stack, '}')
		case '(':
			stack = append(stack, ')')
		case '[':
			stack = append(stack, ']')
		case '}', ')', ']':
			if stack[len(stack)-1] != c {
				return nil, false
			}
			stack = stack[:len(stack)-1]
			if len(stack) == 0 {
				return names, true
			}
		case ',':
			expect = len(stack) == 1
		}
		i++
	}
	return nil, false
}

// member reads one member head at i: optional `async`, optional `*`, then an
// identifier or quoted name that counts when followed by optional whitespace and `(`
// or `:`. It returns the counted name ("" when none) and where scanning resumes.
func (s *exportScanner) member(i int) (string, int) {
	i = s.skipSpace(i, true)
	if i >= len(s.b) {
		return "", i
	}
	r, _ := s.runeAt(i)
	if isIdentStart(r) {
		w, end := s.word(i)
		if w == "async" {
			if k := s.skipSpace(end, true); k < len(s.b) && s.b[k] != '(' && s.b[k] != ':' {
				i = k
			}
		}
	}
	if i < len(s.b) && s.b[i] == '*' {
		i = s.skipSpace(i+1, true)
	}
	if i >= len(s.b) {
		return "", i
	}
	var name string
	var end int
	switch r, _ := s.runeAt(i); {
	case r == '\'' || r == '"':
		end = s.skipTrivia(i)
		if end < 0 {
			return "", len(s.b)
		}
		name = string(s.b[i+1 : end-1])
	case isIdentStart(r):
		name, end = s.word(i)
	default:
		return "", i
	}
	k := s.skipSpace(end, false)
	if k < len(s.b) && (s.b[k] == '(' || s.b[k] == ':') {
		return name, end
	}
	return "", end
}
