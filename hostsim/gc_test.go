package hostsim

import (
	"runtime/debug"
	"testing"
)

// TestTuneGC: a serving host collects at +50% unless the user set GOGC, whose value
// stays in force.
func TestTuneGC(t *testing.T) {
	before := debug.SetGCPercent(100)
	t.Cleanup(func() { debug.SetGCPercent(before) })
	if got := TuneGC(""); got != ServingGCPercent || debug.SetGCPercent(100) != ServingGCPercent {
		t.Errorf("without GOGC the percent is %d, want %d", got, ServingGCPercent)
	}
	debug.SetGCPercent(200) // what the runtime read from GOGC=200
	if got := TuneGC("200"); got != 200 || debug.SetGCPercent(200) != 200 {
		t.Errorf("with GOGC=200 the percent is %d, want 200 kept", got)
	}
}
