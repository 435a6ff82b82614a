package store

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

func TestPrivateDatabasesAreIsolatedAndRemoved(t *testing.T) {
	a, err := Open("")
	if err != nil {
		t.Fatal(err)
	}
	b, err := Open("")
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ctx := context.Background()
	if err := a.Write(ctx, func(q Q) error { return AddCounter(q, "mutations", 3) }); err != nil {
		t.Fatal(err)
	}
	if c, _ := CounterValues(b.DB()); c["mutations"] != 0 {
		t.Fatal("two private databases share state")
	}
	if c, _ := CounterValues(a.DB()); c["mutations"] != 3 {
		t.Fatalf("counter %d, want 3", c["mutations"])
	}
	path := a.path
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("the private database %s outlived Close", path)
	}
}

func TestWriteRollsBackOnError(t *testing.T) {
	s, err := Open(filepath.Join(t.TempDir(), "x.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	_ = s.Write(ctx, func(q Q) error {
		_ = AddCounter(q, "mutations", 1)
		return os.ErrInvalid
	})
	if c, _ := CounterValues(s.DB()); c["mutations"] != 0 {
		t.Fatal("a failed transaction left its write behind")
	}
	_ = s.Write(ctx, func(q Q) error { return AddCounter(q, "mutations", 1) })
	if err := s.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	if c, _ := CounterValues(s.DB()); len(c) != 0 {
		t.Fatalf("reset left counters %v", c)
	}
}

// A reader completes while a writer holds its transaction open: the writer
// waits for the reader, so serialized reads would deadlock this test.
func TestReadsDoNotWaitForTheWriter(t *testing.T) {
	s, err := Open("")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	readDone := make(chan error)
	err = s.Write(ctx, func(q Q) error {
		if err := AddCounter(q, "mutations", 1); err != nil {
			return err
		}
		go func() {
			readDone <- s.Read(ctx, func(r Q) error {
				c, err := CounterValues(r)
				if err == nil && c["mutations"] != 0 {
					t.Error("a reader saw an uncommitted write")
				}
				return err
			})
		}()
		return <-readDone
	})
	if err != nil {
		t.Fatal(err)
	}
}
