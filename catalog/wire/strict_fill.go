package wire

import (
	"encoding"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"sync"
)

// fillRaw stores data, a document that passed CheckIJSON and the raw walk without a
// problem, into v (a non-nil pointer) as json.Unmarshal would, walking the bytes once
// instead of json's validity scan and decode. It knows the shapes the lane's request
// documents are made of: structs of plainly tagged fields, strings, booleans, integers,
// json.RawMessage, pointers, slices and maps keyed by string. ok is false the moment it
// meets anything else (a null, a float, an escaped member name, an integer out of range,
// a type that decodes itself, a value of another JSON type than its field's): what it
// stored until then is what json.Unmarshal stores too, and the caller lets
// json.Unmarshal decode the whole document, so json stays the reference for everything
// past the common case (strict_fill_test.go holds the two equal on random documents).
func fillRaw(data []byte, v any) (ok bool) {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return false
	}
	f := filler{rawWalker{data: data}}
	f.ws()
	if !f.value(rv.Elem()) {
		return false
	}
	f.ws()
	return f.pos == len(f.data)
}

// filler walks the bytes as the raw walk does (its ws, str and skip), storing as it goes.
type filler struct {
	rawWalker
}

var rawMessageType = reflect.TypeFor[json.RawMessage]()

// value stores the value at f.pos into v (addressable), passing over it.
func (f *filler) value(v reflect.Value) bool {
	if f.pos >= len(f.data) {
		return false
	}
	t := v.Type()
	if t == rawMessageType {
		start := f.pos
		if f.data[f.pos] == 'n' {
			return false // json hands a null to UnmarshalJSON: let it
		}
		f.skip()
		v.SetBytes(append(v.Bytes()[:0], f.data[start:f.pos]...))
		return true
	}
	if !fillable(t) {
		return false
	}
	c := f.data[f.pos]
	switch t.Kind() {
	case reflect.String:
		s, ok := f.stringValue()
		if ok {
			v.SetString(s)
		}
		return ok
	case reflect.Bool:
		switch {
		case c == 't' && f.literal("true"):
			v.SetBool(true)
			return true
		case c == 'f' && f.literal("false"):
			v.SetBool(false)
			return true
		}
		return false
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, ok := f.integer()
		if !ok {
			return false
		}
		i, err := strconv.ParseInt(n, 10, t.Bits())
		if err != nil {
			return false
		}
		v.SetInt(i)
		return true
	case reflect.Pointer:
		if c == 'n' {
			return false
		}
		if v.IsNil() {
			v.Set(reflect.New(t.Elem()))
		}
		return f.value(v.Elem())
	case reflect.Struct:
		if c != '{' {
			return false
		}
		fields := fillFieldsOf(t)
		if fields == nil {
			return false
		}
		return f.members(func(name []byte) bool {
			fd, ok := fields[string(name)]
			if !ok {
				return false
			}
			return f.value(v.FieldByIndex(fd))
		})
	case reflect.Map:
		if c != '{' || t.Key() != stringType {
			return false
		}
		if v.IsNil() {
			v.Set(reflect.MakeMap(t))
		}
		elem := reflect.New(t.Elem()).Elem()
		return f.members(func(name []byte) bool {
			elem.SetZero()
			if !f.value(elem) {
				return false
			}
			v.SetMapIndex(reflect.ValueOf(string(name)), elem)
			return true
		})
	case reflect.Slice:
		// as json's array decode does: elements decode into what the slice holds, and
		// the slice is cut to the elements read; an empty array is a new empty slice
		if c != '[' {
			return false
		}
		f.pos++
		f.ws()
		if f.data[f.pos] == ']' {
			f.pos++
			v.Set(reflect.MakeSlice(t, 0, 0))
			return true
		}
		for i := 0; ; i++ {
			f.ws()
			if i >= v.Cap() {
				v.Grow(1)
			}
			if i >= v.Len() {
				v.SetLen(i + 1)
			}
			if !f.value(v.Index(i)) {
				return false
			}
			f.ws()
			c := f.data[f.pos]
			f.pos++
			if c == ']' {
				v.SetLen(i + 1)
				return true
			}
		}
	}
	return false
}

