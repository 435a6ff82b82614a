package lane

import (
	crand "crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"math/rand/v2"
	"sync"
)

// seeded mints reproducible identifiers for `hostsim serve --seed N`: the same
// seed and the same request sequence give the same uids and operation ids.
type seeded struct {
	mu sync.Mutex
	r  *rand.ChaCha8
}

func newSeeded(seed int64) *seeded {
	var key [32]byte
	binary.LittleEndian.PutUint64(key[:], uint64(seed))
	return &seeded{r: rand.NewChaCha8(key)}
}

// mint returns prefix + 20 hex characters, seeded when the Server has a seed.
func (s *Server) mint(prefix string) string {
	if s.ids == nil {
		return newID(prefix)
	}
	var b [10]byte
	s.ids.mu.Lock()
	_, _ = s.ids.r.Read(b[:])
	s.ids.mu.Unlock()
	return prefix + hex.EncodeToString(b[:])
}

// newID returns prefix + 20 random hex characters.
func newID(prefix string) string {
	var b [10]byte
	_, _ = crand.Read(b[:])
	return prefix + hex.EncodeToString(b[:])
}
