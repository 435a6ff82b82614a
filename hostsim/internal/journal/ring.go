package journal

// The ring keeps the newest MaxEvents events compactly (docs/decisions.md:
// hostsim memory): an event is a small fixed record whose data lives in an
// arena of 64 KiB chunks, filled in order, so the data of 20,000 events costs
// their bytes and not 20,000 allocations; a chunk is freed once the ring has
// dropped every event in it. Event types are kept by number.

const chunkSize = 64 << 10

// alloc returns an empty slice with room for n bytes in the arena (under mu).
// Data written there never changes, so it is handed out as it is.
func (j *Journal) alloc(n int) []byte {
	if cap(j.arena)-len(j.arena) < n {
		j.arena = make([]byte, 0, max(chunkSize, n))
	}
	b := j.arena[len(j.arena) : len(j.arena) : len(j.arena)+n]
	j.arena = j.arena[:len(j.arena)+n]
	return b
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
