package related

import (
	"encoding/json"
	"sync"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// decodedCap bounds what a decodeCache keeps: past it the cache starts again
// empty, so a host that holds many resources spends memory on at most this
// many decoded values of each sort.
const decodedCap = 256

// decodeCache keeps the decoded form of the stored JSON the relation rules
// read again and again, by its exact bytes: a worker's readiness reads its
// deployment's and each version's spec and every pin's FormRef on every
// mutation of its space (Recompute), and a hostname claim reads every spec
// of its kinds in the tenant. Decoding them again each time was half of the
// re-render's CPU (docs/decisions.md, "Relation lookups by index").
//
// A decoded value is shared by every caller that reads the same bytes:
// callers read it and never change it.
type decodeCache[T any] struct {
	mu sync.Mutex
	m  map[string]T
}

// of is raw decoded into a T; the zero T, not kept, when it does not decode.
func (c *decodeCache[T]) of(raw []byte) T {
	c.mu.Lock()
	v, ok := c.m[string(raw)]
	c.mu.Unlock()
	if ok {
		return v
	}
	var zero T
	if err := json.Unmarshal(raw, &v); err != nil {
		return zero
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= decodedCap {
		c.m = make(map[string]T, decodedCap)
	}
	c.m[string(raw)] = v
	return v
}

// decoded are the caches of one host's relation rules.
type decoded struct {
	specs decodeCache[map[string]any] // stored specs, by their bytes
	refs  decodeCache[wire.FormRef]   // pins' target FormRefs, by their text
}

// spec is a stored spec decoded: nil when it is no JSON object.
func (g *G) spec(raw []byte) map[string]any { return g.decoded.specs.of(raw) }

// pinRef reads a stored pin's exact target FormRef.
func (g *G) pinRef(p store.Pin) wire.FormRef { return g.decoded.refs.of([]byte(p.TargetRef)) }
