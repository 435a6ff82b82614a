package readyfile

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestReadTakesOnlyAWholeDocumentWithAURL: a missing file, half a document, a document
// naming no URL and one whose fields are of the wrong type are not ready; a whole one is
// read field by field.
func TestReadTakesOnlyAWholeDocumentWithAURL(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "ready.json")
	if _, ok := Read(path); ok {
		t.Fatal("a missing file read as ready")
	}
	for _, body := range []string{`{"url":"http://127.0.0.1:1"`, `{"admin":"http://127.0.0.1:1/_sim"}`, `[]`,
		`{"url":"http://127.0.0.1:1","pid":"one"}`} {
		write(t, path, body)
		if d, ok := Read(path); ok {
			t.Errorf("%s read as ready: %+v", body, d)
		}
	}
	write(t, path, `{"url":"http://127.0.0.1:1","admin":"http://127.0.0.1:1/_sim","ui":"http://127.0.0.1:1/_sim/ui/","pid":42}`)
	d, ok := Read(path)
	want := Doc{URL: "http://127.0.0.1:1", Admin: "http://127.0.0.1:1/_sim", UI: "http://127.0.0.1:1/_sim/ui/", PID: 42}
	if !ok || d != want {
		t.Errorf("Read = %+v, %v; want %+v", d, ok, want)
	}
}

// TestAwaitEndsOnEachOfItsFourCauses: the file appearing, the process ending, the time
// running out and the context ending each end the wait, with their own answer.
func TestAwaitEndsOnEachOfItsFourCauses(t *testing.T) {
	t.Parallel()
	never := make(chan struct{})
	t.Run("ready", func(t *testing.T) {
		t.Parallel()
		path := filepath.Join(t.TempDir(), "ready.json")
		go func() {
			time.Sleep(3 * Tick)
			write(t, path, `{"url":"http://127.0.0.1:2"}`)
		}()
		d, err := Await(context.Background(), path, never, 10*time.Second)
		if err != nil || d.URL != "http://127.0.0.1:2" {
			t.Errorf("Await = %+v, %v; want the document written after three ticks", d, err)
		}
	})
	t.Run("exited", func(t *testing.T) {
		t.Parallel()
		exited := make(chan struct{})
		close(exited)
		if _, err := Await(context.Background(), filepath.Join(t.TempDir(), "ready.json"), exited, 10*time.Second); !errors.Is(err, ErrExited) {
			t.Errorf("Await after the process ended = %v; want ErrExited", err)
		}
	})
	t.Run("timeout", func(t *testing.T) {
		t.Parallel()
		begun := time.Now()
		if _, err := Await(context.Background(), filepath.Join(t.TempDir(), "ready.json"), never, 2*Tick); !errors.Is(err, ErrTimeout) {
			t.Errorf("Await with no file = %v; want ErrTimeout", err)
		}
		if took := time.Since(begun); took > 5*time.Second {
			t.Errorf("Await took %v for a wait of %v", took, 2*Tick)
		}
	})
	t.Run("context", func(t *testing.T) {
		t.Parallel()
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := Await(ctx, filepath.Join(t.TempDir(), "ready.json"), never, 10*time.Second); !errors.Is(err, context.Canceled) {
			t.Errorf("Await under a cancelled context = %v; want context.Canceled", err)
		}
	})
	t.Run("a file already there wins over an ended process", func(t *testing.T) {
		t.Parallel()
		path := filepath.Join(t.TempDir(), "ready.json")
		write(t, path, `{"url":"http://127.0.0.1:3"}`)
		exited := make(chan struct{})
		close(exited)
		if d, err := Await(context.Background(), path, exited, 10*time.Second); err != nil || d.URL != "http://127.0.0.1:3" {
			t.Errorf("Await = %+v, %v; want the document already written", d, err)
		}
	})
}

func write(t *testing.T, path, body string) {
	t.Helper()
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(body), 0o644); err != nil {
		t.Error(err)
		return
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Error(err)
	}
}
