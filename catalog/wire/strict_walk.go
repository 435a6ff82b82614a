package wire

import (
	"fmt"
	"reflect"
	"strconv"
	"sync"
)

// walkRaw finds what walkStrict finds — unknown members and missing required
// ones — by walking the bytes of a document that passed CheckIJSON, without
// decoding it into generic values first. ok is false when a member name holds
// an escape: the generic walk then decides (names are compared unescaped).
func walkRaw(data []byte, t reflect.Type) (probs []JSONError, ok bool) {
	var buf [16]step
	w := &rawWalker{data: data, path: buf[:0]}
	w.ws()
	w.value(t)
	return w.probs, !w.escaped
}

// path is the JSON Pointer of where a scan is, kept as steps so that its
// text is built only when a problem needs it.
type path []step

// step is a member name (unescaped) or, when name is nil, an array index.
type step struct {
	name  []byte
	index int
}

func (p path) String() string {
	var b []byte
	for _, st := range p {
		b = append(b, '/')
		if st.name == nil {
			b = strconv.AppendInt(b, int64(st.index), 10)
		} else {
			b = append(b, EscapePointerToken(string(st.name))...)
		}
	}
	return string(b)
}

type rawWalker struct {
	data    []byte
	pos     int
	probs   []JSONError
	escaped bool
	path    path
}

func (w *rawWalker) ws() {
	for w.pos < len(w.data) {
		switch w.data[w.pos] {
		case ' ', '\t', '\r', '\n':
			w.pos++
		default:
			return
		}
	}
}

// str passes over a string at its opening quote and returns its raw bytes
// (escapes not undone) and whether it holds an escape.
func (w *rawWalker) str() (raw []byte, escaped bool) {
	w.pos++
	start := w.pos
	for w.data[w.pos] != '"' {
		if w.data[w.pos] == '\\' {
			escaped = true
			w.pos++ // the escaped character cannot end the string
		}
		w.pos++
	}
	w.pos++
	return w.data[start : w.pos-1], escaped
}

// name reads a member name; one with an escape leaves the walk undecided.
func (w *rawWalker) name() []byte {
	n, esc := w.str()
	w.escaped = w.escaped || esc
	return n
}

// skip passes over one value.
func (w *rawWalker) skip() {
	switch w.data[w.pos] {
	case '"':
		w.str()
	case '{', '[':
		depth := 0
		for {
			switch w.data[w.pos] {
			case '"':
				w.str()
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
			}
			w.pos++
			if depth == 0 {
				return
			}
		}
	default: // a number or a literal ends at a delimiter
		for w.pos < len(w.data) {
			switch w.data[w.pos] {
			case ',', '}', ']', ' ', '\t', '\r', '\n':
				return
			}
			w.pos++
		}
	}
}

// members walks an object at '{', calling fn for each member with the
// walker positioned at its value; fn must consume the value.
func (w *rawWalker) members(fn func(name []byte)) {
	w.pos++
	w.ws()
	if w.data[w.pos] == '}' {
		w.pos++
		return
	}
	for {
		w.ws()
		n := w.name()
		w.ws()
		w.pos++ // ':'
		w.ws()
		fn(n)
		w.ws()
		c := w.data[w.pos]
		w.pos++
		if c == '}' {
			return
		}
	}
}

func (w *rawWalker) value(t reflect.Type) {
	if t == nil || w.escaped {
		w.skip()
		return
	}
	ti := typeInfoOf(t)
	if ti.skip {
		w.skip()
		return
	}
	t = ti.t
	c := w.data[w.pos]
	switch {
	case t.Kind() == reflect.Struct && c == '{':
		fields := ti.fields
		var seen []bool
		if len(fields) <= 64 {
			var buf [64]bool
			seen = buf[:len(fields)]
		} else {
			seen = make([]bool, len(fields))
		}
		w.members(func(name []byte) {
			i := fieldIndex(fields, name)
			if i < 0 || w.escaped {
				if !w.escaped {
					w.path = append(w.path, step{name: name})
					w.probs = append(w.probs, JSONError{Pointer: w.path.String(), Offset: -1,
						Message: fmt.Sprintf("unknown member %q; this object is closed, so remove it or check its spelling", name)})
					w.path = w.path[:len(w.path)-1]
				}
				w.skip()
				return
			}
			seen[i] = true
			w.path = append(w.path, step{name: name})
			w.value(fields[i].typ)
			w.path = w.path[:len(w.path)-1]
		})
		for i, f := range fields {
			if f.required && !seen[i] {
				w.probs = append(w.probs, JSONError{Pointer: w.path.String(), Offset: -1,
					Message: fmt.Sprintf("required member %q is missing; add it", f.name)})
			}
		}
	case (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) && c == '[':
		w.pos++
		w.ws()
		if w.data[w.pos] == ']' {
			w.pos++
			return
		}
		for i := 0; ; i++ {
			w.ws()
			w.path = append(w.path, step{index: i})
			w.value(t.Elem())
			w.path = w.path[:len(w.path)-1]
			w.ws()
			c := w.data[w.pos]
			w.pos++
			if c == ']' {
				return
			}
		}
	case t.Kind() == reflect.Map && c == '{':
		w.members(func(name []byte) {
			w.path = append(w.path, step{name: name})
			w.value(t.Elem())
			w.path = w.path[:len(w.path)-1]
		})
	default:
		w.skip()
	}
}

// fieldIndex finds a member name among a struct's fields (exact match).
func fieldIndex(fields []structField, name []byte) int {
	for i, f := range fields {
		if f.name == string(name) {
			return i
		}
	}
	return -1
}

// typeInfo is what the walk needs of a type, found once: the type behind its
// pointers, whether it decodes itself (the walk then skips its value, as the
// generic walk does) and a struct's fields.
type typeInfo struct {
	t      reflect.Type
	skip   bool
	fields []structField
}

var typeInfos sync.Map // reflect.Type -> *typeInfo

func typeInfoOf(t reflect.Type) *typeInfo {
	if ti, ok := typeInfos.Load(t); ok {
		return ti.(*typeInfo)
	}
	ti := &typeInfo{t: t}
	for ti.t.Kind() == reflect.Pointer && !ti.skip {
		ti.skip = ti.t.Implements(unmarshalerType)
		ti.t = ti.t.Elem()
	}
	ti.skip = ti.skip || ti.t.Implements(unmarshalerType) || reflect.PointerTo(ti.t).Implements(unmarshalerType)
	if !ti.skip && ti.t.Kind() == reflect.Struct {
		ti.fields = cachedFields(ti.t)
	}
	typeInfos.Store(t, ti)
	return ti
}
