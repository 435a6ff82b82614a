package related

import (
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// consumerPins are a QueueConsumer's pins on queue and dead letter ("" leaves
// one out, as relations.ignore-missing does for a missing target).
func (w *world) consumerPins(queue, deadLetter string) []store.Pin {
	var pins []store.Pin
	if queue != "" {
		pins = append(pins, w.pinTo("/queue", "/queue", "AtLeastOnceQueue", queue, "u-"+queue))
	}
	if deadLetter != "" {
		pins = append(pins, w.pinTo("/deadLetterQueue", "/deadLetterQueue", "AtLeastOnceQueue", deadLetter, "u-"+deadLetter))
	}
	return pins
}

// consume runs the dead-letter cycle check on consumer name (curUID: the
// incarnation changed, "" for a new one) taking queue with dead letter dl.
func (w *world) consume(q store.Q, name, curUID, queue, dl string) *wire.Error {
	m, _ := w.mutation("QueueConsumer", name)
	return deadLetter(q, m, roles.attachment("QueueConsumer").DeadLetter, w.consumerPins(queue, dl), curUID, nil)
}

// A consumer swapping its own queue and dead letter forms no cycle with its
// old self (the incarnation changed is left out of the scan); another
// consumer doing the same does.
func TestDeadLetterLeavesOutTheConsumerChanged(t *testing.T) {
	w := newWorld(t)
	w.put("QueueConsumer", "orders", "u-orders", nil, w.consumerPins("queue-a", "queue-b")...)
	w.write(func(q store.Q) error {
		if e := w.consume(q, "orders", "u-orders", "queue-b", "queue-a"); e != nil {
			t.Errorf("the consumer reversing its own queues: %v; want accepted", e)
		}
		if e := w.consume(q, "returns", "", "queue-b", "queue-a"); e == nil || e.Code != wire.CodeInvalidArgument ||
			!strings.Contains(e.Message, `"queue-b" → "queue-a" → "queue-b"`) {
			t.Errorf("a second consumer closing the loop: %v; want invalid_argument naming queue-b → queue-a → queue-b", e)
		}
		return nil
	})
}

// A cycle through queues outside the pair names each by its name (from the
// other consumers' pins), never by a bare uid.
func TestDeadLetterNamesEveryQueueOfTheCycle(t *testing.T) {
	w := newWorld(t)
	w.put("QueueConsumer", "b-to-c", "u-bc", nil, w.consumerPins("queue-b", "queue-c")...)
	w.put("QueueConsumer", "c-to-a", "u-ca", nil, w.consumerPins("queue-c", "queue-a")...)
	w.write(func(q store.Q) error {
		e := w.consume(q, "a-to-b", "", "queue-a", "queue-b")
		if e == nil || !strings.Contains(e.Message, `("queue-a" → "queue-b" → "queue-c" → "queue-a")`) {
			t.Fatalf("a three-queue cycle: %v; want it named queue-a → queue-b → queue-c → queue-a", e)
		}
		return nil
	})
}

// Only a consumer holding both pins is an edge: one left with its queue only
// and one left with its dead letter only (relations.ignore-missing let the
// other target through) do not join into a path back to the queue.
func TestDeadLetterCountsOnlyWholeEdges(t *testing.T) {
	w := newWorld(t)
	w.put("QueueConsumer", "queue-only", "u-qo", nil, w.consumerPins("queue-x", "")...)
	w.put("QueueConsumer", "dead-letter-only", "u-dlo", nil, w.consumerPins("", "queue-d")...)
	w.write(func(q store.Q) error {
		if e := w.consume(q, "d-to-x", "", "queue-d", "queue-x"); e != nil {
			t.Fatalf("half-pinned consumers: %v; want no cycle", e)
		}
		return nil
	})
}

// A consumer without both pins has no edge to check: the cycle check reads
// nothing (a failing store is never asked).
func TestDeadLetterReadsNothingWithoutBothPins(t *testing.T) {
	w := newWorld(t)
	for _, pair := range [][2]string{{"queue-a", ""}, {"", "queue-b"}} {
		var e *wire.Error
		f := w.failing(sqlListKind, "QueueConsumer", 1, func(q store.Q) { e = w.consume(q, "half", "", pair[0], pair[1]) })
		if e != nil || f.seen != 0 {
			t.Errorf("consumer pins %q: %v, consumers listed %d times; want nothing checked or read", pair, e, f.seen)
		}
	}
}
