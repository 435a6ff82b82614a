// Package readyfile reads and awaits the ready file `hostsim serve --ready-file` writes
// once it accepts connections (docs/decisions.md#ready-files). Every tool and test that
// starts a hostsim process (`go tool mage sim` and `demo`, the conformance self-test, the
// scenarios, the browser test) waits on that file, never on a sleep, and all of them read
// it here.
package readyfile

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"time"
)

// Doc is what a ready file says: where the host listens, its admin API and dashboard,
// and its process id.
type Doc struct {
	URL   string `json:"url"`
	Admin string `json:"admin"`
	UI    string `json:"ui"`
	PID   int    `json:"pid"`
}

// Read reads a ready file; ok is false until a complete one naming a URL is there
// (hostsim writes it whole, by a rename, but a reader may come before it).
func Read(path string) (d Doc, ok bool) {
	b, err := os.ReadFile(path)
	if err != nil || json.Unmarshal(b, &d) != nil || d.URL == "" {
		return Doc{}, false
	}
	return d, true
}

// Why Await returned without a ready file, besides the context's own error.
var (
	ErrExited  = errors.New("the process ended before it was ready")
	ErrTimeout = errors.New("no ready file within the time given")
)

// Tick is how often Await reads the file.
const Tick = 25 * time.Millisecond

// Await reads path every Tick until it holds a ready document, and returns it. It
// returns ErrExited once exited is closed (the caller closes it when the process has
// ended), ErrTimeout when within has passed, or ctx's error when ctx ends first. It
// stops nothing: the caller decides what becomes of a process that was not ready.
func Await(ctx context.Context, path string, exited <-chan struct{}, within time.Duration) (Doc, error) {
	deadline := time.NewTimer(within)
	defer deadline.Stop()
	tick := time.NewTicker(Tick)
	defer tick.Stop()
	for {
		if d, ok := Read(path); ok {
			return d, nil
		}
		select {
		case <-exited:
			return Doc{}, ErrExited
		case <-deadline.C:
			return Doc{}, ErrTimeout
		case <-ctx.Done():
			return Doc{}, ctx.Err()
		case <-tick.C:
		}
	}
}
