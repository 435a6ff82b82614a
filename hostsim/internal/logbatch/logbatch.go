// Package logbatch gathers log lines and writes them together, so a busy host
// writes its per-request lines in one system call every few milliseconds.
package logbatch

import (
	"io"
	"sync"
	"time"
)

// Writer gathers the log lines of `hostsim serve` (and of the bench's profiled
// host, so its profile shows what serve costs) and writes them
// together: at most flushEvery after the first unwritten line, as soon as
// batchMax bytes wait, and at Flush (a clean stop, transition.exit). A busy
// host so writes its per-request lines in one system call every few
// milliseconds instead of one each (docs/decisions.md: hostsim speed). A host
// killed by SIGKILL loses at most the last flushEvery of lines; what hostsim
// prints to stderr directly (the transition point markers, a crash) is not
// batched.
type Writer struct {
	mu      sync.Mutex
	w       io.Writer
	buf     []byte
	pending bool // a timed flush is scheduled
	err     error
}

const (
	flushEvery = 20 * time.Millisecond
	batchMax   = 64 << 10
)

// New batches what is written to w.
func New(w io.Writer) *Writer { return &Writer{w: w} }

func (b *Writer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	switch {
	case len(b.buf) >= batchMax:
		b.flushLocked()
	case !b.pending:
		b.pending = true
		time.AfterFunc(flushEvery, b.timed)
	}
	return len(p), nil
}

func (b *Writer) timed() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.pending = false
	b.flushLocked()
}

// Flush writes every waiting line and returns the first write error met.
func (b *Writer) Flush() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.flushLocked()
	return b.err
}

func (b *Writer) flushLocked() {
	if len(b.buf) == 0 {
		return
	}
	if _, err := b.w.Write(b.buf); err != nil && b.err == nil {
		b.err = err
	}
	b.buf = b.buf[:0]
}
