package journal

import (
	"sync"
	"testing"
	"time"

	"github.com/takokit/takokit/hostsim/internal/store"
)

// A request counted (or a flush asked for) while the host closes, or after, is no
// panic and no hang: an answer still on its way when a test or a server shut the host
// down used to send on the counter writer's closed channel.
func TestRequestsDuringAndAfterCloseDoNotPanic(t *testing.T) {
	for range 20 {
		st, err := store.Open("")
		if err != nil {
			t.Fatal(err)
		}
		j := New(st, time.Now)
		var wg sync.WaitGroup
		for range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range 200 {
					j.Request("t", "GET", "route", "/p", "", 200, false)
					if i%50 == 0 {
						j.Flush() // returns once written, or at once when closed
					}
				}
			}()
		}
		time.Sleep(time.Millisecond)
		j.Close()
		wg.Wait()
		j.Request("t", "GET", "route", "/p", "", 200, true) // after Close
		j.Close()                                           // twice is harmless
		st.Close()
	}
}
