package transition_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/hostsim"
	"github.com/takokit/takokit/hostsim/internal/transition"
)

// world is what the property test knows besides the Host: every request it
// sent, the first 200 receipt it saw per operation, and the spec changes the
// Host accepted.
type world struct {
	e        *env
	rng      *rand.Rand
	cur      *catalog.Form // the ref the client believes the resource has
	sent     map[string]*transition.Request
	receipts map[string][]byte
	updates  int // accepted spec-changing PUTs
	log      []string
}

func (w *world) note(format string, args ...any) { w.log = append(w.log, fmt.Sprintf(format, args...)) }

// refresh re-reads the resource under whichever ref serves it.
func (w *world) refresh() {
	for _, f := range []*catalog.Form{w.e.from, w.e.to} {
		if r := w.e.read(f); r.status == 200 {
			w.e.adopt(r)
			var m struct {
				Spec map[string]any `json:"spec"`
			}
			_ = json.Unmarshal(r.body, &m)
			w.e.spec, w.cur = m.Spec, f
			return
		}
	}
	w.e.t.Fatalf("the resource is served under neither ref\n%s", strings.Join(w.log, "\n"))
}

func (w *world) seeReceipt(op string, r *reply) {
	if r.status != 200 {
		return
	}
	if first, ok := w.receipts[op]; ok && !bytes.Equal(first, r.body) {
		w.e.t.Fatalf("operation %s answered two different receipts:\n%s\n%s\n%s", op, first, r.body, strings.Join(w.log, "\n"))
	}
	w.receipts[op] = r.body
}

func (w *world) step() {
	e := w.e
	switch n := w.rng.IntN(100); {
	case n < 30: // POST (maybe with a crash armed first)
		if w.cur != e.from {
			w.note("post skipped: already at %s", w.cur.Ref.DefinitionVersion)
			return
		}
		if w.rng.IntN(2) == 0 {
			f := []string{"transition.crash", "transition.exit"}[w.rng.IntN(2)] + "=" + string("ABCDE"[w.rng.IntN(5)]) + ",count=1"
			e.arm(f)
			w.note("arm %s", f)
		}
		if w.rng.IntN(6) == 0 {
			e.arm("transition.reject,count=1")
			w.note("arm transition.reject")
		}
		req := e.request()
		w.sent[req.OperationID] = req
		r := e.post(req, nil)
		w.note("POST %s(gen %d rev %d) -> %d dropped=%v", req.OperationID[:14], e.gen, e.rev, r.status, r.dropped)
		w.seeReceipt(req.OperationID, r)
	case n < 50: // readback of a random operation sent so far
		for op := range w.sent {
			r := e.readback(op)
			w.note("GET %s -> %d", op[:14], r.status)
			w.seeReceipt(op, r)
			return
		}
	case n < 62:
		e.restart()
		w.note("restart")
	case n < 72:
		e.clock.add(6 * time.Second)
		w.note("tick 6s")
	case n < 85:
		w.refresh()
		w.note("refresh: %s gen %d rev %d", w.cur.Ref.DefinitionVersion, e.gen, e.rev)
	default: // an ordinary update under the believed ref
		spec := changedSpecOf(e.t, w.cur, e.spec)
		r := e.apply(w.cur, spec, e.gen)
		w.note("PUT under %s -> %d", w.cur.Ref.DefinitionVersion, r.status)
		if r.status == 200 {
			before := e.gen
			e.spec = spec
			e.adopt(r)
			w.updates += int(e.gen - before)
		}
	}
}

// settle resolves every operation the way re-running apply would: faults
// disarmed, the deadline passed, held claims resumed by their kept request.
func (w *world) settle() {
	e := w.e
	if r, err := http.NewRequest("DELETE", e.url+"/_sim/faults", nil); err == nil {
		if resp, err := client.Do(r); err == nil {
			resp.Body.Close()
		}
	}
	e.clock.add(time.Minute)
	for op, req := range w.sent {
		r := e.readback(op)
		if r.status == 202 {
			r = e.post(req, nil)
			w.note("settle: resume %s -> %d", op[:14], r.status)
		}
		w.seeReceipt(op, r)
	}
}

// check asserts the invariants of docs/protocol.md#transitions after a run.
func (w *world) check() {
	e := w.e
	fail := func(format string, args ...any) {
		e.t.Fatalf(format+"\n"+strings.Join(w.log, "\n"), args...)
	}
	committed := 0
	for op := range w.sent {
		r := e.readback(op)
		switch r.status {
		case 200:
			committed++
			w.seeReceipt(op, r)
			if d := e.dispatches(op); d != 1 {
				fail("committed %s was dispatched %d times", op, d)
			}
		case 409, 400, 404, 412:
			if d := e.dispatches(op); d > 1 {
				fail("operation %s was dispatched %d times", op, d)
			}
		default:
			fail("after settling, %s still answers %d %s", op, r.status, r.body)
		}
	}
	if committed > 1 {
		fail("%d transitions committed from one start ref", committed)
	}
	s := e.state()
	res := s.Resources[0]
	wantVer := e.from.Ref.DefinitionVersion
	if committed == 1 {
		wantVer = e.to.Ref.DefinitionVersion
	}
	if res.Claim != nil || res.DefinitionVersion != wantVer || res.Generation != fmt.Sprint(1+committed+w.updates) || res.UID != e.uid {
		fail("end state %+v: want no claim, %s, generation %d (1 + %d committed + %d updates), uid %s",
			res, wantVer, 1+committed+w.updates, committed, w.updates, e.uid)
	}
	rejected := 0
	for _, tr := range s.Transitions {
		if tr.Status != "committed" && tr.Status != "rejected" {
			fail("operation %s is left %s", tr.OperationID, tr.Status)
		}
		if tr.Status == "rejected" {
			rejected++
		}
	}
	crashes := 0
	for _, l := range w.log {
		if strings.Contains(l, "dropped=true") {
			crashes++
		}
	}
	e.t.Logf("%d steps: %d operations (%d committed, %d rejected), %d dropped POSTs, %d updates",
		len(w.log), len(s.Transitions), committed, rejected, crashes, w.updates)
}

// TestRandomInterleavings runs bounded random sequences of POSTs, readbacks,
// crashes at random points, restarts on the same file, clock ticks past the
// ack deadline, refreshes and ordinary updates against one resource, then
// settles and checks the invariants of docs/protocol.md#transitions.
func TestRandomInterleavings(t *testing.T) {
	runs := 50
	if testing.Short() {
		runs = 10
	}
	for i := range runs {
		seed := uint64(i) + 1
		t.Run(fmt.Sprintf("seed-%d", seed), func(t *testing.T) {
			ex := &exits{}
			e := newEnv(t, hostsim.Config{DBPath: filepath.Join(t.TempDir(), "sim.db"), AckDeadline: 5 * time.Second, Exit: ex.exit})
			w := &world{e: e, rng: rand.New(rand.NewPCG(seed, 7)), cur: e.from,
				sent: map[string]*transition.Request{}, receipts: map[string][]byte{}}
			for range 8 + w.rng.IntN(10) {
				w.step()
			}
			w.settle()
			w.check()
		})
	}
}
