package decide

import (
	"github.com/takokit/takokit/catalog/wire"
)

// Preconditions are the parsed precondition headers (docs/protocol.md#headers,
// request.ParsePreconditions); zero means absent.
type Preconditions struct {
	IfNoneMatch bool  // If-None-Match: * (create intent)
	Fence       int64 // Takoform-Expected-Generation
	IfMatch     int64 // If-Match: "<revision>"
}

// Intent is what an apply or import means to do (docs/protocol.md#fences): create
// (If-None-Match: *), or change the resource at a generation fence.
type Intent struct {
	Create  bool
	Fence   int64 // generation fence of a change
	IfMatch int64 // optional revision fence
}

// ResolveIntent is step 11 of the order of checks: exactly one of
// If-None-Match: * and a generation fence; the header fence and the body's
// (bodyName, 0 when absent) must agree; nothing else beside a create.
func ResolveIntent(p Preconditions, bodyFence int64, bodyName string, a *Acts) (Intent, *wire.Error) {
	fence := p.Fence
	if bodyFence != 0 {
		if fence != 0 && fence != bodyFence {
			if !a.On(FenceIgnore) {
				return Intent{}, Invalid("Takoform-Expected-Generation %d and %s %d disagree; send one fence", fence, bodyName, bodyFence)
			}
		}
		fence = bodyFence
	}
	switch {
	case p.IfNoneMatch && (fence != 0 || p.IfMatch != 0):
		return Intent{}, Invalid("If-None-Match: * (create intent) cannot be combined with a generation fence or If-Match")
	case !p.IfNoneMatch && fence == 0:
		return Intent{}, Invalid("send If-None-Match: * to create, or Takoform-Expected-Generation to change an existing resource")
	}
	return Intent{Create: p.IfNoneMatch, Fence: fence, IfMatch: p.IfMatch}, nil
}
