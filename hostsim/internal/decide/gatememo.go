package decide

import (
	"sync"

	"github.com/takokit/takokit/catalog"
)

// GateMemo remembers which canonical specs passed the spec gate of which
// Form, so the same spec sent again (prepare and then apply send the same
// one; a retry sends it again) is not checked against its schema again. The
// gate is a pure function of the Form and the spec's canonical bytes, so a
// remembered pass is the answer the check would give. A refusal is never
// remembered. It holds at most gateMemoMax passes and forgets them all when
// full. The zero value is ready; a nil memo remembers nothing.
type GateMemo struct {
	mu sync.Mutex
	m  map[gateKey]struct{}
}

type gateKey struct {
	form   *catalog.Form
	digest string
}

const gateMemoMax = 4096

func (gm *GateMemo) passed(f *catalog.Form, digest string) bool {
	if gm == nil {
		return false
	}
	gm.mu.Lock()
	_, ok := gm.m[gateKey{f, digest}]
	gm.mu.Unlock()
	return ok
}

func (gm *GateMemo) pass(f *catalog.Form, digest string) {
	if gm == nil {
		return
	}
	gm.mu.Lock()
	if gm.m == nil || len(gm.m) >= gateMemoMax {
		gm.m = make(map[gateKey]struct{})
	}
	gm.m[gateKey{f, digest}] = struct{}{}
	gm.mu.Unlock()
}
