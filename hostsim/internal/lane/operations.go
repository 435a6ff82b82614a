package lane

import (
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/fault"
)

// async decides whether a mutation answers 202 (docs/protocol.md#operations)
// and after how many polls its operation settles (< 0: only through the
// admin API): the unfinished-operation fault, the probe, or a profile-async kind.
func (c *call) async(ref wire.FormRef) (bool, int64) {
	if c.fs.On(fault.ApplyAcceptUnfinished) {
		return true, -1
	}
	if c.probe == "async" {
		return true, 2
	}
	f, ok := c.s.Host.Form(ref)
	if !ok {
		return false, 0
	}
	return c.s.Host.Async(f)
}
