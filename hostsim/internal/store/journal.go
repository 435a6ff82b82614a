package store

// Pending is a journal event a write transaction produced: it is handed to
// the Store's event sink (the journal) once the transaction committed, and
// dropped if it rolled back, so the journal never tells of a write that did
// not happen. A lasting event (AppendLastingEvent) is handed over either way.
type Pending struct {
	At      int64 // Unix nanoseconds
	Type    string
	Data    []byte // JSON
	Lasting bool   // it tells of an effect outside the store, already done
}

// AppendEvent queues a journal event in q's write transaction. Queuing cannot
// fail: an event belongs to the write it tells of, and a q that is not a write
// transaction is a defect of the caller, so it panics rather than hand every
// caller an error branch no request can reach.
func AppendEvent(q Q, at int64, typ string, data []byte) {
	queueEvent(q, Pending{At: at, Type: typ, Data: data})
}

// AppendLastingEvent queues a journal event in q's write transaction that
// tells of an effect outside the store which has already happened and which
// the transaction rolling back cannot undo: a migration file committed in an
// application's own database (docs/protocol.md#migrations). It is handed to
// the sink with the write's other events when the write commits, and alone
// when it rolls back, so the journal tells of every such effect once. Like
// AppendEvent, it panics on a q that is not a write transaction.
func AppendLastingEvent(q Q, at int64, typ string, data []byte) {
	queueEvent(q, Pending{At: at, Type: typ, Data: data, Lasting: true})
}

// queueEvent queues e in q's write transaction.
func queueEvent(q Q, e Pending) {
	w, ok := q.(writeQ)
	if !ok {
		panic("store: journal event " + e.Type + " outside a write transaction: events are appended where state is written")
	}
	w.w.events = append(w.w.events, e)
}

// lasting hands the sink the lasting events of a write that rolled back.
func (s *Store) lasting(w *writer) {
	var kept []Pending
	for _, e := range w.events {
		if e.Lasting {
			kept = append(kept, e)
		}
	}
	if len(kept) > 0 && s.events != nil {
		s.events(kept)
	}
}

// AfterCommit runs fn once q's write transaction committed, and never when it
// rolls back: for effects outside the database that must not happen for a
// write that did not (dropping a deleted SQLiteDatabase's own database). Like
// AppendEvent, it panics on a q that is not a write transaction.
func AfterCommit(q Q, fn func()) {
	w, ok := q.(writeQ)
	if !ok {
		panic("store: an after-commit action outside a write transaction: it belongs to the write it follows")
	}
	w.w.after = append(w.w.after, fn)
}
