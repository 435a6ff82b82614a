// Package jsonfile places the problems of a JSON file that hostsim reads
// (profile files, the --tokens file) in the file: a syntax error at
// path:line:column where the parser stopped, a member at path:line of its
// name, each with its JSON Pointer — the form editors jump to.
package jsonfile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/takokit/takokit/catalog/wire"
)

// Problems rewrites err, from wire.DecodeStrict over data (the bytes of the
// file at path), one line per problem. Any other error is one line naming path.
func Problems(path string, data []byte, err error) []string {
	var se *wire.StrictError
	var je *wire.JSONError
	switch {
	case errors.As(err, &se):
		out := make([]string, len(se.Problems))
		for i, p := range se.Problems {
			out[i] = fmt.Sprintf("%s:%d: %s: %s", path, Line(data, Tokens(p.Pointer)), pointer(p.Pointer), p.Message)
		}
		return out
	case errors.As(err, &je) && je.Offset >= 0:
		line, col := Position(data, je.Offset)
		return []string{fmt.Sprintf("%s:%d:%d: %s: %s", path, line, col, pointer(je.Pointer), je.Message)}
	}
	return []string{fmt.Sprintf("%s: %v", path, err)}
}

// Join is one problem as it is, several as an indented list under the line
// that introduces them.
func Join(problems []string) string {
	if len(problems) == 1 {
		return problems[0]
	}
	return "\n  " + strings.Join(problems, "\n  ")
}

func pointer(p string) string {
	if p == "" {
		return "the document"
	}
	return p
}

// Position is the 1-based line and column (in characters) of byte offset in data.
func Position(data []byte, offset int) (line, col int) {
	offset = min(max(offset, 0), len(data))
	before := data[:offset]
	start := bytes.LastIndexByte(before, '\n') + 1
	return 1 + bytes.Count(before, []byte("\n")), 1 + utf8.RuneCount(before[start:])
}

// Tokens splits a JSON Pointer into its unescaped reference tokens.
func Tokens(p string) []string {
	if p == "" {
		return nil
	}
	parts := strings.Split(strings.TrimPrefix(p, "/"), "/")
	for i, t := range parts {
		parts[i] = strings.NewReplacer("~1", "/", "~0", "~").Replace(t)
	}
	return parts
}

// Line is the 1-based line of the member (or element) at ptr in data: the
// line of its name. 1 when it cannot be found.
func Line(data []byte, ptr []string) int {
	dec := json.NewDecoder(bytes.NewReader(data))
	at := func(off int64) int {
		n := 1 + bytes.Count(data[:off], []byte("\n"))
		for _, b := range data[off:] { // the separators and white space before the token
			switch b {
			case '\n':
				n++
			case ' ', '\t', '\r', ',', ':':
			default:
				return n
			}
		}
		return n
	}
	var walk func(path []string) (int, bool)
	walk = func(path []string) (int, bool) {
		tok, err := dec.Token()
		if err != nil {
			return 0, false
		}
		d, isDelim := tok.(json.Delim)
		if !isDelim {
			return 0, false
		}
		for i := 0; dec.More(); i++ {
			off := dec.InputOffset()
			p := append(slices.Clone(path), fmt.Sprint(i))
			if d == '{' {
				k, err := dec.Token()
				if err != nil {
					return 0, false
				}
				p[len(p)-1], _ = k.(string)
			}
			if slices.Equal(p, ptr) {
				return at(off), true
			}
			if n, ok := walk(p); ok {
				return n, true
			}
		}
		_, _ = dec.Token() // the closing delimiter
		return 0, false
	}
	if n, ok := walk(nil); ok {
		return n
	}
	return 1
}
