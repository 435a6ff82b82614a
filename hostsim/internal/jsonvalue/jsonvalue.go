// Package jsonvalue decodes a JSON document that wire.CheckIJSON accepted into the
// values encoding/json's Decoder gives with UseNumber: map[string]any, []any, string,
// json.Number, bool and nil. It walks the bytes once, without reflection: a manifest one
// entry over a bundle ceiling of 16,384 is 1.5 MB, and encoding/json spent three
// quarters of its parse there (docs/decisions.md#test-time, "Session 32").
//
// Decode trusts what CheckIJSON proved (the grammar, UTF-8, no duplicate member) only
// as far as it must: a document it cannot read the way it expects is decoded by
// encoding/json instead, so an error and its text are encoding/json's.
package jsonvalue

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"

	"github.com/takokit/takokit/catalog/wire"
)

// Decode is the value of data, as json.Decoder with UseNumber decodes it.
func Decode(data []byte) (any, error) {
	d := decoder{data: data}
	d.ws()
	v, ok := d.value()
	if d.ws(); ok && d.pos == len(d.data) {
		return v, nil
	}
	return slow(data)
}

// slow is encoding/json's decode of data: the values and errors Decode stands for
// (wire.DecodeNumbers: bytes after the value, a stray closing bracket included, are
// wire.ErrTrailingData).
func slow(data []byte) (any, error) {
	var v any
	if err := wire.DecodeNumbers(data, &v); err != nil {
		return nil, err
	}
	return v, nil
}

type decoder struct {
	data  []byte
	pos   int
	depth int // objects and arrays open at pos
}

// maxDepth is how deep objects and arrays nest before the document is left to
// encoding/json, which refuses nesting past 10,000.
const maxDepth = 10000

func (d *decoder) ws() {
	for d.pos < len(d.data) {
		switch d.data[d.pos] {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return
		}
	}
}

// value reads the value at pos; false when it is not one this decoder reads.
func (d *decoder) value() (any, bool) {
	if d.pos >= len(d.data) {
		return nil, false
	}
	switch c := d.data[d.pos]; {
	case c == '{':
		return d.object()
	case c == '[':
		return d.array()
	case c == '"':
		if s, ok := d.str(); ok {
			return s, true
		}
		return nil, false
	case c == '-' || '0' <= c && c <= '9':
		return d.number()
	default:
		for _, l := range literals {
			if bytes.HasPrefix(d.data[d.pos:], l.text) {
				d.pos += len(l.text)
				return l.v, true
			}
		}
		return nil, false
	}
}

var literals = []struct {
	text []byte
	v    any
}{{[]byte("true"), true}, {[]byte("false"), false}, {[]byte("null"), nil}}

func (d *decoder) object() (any, bool) {
	m := map[string]any{}
	ok := d.elements('}', func() bool {
		if !d.at('"') {
			return false
		}
		k, ok := d.str()
		if d.ws(); !ok || !d.at(':') {
			return false
		}
		d.pos++
		d.ws()
		v, ok := d.value()
		m[k] = v
		return ok
	})
	return m, ok
}

func (d *decoder) array() (any, bool) {
	a := []any{}
	ok := d.elements(']', func() bool {
		v, ok := d.value()
		a = append(a, v)
		return ok
	})
	return a, ok
}

// elements reads the members of the object or the elements of the array whose opening
// bracket is at pos, one call of each per element, up to close; false when the text is
// not that, or nests deeper than maxDepth.
func (d *decoder) elements(close byte, each func() bool) bool {
	if d.depth++; d.depth > maxDepth {
		return false
	}
	defer func() { d.depth-- }()
	d.pos++ // the opening bracket
	if d.ws(); d.at(close) {
		d.pos++
		return true
	}
	for {
		d.ws()
		if !each() {
			return false
		}
		switch d.ws(); {
		case d.at(','):
			d.pos++
		case d.at(close):
			d.pos++
			return true
		default:
			return false
		}
	}
}

// at is whether the byte at pos is c.
func (d *decoder) at(c byte) bool { return d.pos < len(d.data) && d.data[d.pos] == c }

// str reads a string. One with an escape is encoding/json's to unquote.
func (d *decoder) str() (string, bool) {
	start := d.pos + 1
	for i := start; i < len(d.data); i++ {
		switch c := d.data[i]; {
		case c == '"':
			raw := d.data[start:i]
			if !utf8.Valid(raw) {
				return "", false
			}
			d.pos = i + 1
			return string(raw), true
		case c == '\\':
			return d.escaped()
		case c < 0x20:
			return "", false
		}
	}
	return "", false
}

// escaped reads a string holding an escape through encoding/json.
func (d *decoder) escaped() (string, bool) {
	end := d.pos + 1
	for end < len(d.data) && d.data[end] != '"' {
		if d.data[end] == '\\' {
			end++
		}
		end++
	}
	if end >= len(d.data) {
		return "", false
	}
	var s string
	if json.Unmarshal(d.data[d.pos:end+1], &s) != nil {
		return "", false
	}
	d.pos = end + 1
	return s, true
}

// number reads a number's text as json.Number, when it has the grammar's shape:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (d *decoder) number() (any, bool) {
	start, i := d.pos, d.pos
	digits := func() int {
		n := 0
		for i < len(d.data) && '0' <= d.data[i] && d.data[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if d.data[i] == '-' {
		i++
	}
	switch n := digits(); {
	case n == 0, n > 1 && d.data[i-n] == '0':
		return nil, false
	}
	if i < len(d.data) && d.data[i] == '.' {
		i++
		if digits() == 0 {
			return nil, false
		}
	}
	if i < len(d.data) && (d.data[i] == 'e' || d.data[i] == 'E') {
		i++
		if i < len(d.data) && (d.data[i] == '+' || d.data[i] == '-') {
			i++
		}
		if digits() == 0 {
			return nil, false
		}
	}
	d.pos = i
	return json.Number(d.data[start:i]), true
}
