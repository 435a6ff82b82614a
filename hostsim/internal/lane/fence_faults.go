package lane

import (
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/fault"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// refusalWrites is fence.refusal-writes (docs/protocol.md#faults): an observe
// refused for a stale generation fence still moves the resource's revision, in
// a write of its own once the refusal has rolled back; the refusal is answered
// as ever. It breaks "a refused request leaves the resource unchanged", which
// conformance stale-generation-rejected measures last.
func (c *call) refusalWrites(space string, ref wire.FormRef, e *wire.Error) {
	if e.Code != wire.CodeGenerationConflict {
		return
	}
	if !c.fs.On(fault.FenceRefusalWrites) {
		return
	}
	_ = c.write(func(q store.Q) error {
		cur, e := c.findOwn(q, space, ref)
		if e != nil {
			return e
		}
		cur.Revision++
		return store.UpdateResource(q, cur)
	})
}
