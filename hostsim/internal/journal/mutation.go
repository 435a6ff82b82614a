package journal

import "encoding/binary"

// Mutation is the data of the "mutation" event of an apply or import, and
// Deletion that of a delete; members are in the order a map would marshal
// them, which is the JSON these events always had. Append queues them packed:
// flags, then the numbers as varints, then each string behind its length.
type Mutation struct {
	Changed    bool   `json:"changed"`
	Created    bool   `json:"created"`
	Generation int64  `json:"generation"`
	Kind       string `json:"kind"`
	Name       string `json:"name"`
	Revision   int64  `json:"revision"`
	Space      string `json:"space"`
	Tenant     string `json:"tenant"`
	UID        string `json:"uid"`
}

// Deletion is the data of a delete's "mutation" event.
type Deletion struct {
	Deleted bool   `json:"deleted"`
	Kind    string `json:"kind"`
	Name    string `json:"name"`
	Space   string `json:"space"`
	Tenant  string `json:"tenant"`
	UID     string `json:"uid"`
}

func (m Mutation) pack() []byte {
	b := make([]byte, 0, 24+len(m.Kind)+len(m.Name)+len(m.Space)+len(m.Tenant)+len(m.UID))
	b = append(b, byte(formMutation), flags(m.Changed, m.Created))
	b = binary.AppendVarint(b, m.Generation)
	b = binary.AppendVarint(b, m.Revision)
	return appendStrings(b, m.Kind, m.Name, m.Space, m.Tenant, m.UID)
}

func unpackMutation(b []byte) Mutation {
	m := Mutation{Changed: b[0]&1 != 0, Created: b[0]&2 != 0}
	b = b[1:]
	var n int
	m.Generation, n = binary.Varint(b)
	b = b[n:]
	m.Revision, n = binary.Varint(b)
	s := readStrings(b[n:], 5)
	m.Kind, m.Name, m.Space, m.Tenant, m.UID = s[0], s[1], s[2], s[3], s[4]
	return m
}

func (d Deletion) pack() []byte {
	b := make([]byte, 0, 16+len(d.Kind)+len(d.Name)+len(d.Space)+len(d.Tenant)+len(d.UID))
	b = append(b, byte(formDeletion), flags(d.Deleted, false))
	return appendStrings(b, d.Kind, d.Name, d.Space, d.Tenant, d.UID)
}

func unpackDeletion(b []byte) Deletion {
	s := readStrings(b[1:], 5)
	return Deletion{Deleted: b[0]&1 != 0, Kind: s[0], Name: s[1], Space: s[2], Tenant: s[3], UID: s[4]}
}

func flags(a, b bool) byte {
	var f byte
	if a {
		f |= 1
	}
	if b {
		f |= 2
	}
	return f
}

func appendStrings(b []byte, ss ...string) []byte {
	for _, s := range ss {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	return b
}

func readStrings(b []byte, n int) []string {
	out := make([]string, n)
	for i := range out {
		l, k := binary.Uvarint(b)
		out[i], b = string(b[k:k+int(l)]), b[k+int(l):]
	}
	return out
}
