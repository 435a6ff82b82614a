package admin

import (
	"math"
	"net/http"
	"runtime"
	"runtime/metrics"
	"time"
)

// Health is what GET /_sim/health reports about the host beside its profile.
type Health struct {
	Lane    string    // the lane the host speaks: its catalog's wire.Lane, as group/version
	Version string    // the stamped build version
	Started time.Time // when the host was built; uptime counts from here
}

// health answers that the host is up: no admin token, loopback only like the
// rest of /_sim (docs/protocol.md#admin). It reads no store and touches no
// fault, so it never fires one and never counts as traffic. goMaxProcs and
// gcPercent are the process's GOMAXPROCS and collector target as it serves
// (hostsim serve sets them: hostsim.TuneProcs, hostsim.TuneGC).
func (a *API) health(w http.ResponseWriter, _ *http.Request, _ string) error {
	return writeJSON(w, 200, struct {
		Status        string `json:"status"`
		Lane          string `json:"lane"`
		Profile       string `json:"profile"`
		Version       string `json:"version"`
		UptimeSeconds int64  `json:"uptimeSeconds"`
		GoMaxProcs    int    `json:"goMaxProcs"`
		GCPercent     int64  `json:"gcPercent"`
	}{"ok", a.Health.Lane, a.State.Profile().Name, a.Health.Version, int64(time.Since(a.Health.Started) / time.Second),
		runtime.GOMAXPROCS(0), gcPercent()})
}

// gcPercent is the collector's target as GOGC (or debug.SetGCPercent) set it; -1
// when the collector is off. Read from runtime/metrics: asking SetGCPercent would
// change it for a moment, and two health requests at once could leave it off.
func gcPercent() int64 {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	if v := s[0].Value.Uint64(); v <= math.MaxInt64 {
		return int64(v)
	}
	return -1 // off: the runtime reports the largest uint64
}
