package logbatch

import (
	"bytes"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"
)

// lockedBuffer is a bytes.Buffer safe for the timed flush's goroutine.
type lockedBuffer struct {
	mu     sync.Mutex
	b      bytes.Buffer
	writes int
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.writes++
	return l.b.Write(p)
}

func (l *lockedBuffer) snapshot() (string, int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String(), l.writes
}

func TestBatchWriterWritesLinesTogether(t *testing.T) {
	var out lockedBuffer
	b := New(&out)
	for i := range 3 {
		if n, err := b.Write([]byte("line\n")); n != 5 || err != nil {
			t.Fatalf("write %d = %d, %v", i, n, err)
		}
	}
	if s, _ := out.snapshot(); s != "" {
		t.Fatalf("lines were written one by one: %q", s)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		s, writes := out.snapshot()
		if s == "line\nline\nline\n" {
			if writes != 1 {
				t.Fatalf("three lines took %d writes, want 1", writes)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the timed flush never wrote the lines (got %q)", s)
		}
		time.Sleep(time.Millisecond)
	}
	// after a timed flush, the next line schedules the next one
	_, _ = b.Write([]byte("again\n"))
	for {
		if s, _ := out.snapshot(); strings.HasSuffix(s, "again\n") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("a line after the first timed flush was never written")
		}
		time.Sleep(time.Millisecond)
	}
}

func TestBatchWriterFlushAndFullBatch(t *testing.T) {
	var out lockedBuffer
	b := New(&out)
	_, _ = b.Write([]byte("x\n"))
	if err := b.Flush(); err != nil {
		t.Fatal(err)
	}
	if s, _ := out.snapshot(); s != "x\n" {
		t.Fatalf("Flush wrote %q", s)
	}
	big := bytes.Repeat([]byte("y"), batchMax)
	_, _ = b.Write(big)
	if s, _ := out.snapshot(); len(s) != 2+batchMax {
		t.Fatalf("a full batch was not written at once: %d bytes out", len(s))
	}
}

type failing struct{}

func (failing) Write(p []byte) (int, error) { return 0, errors.New("disk full") }

func TestBatchWriterReportsAWriteError(t *testing.T) {
	b := New(failing{})
	_, _ = b.Write([]byte("x\n"))
	if err := b.Flush(); err == nil || err.Error() != "disk full" {
		t.Fatalf("Flush = %v, want the write's error", err)
	}
}
