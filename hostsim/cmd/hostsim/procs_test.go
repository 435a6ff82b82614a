package main

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/takokit/takokit/hostsim"
)

// hostsim serve runs its Go code on one thread unless --procs (or HOSTSIM_PROCS)
// or GOMAXPROCS says otherwise, and its collector at hostsim.ServingGCPercent
// unless GOGC says otherwise; GET /_sim/health reports what the running process
// has.
func TestServeRunsOnOneThreadOfGoCodeUnlessTold(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the hostsim binary")
	}
	bin := hostsimBinary(t)
	var base []string // this process's environment without the two settings
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GOMAXPROCS=") && !strings.HasPrefix(kv, "HOSTSIM_PROCS=") && !strings.HasPrefix(kv, "GOGC=") {
			base = append(base, kv)
		}
	}
	for _, c := range []struct {
		name string
		env  []string
		args []string
		want int
		gc   int
	}{
		{"neither", nil, nil, 1, hostsim.ServingGCPercent},
		{"GOMAXPROCS=2 kept", []string{"GOMAXPROCS=2"}, nil, 2, hostsim.ServingGCPercent},
		{"--procs 3 over GOMAXPROCS=2", []string{"GOMAXPROCS=2"}, []string{"--procs", "3"}, 3, hostsim.ServingGCPercent},
		{"HOSTSIM_PROCS=2", []string{"HOSTSIM_PROCS=2"}, nil, 2, hostsim.ServingGCPercent},
		{"GOGC=300 kept", []string{"GOGC=300"}, nil, 1, 300},
		{"GOGC=off kept", []string{"GOGC=off"}, nil, 1, -1},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			p := startSimEnv(t, bin, t.TempDir(), append(append([]string(nil), base...), c.env...), c.args...)
			code, body, err := p.do(t, "GET", "/_sim/health", nil, nil)
			var h struct {
				GoMaxProcs int `json:"goMaxProcs"`
				GCPercent  int `json:"gcPercent"`
			}
			if err != nil || code != 200 || json.Unmarshal(body, &h) != nil {
				t.Fatalf("GET /_sim/health: %d %v %s", code, err, body)
			}
			if h.GoMaxProcs != c.want || h.GCPercent != c.gc {
				t.Fatalf("the host serves with GOMAXPROCS %d and GOGC %d, want %d and %d: %s", h.GoMaxProcs, h.GCPercent, c.want, c.gc, body)
			}
		})
	}
}
