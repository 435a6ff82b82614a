package store

import (
	"bytes"
	"encoding/binary"
	"errors"
)

// Recorded answers are kept compact (docs/decisions.md: hostsim memory):
// most are representations, and the representations of one Form differ in a
// few members only (name, uid, times, spec). The first answer recorded for a
// shape — the bytes up to the resource's name, which hold the apiVersion,
// kind and FormRef — becomes that shape's dictionary (the dictionaries table),
// and every answer of the shape is stored as copies from its dictionary and
// literal bytes. A typical 640-byte answer keeps about 60 bytes. Bodies of no
// known shape, or too large to serve as a dictionary, stay as they are.

// shapeEnd marks the end of a representation's shape: what precedes the
// resource's name.
var shapeEnd = []byte(`"metadata":{"name":"`)

const (
	maxDictBody = 16 << 10 // a dictionary larger than this is not worth indexing
	maxDicts    = 512      // shapes are Forms; past this bodies stay plain
	minCopy     = 6        // a shorter match is cheaper as literal bytes
	hashBits    = 12
)

// shapeOf is the shape of a recorded body, or nil when it is not a
// representation.
func shapeOf(body []byte) []byte {
	if !bytes.HasPrefix(body, []byte(`{"apiVersion":`)) || len(body) > maxDictBody {
		return nil
	}
	i := bytes.Index(body, shapeEnd)
	if i < 0 {
		return nil
	}
	return body[:i+len(shapeEnd)]
}

// dict is a dictionary with its index: the last position of each hashed
// four-byte sequence (positions + 1; 0 is none).
type dict struct {
	id    int64
	body  []byte
	index []uint16
}

func newDict(id int64, body []byte) *dict {
	d := &dict{id: id, body: body, index: make([]uint16, 1<<hashBits)}
	for p := 0; p+4 <= len(body); p++ {
		d.index[hash4(body[p:])] = uint16(p + 1)
	}
	return d
}

func hash4(b []byte) uint32 {
	return (binary.LittleEndian.Uint32(b) * 2654435761) >> (32 - hashBits)
}

// encode writes src as copies from the dictionary and literal runs: each op
// is a uvarint n<<1|k, then n literal bytes (k=0) or the uvarint position of
// an n-byte copy (k=1).
func (d *dict) encode(src []byte) []byte {
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

var errCorrupt = errors.New("a recorded answer does not decode against its dictionary")

// decode reverses encode.
func (d *dict) decode(enc []byte) ([]byte, error) {
	out := make([]byte, 0, len(d.body)+len(enc))
	for len(enc) > 0 {
		op, k := binary.Uvarint(enc)
		if k <= 0 {
			return nil, errCorrupt
		}
		enc = enc[k:]
		n := op >> 1
		if op&1 == 0 {
			if n > uint64(len(enc)) {
				return nil, errCorrupt
			}
			out, enc = append(out, enc[:n]...), enc[n:]
			continue
		}
		p, k := binary.Uvarint(enc)
		if k <= 0 || p > uint64(len(d.body)) || n > uint64(len(d.body))-p {
			return nil, errCorrupt
		}
		enc = enc[k:]
		out = append(out, d.body[p:p+n]...)
	}
	return out, nil
}

// dicts are the dictionaries by shape and by id. They only grow (a shape's
// dictionary never changes), so a transaction's new ones wait in its
// overlay until it commits.
type dicts struct {
	byShape map[string]*dict
	byID    map[int64]*dict
}

func (ds *dicts) add(d *dict) {
	if ds.byShape == nil {
		ds.byShape, ds.byID = map[string]*dict{}, map[int64]*dict{}
	}
	ds.byShape[string(shapeOf(d.body))] = d
	ds.byID[d.id] = d
}

// dictFor finds the dictionary of body's shape, creating it from body in
// the open transaction when the shape is new; nil when body has no shape.
func dictFor(q Q, v view, body []byte) (*dict, error) {
	shape := shapeOf(body)
	if shape == nil {
		return nil, nil
	}
	if d := v.ov.dicts.byShape[string(shape)]; d != nil {
		return d, nil
	}
	if d := v.m.dicts.byShape[string(shape)]; d != nil {
		return d, nil
	}
	if len(v.m.dicts.byID)+len(v.ov.dicts.byID) >= maxDicts {
		return nil, nil
	}
	var id int64
	if err := q.QueryRow(`INSERT INTO dictionaries (body) VALUES (?) RETURNING id`, body).Scan(&id); err != nil {
		return nil, err
	}
	d := newDict(id, append([]byte(nil), body...))
	v.ov.dicts.add(d)
	return d, nil
}

// dictByID finds a dictionary the transaction or the mirror knows.
func (v view) dictByID(id int64) *dict {
	if v.ov != nil {
		if d := v.ov.dicts.byID[id]; d != nil {
			return d
		}
	}
	return v.m.dicts.byID[id]
}
