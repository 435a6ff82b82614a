package admin

import (
	"net/http"
	"runtime"
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
// fault, so it never fires one and never counts as traffic. goMaxProcs is the
// process's GOMAXPROCS as it serves (hostsim serve sets it: hostsim.TuneProcs).
func (a *API) health(w http.ResponseWriter, _ *http.Request, _ string) error {
	return writeJSON(w, 200, struct {
		Status        string `json:"status"`
		Lane          string `json:"lane"`
		Profile       string `json:"profile"`
		Version       string `json:"version"`
		UptimeSeconds int64  `json:"uptimeSeconds"`
		GoMaxProcs    int    `json:"goMaxProcs"`
	}{"ok", a.Health.Lane, a.State.Profile().Name, a.Health.Version, int64(time.Since(a.Health.Started) / time.Second),
		runtime.GOMAXPROCS(0)})
}
