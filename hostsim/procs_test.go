package hostsim

import (
	"runtime"
	"testing"
)

// TestTuneProcs: a serving host runs one thread of Go code unless --procs gives
// a number, which wins, or the user set GOMAXPROCS, whose value stays in force.
func TestTuneProcs(t *testing.T) {
	before := runtime.GOMAXPROCS(0)
	t.Cleanup(func() { runtime.GOMAXPROCS(before) })
	for _, c := range []struct {
		name       string
		runtime    int // what the runtime started with (from GOMAXPROCS or the CPUs)
		n          int
		gomaxprocs string
		want       int
	}{
		{"neither", 4, 0, "", ServingProcs},
		{"GOMAXPROCS=3 kept", 3, 0, "3", 3},
		{"--procs 2 over GOMAXPROCS=3", 3, 2, "3", 2},
		{"--procs 5 alone", 1, 5, "", 5},
	} {
		runtime.GOMAXPROCS(c.runtime)
		if got := TuneProcs(c.n, c.gomaxprocs); got != c.want || runtime.GOMAXPROCS(0) != c.want {
			t.Errorf("%s: TuneProcs says %d, the runtime has %d; want %d", c.name, got, runtime.GOMAXPROCS(0), c.want)
		}
	}
}