// members walks an object at '{', calling fn with f at each member's value; a member
// name holding an escape ends the fill.
func (f *filler) members(fn func(name []byte) bool) bool {
	f.pos++
	f.ws()
	if f.data[f.pos] == '}' {
		f.pos++
		return true
	}
	for {
		f.ws()
		if f.data[f.pos] != '"' {
			return false
		}
		name, escaped := f.str()
		if escaped {
			return false
		}
		f.ws()
		f.pos++ // ':'
		f.ws()
		if !fn(name) {
			return false
		}
		f.ws()
		c := f.data[f.pos]
		f.pos++
		if c == '}' {
			return true
		}
	}
}

// stringValue reads a string value; one holding escapes is unescaped by json itself.
func (f *filler) stringValue() (string, bool) {
	if f.data[f.pos] != '"' {
		return "", false
	}
	start := f.pos
	b, escaped := f.str()
	if !escaped {
		return string(b), true
	}
	var s string
	if err := json.Unmarshal(f.data[start:f.pos], &s); err != nil {
		return "", false
	}
	return s, true
}

// literal passes over word at f.pos.
func (f *filler) literal(word string) bool {
	if string(f.data[f.pos:min(len(f.data), f.pos+len(word))]) != word {
		return false
	}
	f.pos += len(word)
	return true
}

// integer reads a number made of an optional minus and digits only.
func (f *filler) integer() (string, bool) {
	start := f.pos
	if f.data[f.pos] == '-' {
		f.pos++
	}
	digits := f.pos
	for f.pos < len(f.data) && f.data[f.pos] >= '0' && f.data[f.pos] <= '9' {
		f.pos++
	}
	if f.pos == digits {
		return "", false
	}
	if f.pos < len(f.data) {
		switch f.data[f.pos] {
		case '.', 'e', 'E':
			return "", false
		}
	}
	return string(f.data[start:f.pos]), true
}

var (
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
	numberType          = reflect.TypeFor[json.Number]()
	stringType          = reflect.TypeFor[string]()
)

var fillableTypes sync.Map // reflect.Type -> bool

// fillable says whether a type may be filled here: not json.Number, not one that
// decodes itself.
func fillable(t reflect.Type) bool {
	if ok, found := fillableTypes.Load(t); found {
		return ok.(bool)
	}
	pt := reflect.PointerTo(t)
	ok := t != numberType && // a string json fills from numbers alone
		!t.Implements(unmarshalerType) && !t.Implements(textUnmarshalerType) &&
		!pt.Implements(unmarshalerType) && !pt.Implements(textUnmarshalerType)
	fillableTypes.Store(t, ok)
	return ok
}

// fillFields maps a struct type's member names to field index paths, or holds nil
// for a struct the fill leaves to json (an embedded pointer, a ",string" option,
// two fields under one name).
var fillFields sync.Map // reflect.Type -> map[string][]int

func fillFieldsOf(t reflect.Type) map[string][]int {
	if m, ok := fillFields.Load(t); ok {
		return m.(map[string][]int)
	}
	m := map[string][]int{}
	if !collectFields(t, nil, m) {
		m = nil
	}
	fillFields.Store(t, m)
	return m
}

func collectFields(t reflect.Type, index []int, into map[string][]int) bool {
	for i := range t.NumField() {
		sf := t.Field(i)
		tag := sf.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if strings.Contains(","+opts+",", ",string,") {
			return false
		}
		at := append(append([]int(nil), index...), i)
		if sf.Anonymous && name == "" {
			if sf.Type.Kind() != reflect.Struct {
				return false // an embedded pointer, or a non-struct: json's rules there are its own
			}
			if !collectFields(sf.Type, at, into) {
				return false
			}
			continue
		}
		if !sf.IsExported() {
			continue
		}
		if name == "" {
			name = sf.Name
		}
		if _, dup := into[name]; dup {
			return false
		}
		into[name] = at
	}
	return true
}
