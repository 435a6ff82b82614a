package journal

import (
	"strings"

	"github.com/takokit/takokit/catalog/wire"
)

// A request event is the most frequent event, so the ring keeps it packed
// instead of its JSON: status (two bytes: the top bit set when the path
// starts with a lane's API root, which is then left out, and the lane's index
// in wire.Lanes() in bits 12-14), then tenant,
// method and route each behind a length byte, the Idempotency-Key behind two
// length bytes, then the path. Since writes
// the JSON a request event always had.

const (
	rootBit   = 0x8000
	laneShift = 12
	laneMask  = 0x7 << laneShift
)

// lanes are the known lanes, by the index the packing records.
var lanes = wire.Lanes()

// cutRoot removes the API root of a known lane from path.
func cutRoot(path string) (rest string, lane int, ok bool) {
	for i, l := range lanes {
		if rest, ok := strings.CutPrefix(path, l.APIRoot); ok {
			return rest, i, true
		}
	}
	return path, 0, false
}

// packedSize is the size of a packed request event.
func packedSize(tenant, method, route, path, key string) int {
	return 7 + min(len(tenant), 255) + min(len(method), 255) + min(len(route), 255) + min(len(key), maxKey) +
		len(rest(path))
}

func rest(path string) string {
	r, _, _ := cutRoot(path)
	return r
}

// maxKey bounds the kept Idempotency-Key (a valid one has at most 255 bytes).
const maxKey = 0xffff

// packRequest appends a packed request event to b (a field longer than 255
// bytes is cut, which no tenant, method or route of the lane reaches).
func packRequest(b []byte, tenant, method, route, path, key string, status int) []byte {
	st := status & 0xfff // statuses are three digits
	if rest, lane, ok := cutRoot(path); ok {
		st, path = st|rootBit|lane<<laneShift, rest
	}
	b = append(b, byte(st>>8), byte(st))
	for _, f := range []string{tenant, method, route} {
		f = f[:min(len(f), 255)]
		b = append(b, byte(len(f)))
		b = append(b, f...)
	}
	key = key[:min(len(key), maxKey)]
	b = append(b, byte(len(key)>>8), byte(len(key)))
	b = append(b, key...)
	return append(b, path...)
}

// unpackRequest reads a packed request event back.
func unpackRequest(b []byte) requestEvent {
	st := int(b[0])<<8 | int(b[1])
	e := requestEvent{Status: st &^ (rootBit | laneMask)}
	b = b[2:]
	var fields [3]string
	for i := range fields {
		n := int(b[0])
		fields[i], b = string(b[1:1+n]), b[1+n:]
	}
	n := int(b[0])<<8 | int(b[1])
	e.IdempotencyKey, b = string(b[2:2+n]), b[2+n:]
	e.Tenant, e.Method, e.Route, e.Path = fields[0], fields[1], fields[2], string(b)
	if st&rootBit != 0 {
		e.Path = lanes[(st&laneMask)>>laneShift].APIRoot + e.Path
	}
	return e
}
