// Package bodycodec keeps recorded answers compact (docs/decisions.md:
// hostsim memory). Most recorded answers are representations, and the
// representations of one Form differ in a few members only (name, uid,
// times, spec). The first answer recorded for a shape — the bytes up to the
// resource's name, which hold the apiVersion, kind and FormRef — becomes that
// shape's dictionary, and every answer of the shape is encoded as copies from
// its dictionary and literal bytes. A typical 640-byte answer keeps about 60
// bytes. Bodies of no known shape, or too large to serve as a dictionary,
// have no shape and stay as they are.
//
// The package is a pure codec: where dictionaries are stored (the store's
// dictionaries table) is its caller's business.
package bodycodec

import (
	"bytes"
	"encoding/binary"
	"errors"
	"iter"
)

// shapeEnd marks the end of a representation's shape: what precedes the
// resource's name.
var shapeEnd = []byte(`"metadata":{"name":"`)

const (
	maxDictBody = 16 << 10 // a dictionary larger than this is not worth indexing
	minCopy     = 6        // a shorter match is cheaper as literal bytes
	hashBits    = 12
)

// Shape is the shape of a recorded body, or nil when it is not a
// representation.
func Shape(body []byte) []byte {
	if !bytes.HasPrefix(body, []byte(`{"apiVersion":`)) || len(body) > maxDictBody {
		return nil
	}
	i := bytes.Index(body, shapeEnd)
	if i < 0 {
		return nil
	}
	return body[:i+len(shapeEnd)]
}

// Dict is a dictionary with its index: the last position of each hashed
// four-byte sequence (positions + 1; 0 is none).
type Dict struct {
	id    int64
	body  []byte
	index []uint16
}

// NewDict indexes body as dictionary id; body must not change afterwards.
func NewDict(id int64, body []byte) *Dict {
	d := &Dict{id: id, body: body, index: make([]uint16, 1<<hashBits)}
	for p := 0; p+4 <= len(body); p++ {
		d.index[hash4(body[p:])] = uint16(p + 1)
	}
	return d
}

// ID is the dictionary's id, as its caller stored it.
func (d *Dict) ID() int64 { return d.id }

// Body is the dictionary's own bytes (not to be changed).
func (d *Dict) Body() []byte { return d.body }

func hash4(b []byte) uint32 {
	return (binary.LittleEndian.Uint32(b) * 2654435761) >> (32 - hashBits)
}

// Encode writes src as copies from the dictionary and literal runs: each op
// is a uvarint n<<1|k, then n literal bytes (k=0) or the uvarint position of
// an n-byte copy (k=1).
func (d *Dict) Encode(src []byte) []byte {
	out := make([]byte, 0, 64+len(src)/8)
	lit := 0
	for i := 0; i+4 <= len(src); {
		p := int(d.index[hash4(src[i:])]) - 1
		if p < 0 || !bytes.Equal(d.body[p:p+4], src[i:i+4]) {
			i++
			continue
		}
		n := 4
		for p+n < len(d.body) && i+n < len(src) && d.body[p+n] == src[i+n] {
			n++
		}
		if n < minCopy {
			i++
			continue
		}
		out = appendLiteral(out, src[lit:i])
		out = binary.AppendUvarint(out, uint64(n)<<1|1)
		out = binary.AppendUvarint(out, uint64(p))
		i += n
		lit = i
	}
	return appendLiteral(out, src[lit:])
}

func appendLiteral(out, b []byte) []byte {
	if len(b) == 0 {
		return out
	}
	out = binary.AppendUvarint(out, uint64(len(b))<<1)
	return append(out, b...)
}

// ErrCorrupt is Decode's error for bytes Encode did not write against this
// dictionary.
var ErrCorrupt = errors.New("a recorded answer does not decode against its dictionary")

// Decode reverses Encode.
func (d *Dict) Decode(enc []byte) ([]byte, error) {
	out := make([]byte, 0, len(d.body)+len(enc))
	for len(enc) > 0 {
		op, k := binary.Uvarint(enc)
		if k <= 0 {
			return nil, ErrCorrupt
		}
		enc = enc[k:]
		n := op >> 1
		if op&1 == 0 {
			if n > uint64(len(enc)) {
				return nil, ErrCorrupt
			}
			out, enc = append(out, enc[:n]...), enc[n:]
			continue
		}
		p, k := binary.Uvarint(enc)
		if k <= 0 || p > uint64(len(d.body)) || n > uint64(len(d.body))-p {
			return nil, ErrCorrupt
		}
		enc = enc[k:]
		out = append(out, d.body[p:p+n]...)
	}
	return out, nil
}

// Set holds dictionaries by shape and by id. The zero Set is empty and
// ready to use.
type Set struct {
	byShape map[string]*Dict
	byID    map[int64]*Dict
}

// Add files d under its id and its body's shape.
func (s *Set) Add(d *Dict) {
	if s.byShape == nil {
		s.byShape, s.byID = map[string]*Dict{}, map[int64]*Dict{}
	}
	s.byShape[string(Shape(d.body))] = d
	s.byID[d.id] = d
}

// ByShape is the dictionary of shape, or nil.
func (s *Set) ByShape(shape []byte) *Dict { return s.byShape[string(shape)] }

// ByID is the dictionary filed under id, or nil.
func (s *Set) ByID(id int64) *Dict { return s.byID[id] }

// Len counts the dictionaries.
func (s *Set) Len() int { return len(s.byID) }

// All yields every dictionary, in no order.
func (s *Set) All() iter.Seq[*Dict] {
	return func(yield func(*Dict) bool) {
		for _, d := range s.byID {
			if !yield(d) {
				return
			}
		}
	}
}
