package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"sync"
)

// StrictError lists every problem a strict decode found, each at a JSON Pointer.
type StrictError struct {
	Problems []JSONError
}

func (e *StrictError) Error() string {
	lines := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		lines[i] = fmt.Sprintf("%s: %s", quotePointer(p.Pointer), p.Message)
	}
	return strings.Join(lines, "; ")
}

// DecodeStrict applies CheckIJSON and then decodes data into v, refusing every member
// that v's struct types do not declare (member names match exactly, case included).
// A struct field whose json tag carries the option "required" (`json:"name,required"`)
// must be present. Every problem names its JSON Pointer; all unknown and missing
// members are reported together as a *StrictError.
func DecodeStrict(data []byte, v any) error {
	if err := CheckIJSON(data); err != nil {
		return err
	}
	probs, err := strictProblems(data, reflect.TypeOf(v))
	if err != nil {
		return err
	}
	if len(probs) == 0 && !fillRaw(data, v) {
		if err := json.Unmarshal(data, v); err != nil {
			probs = append(probs, typeProblem(data, err))
		}
	}
	if len(probs) > 0 {
		sort.SliceStable(probs, func(i, j int) bool { return probs[i].Pointer < probs[j].Pointer })
		return &StrictError{Problems: probs}
	}
	return nil
}

// strictProblems are the unknown and missing members of data (which passed
// CheckIJSON) against t: found on the raw bytes, or, when a member name holds
// an escape, on the generically decoded document.
func strictProblems(data []byte, t reflect.Type) ([]JSONError, error) {
	if probs, ok := walkRaw(data, t); ok {
		return probs, nil
	}
	return genericProblems(data, t)
}

func genericProblems(data []byte, t reflect.Type) ([]JSONError, error) {
	var generic any
	if err := DecodeNumbers(data, &generic); err != nil {
		return nil, &JSONError{Message: err.Error()}
	}
	var probs []JSONError
	walkStrict(generic, t, "", &probs)
	return probs, nil
}

func typeProblem(data []byte, err error) JSONError {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return JSONError{Pointer: pointerAt(data, te.Offset), Offset: int(te.Offset),
			Message: fmt.Sprintf("found a JSON %s where %s is required", te.Value, jsonKindOf(te.Type))}
	}
	return JSONError{Message: err.Error()}
}

// pointerAt is the JSON Pointer of the value of data that ends at offset, or that
// starts there with the delimiter just before it (where encoding/json reports a
// type error: after a scalar, after the opening delimiter of an object or array).
// encoding/json's own field path names members but not array elements, so an
// element's error would point at its array.
func pointerAt(data []byte, offset int64) string {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var at path         // where the next value sits, as the strict walk keeps it
	var inObject []bool // per open container: an object, else an array
	wantKey := false    // the innermost open object waits for a member name
	for {
		tok, err := dec.Token()
		if err != nil {
			return at.String() // not reached for a document json decoded; the deepest place read
		}
		n := len(at)
		if d, ok := tok.(json.Delim); ok && (d == '}' || d == ']') {
			at, inObject = at[:n-1], inObject[:n-1]
			wantKey = n > 1 && inObject[n-2]
			continue
		}
		if wantKey {
			at[n-1], wantKey = step{name: []byte(tok.(string))}, false
			continue
		}
		if n > 0 && !inObject[n-1] {
			at[n-1].index++
		}
		if dec.InputOffset() >= offset {
			return at.String()
		}
		if d, ok := tok.(json.Delim); ok {
			at, inObject, wantKey = append(at, step{index: -1}), append(inObject, d == '{'), d == '{'
		} else {
			wantKey = n > 0 && inObject[n-1]
		}
	}
}

var unmarshalerType = reflect.TypeOf((*json.Unmarshaler)(nil)).Elem()

type structField struct {
	name     string
	typ      reflect.Type
	required bool
}

// fieldCache holds structFields per struct type: the tags of a type never change.
var fieldCache sync.Map // reflect.Type -> []structField

func cachedFields(t reflect.Type) []structField {
	if f, ok := fieldCache.Load(t); ok {
		return f.([]structField)
	}
	f := structFields(t)
	fieldCache.Store(t, f)
	return f
}

func structFields(t reflect.Type) []structField {
	var out []structField
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				out = append(out, structFields(ft)...)
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		req := false
		for _, o := range strings.Split(opts, ",") {
			if o == "required" {
				req = true
			}
		}
		out = append(out, structField{name: name, typ: f.Type, required: req})
	}
	return out
}

func walkStrict(val any, t reflect.Type, ptr string, probs *[]JSONError) {
	if t == nil {
		return
	}
	for t.Kind() == reflect.Pointer {
		if t.Implements(unmarshalerType) {
			return
		}
		t = t.Elem()
	}
	if t.Implements(unmarshalerType) || reflect.PointerTo(t).Implements(unmarshalerType) {
		return
	}
	switch t.Kind() {
	case reflect.Struct:
		obj, ok := val.(map[string]any)
		if !ok {
			return // json.Unmarshal reports the type mismatch
		}
		fields := cachedFields(t)
		known := make(map[string]structField, len(fields))
		for _, f := range fields {
			known[f.name] = f
		}
		for k, v := range obj {
			f, ok := known[k]
			child := ptr + "/" + EscapePointerToken(k)
			if !ok {
				*probs = append(*probs, JSONError{Pointer: child, Offset: -1,
					Message: fmt.Sprintf("unknown member %q; this object is closed, so remove it or check its spelling", k)})
				continue
			}
			walkStrict(v, f.typ, child, probs)
		}
		for _, f := range fields {
			if _, ok := obj[f.name]; f.required && !ok {
				*probs = append(*probs, JSONError{Pointer: ptr, Offset: -1,
					Message: fmt.Sprintf("required member %q is missing; add it", f.name)})
			}
		}
	case reflect.Slice, reflect.Array:
		arr, ok := val.([]any)
		if !ok {
			return
		}
		for i, v := range arr {
			walkStrict(v, t.Elem(), fmt.Sprintf("%s/%d", ptr, i), probs)
		}
	case reflect.Map:
		obj, ok := val.(map[string]any)
		if !ok {
			return
		}
		for k, v := range obj {
			walkStrict(v, t.Elem(), ptr+"/"+EscapePointerToken(k), probs)
		}
	}
}

// jsonKindOf says in JSON words what a Go type decodes from.
func jsonKindOf(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.Float32, reflect.Float64:
		return "a number"
	default:
		return "an integer"
	}
}
