package journal

import "encoding/json"

// The ring keeps the newest MaxEvents events compactly (docs/decisions.md:
// hostsim memory): an event is a fixed 24-byte record whose data lives in an
// arena of 64 KiB chunks, filled in order, so the data of 20,000 events costs
// their bytes and not 20,000 allocations; a chunk is let go once the ring
// has dropped every event in it. Event types are kept by number.

const chunkSize = 64 << 10

// arena is the chunks still holding kept events' data, oldest first, by
// increasing id.
type arena struct {
	chunks [][]byte
	first  uint32 // the id of chunks[0]
}

// alloc returns an empty slice with room for n bytes and records in k where
// they lie (under mu). Data written there never changes, so it is handed out
// as it is.
func (j *Journal) alloc(k *kept, n int) []byte {
	a := &j.arena
	last := len(a.chunks) - 1
	if last < 0 || cap(a.chunks[last])-len(a.chunks[last]) < n {
		a.chunks = append(a.chunks, make([]byte, 0, max(chunkSize, n)))
		last++
	}
	c := a.chunks[last]
	k.chunk, k.off, k.n = a.first+uint32(last), uint32(len(c)), uint32(n)
	a.chunks[last] = c[:len(c)+n]
	return c[len(c) : len(c) : len(c)+n]
}

// data is a kept event's data.
func (a *arena) data(k *kept) []byte {
	c := a.chunks[k.chunk-a.first]
	return c[k.off : k.off+k.n : k.off+k.n]
}

// release lets go of the chunks before chunk.
func (a *arena) release(chunk uint32) {
	for a.first < chunk && len(a.chunks) > 1 {
		a.chunks[0] = nil
		a.chunks = a.chunks[1:]
		a.first++
	}
}

// typeOf numbers an event type (under mu).
func (j *Journal) typeOf(typ string) uint16 {
	if i, ok := j.typeIdx[typ]; ok {
		return i
	}
	if j.typeIdx == nil {
		j.typeIdx = map[string]uint16{}
	}
	i := uint16(len(j.types))
	j.types = append(j.types, typ)
	j.typeIdx[typ] = i
	return i
}

// form is how an event's data is kept. A packed form travels in a write
// transaction's events marked by its number as first byte, which no JSON
// text starts with.
type form uint8

const (
	formJSON form = iota
	formRequest
	formMutation
	formDeletion
)

// json is data, kept in form f, as the JSON the event is served with.
func (f form) json(data []byte) json.RawMessage {
	var v any
	switch f {
	case formRequest:
		v = unpackRequest(data)
	case formMutation:
		v = unpackMutation(data)
	case formDeletion:
		v = unpackDeletion(data)
	default:
		return data
	}
	b, _ := json.Marshal(v)
	return b
}
