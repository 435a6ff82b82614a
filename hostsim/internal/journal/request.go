package journal

import "encoding/json"

// A request event is the most frequent event, so the ring keeps it packed
// in one small allocation instead of its JSON: status (two bytes), then
// tenant, method and route each behind a length byte, then the path. Since
// writes the JSON a request event always had.

// packRequest packs a request event (a field longer than 255 bytes is
// cut, which no tenant, method or route of the lane reaches).
func packRequest(tenant, method, route, path string, status int) []byte {
	b := make([]byte, 0, 5+len(tenant)+len(method)+len(route)+len(path))
	b = append(b, byte(status>>8), byte(status))
	for _, f := range []string{tenant, method, route} {
		f = f[:min(len(f), 255)]
		b = append(b, byte(len(f)))
		b = append(b, f...)
	}
	return append(b, path...)
}

// unpackRequest reads a packed request event back.
func unpackRequest(b []byte) requestEvent {
	e := requestEvent{Status: int(b[0])<<8 | int(b[1])}
	b = b[2:]
	var fields [3]string
	for i := range fields {
		n := int(b[0])
		fields[i], b = string(b[1:1+n]), b[1+n:]
	}
	e.Tenant, e.Method, e.Route, e.Path = fields[0], fields[1], fields[2], string(b)
	return e
}

// json is the event's data as served.
func (k *kept) json() json.RawMessage {
	if !k.packed {
		return k.data
	}
	b, _ := json.Marshal(unpackRequest(k.data))
	return b
}
