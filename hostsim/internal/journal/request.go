package journal

import "strings"

// A request event is the most frequent event, so the ring keeps it packed
// instead of its JSON: status (two bytes, the top bit set when the path
// starts with the lane's API root, which is then left out), then tenant,
// method and route each behind a length byte, the Idempotency-Key behind two
// length bytes, then the path. Since writes
// the JSON a request event always had.

// apiRoot is the lane's API root (docs/protocol.md#routes).
const apiRoot = "/apis/forms.takoform.com/v1alpha3"

const rootBit = 0x8000

// packedSize is the size of a packed request event.
func packedSize(tenant, method, route, path, key string) int {
	return 7 + min(len(tenant), 255) + min(len(method), 255) + min(len(route), 255) + min(len(key), maxKey) +
		len(strings.TrimPrefix(path, apiRoot))
}

// maxKey bounds the kept Idempotency-Key (a valid one has at most 255 bytes).
const maxKey = 0xffff

// packRequest appends a packed request event to b (a field longer than 255
// bytes is cut, which no tenant, method or route of the lane reaches).
func packRequest(b []byte, tenant, method, route, path, key string, status int) []byte {
	st := status & 0x7fff // statuses are three digits
	if rest, ok := strings.CutPrefix(path, apiRoot); ok {
		st, path = st|rootBit, rest
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
	e := requestEvent{Status: st &^ rootBit}
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
		e.Path = apiRoot + e.Path
	}
	return e
}
