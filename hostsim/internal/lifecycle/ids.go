package lifecycle

import (
	crand "crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"math/rand/v2"
	"sync"
)

// NewMinter returns the function that mints uids and operation ids: prefix +
// 20 hex characters, random, or reproducible when seed is not 0 (`hostsim
// serve --seed N`: the same seed and request sequence give the same ids).
func NewMinter(seed int64) func(prefix string) string {
	if seed == 0 {
		return func(prefix string) string {
			var b [10]byte
			_, _ = crand.Read(b[:])
			return prefix + hex.EncodeToString(b[:])
		}
	}
	var key [32]byte
	binary.LittleEndian.PutUint64(key[:], uint64(seed))
	var mu sync.Mutex
	r := rand.NewChaCha8(key)
	return func(prefix string) string {
		var b [10]byte
		mu.Lock()
		_, _ = r.Read(b[:])
		mu.Unlock()
		return prefix + hex.EncodeToString(b[:])
	}
}
