package selftest

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim"
)

// inProcessEnv, set to 1, runs the self-test's hosts inside the test binary: the
// same hostsim, served over loopback HTTP, without starting a process and
// loading the catalog per host. `go tool mage mutate` sets it (a conformance
// mutant runs one check's self-test, and two hostsim processes were most of its
// CPU); `go tool mage test` runs the self-test against bin/hostsim processes.
const inProcessEnv = "TAKOKIT_SELFTEST_INPROCESS"

func init() {
	if os.Getenv(inProcessEnv) == "1" {
		startHost = startInProcess
	}
}

// startInProcess is Start with hostsim.New behind an httptest server on
// 127.0.0.1; it takes the flags the self-test passes (--catalog DIR, --lane NAME,
// --conformance-probes false).
func startInProcess(_ context.Context, _ string, profile string, extra ...string) (*Sim, error) {
	cfg := hostsim.Config{Profile: profile, ConformanceProbes: true}
	lane := wire.DefaultLane
	for i := 0; i < len(extra); i++ {
		if i+1 == len(extra) {
			return nil, fmt.Errorf("in-process hostsim: flag %s without its value", extra[i])
		}
		switch v := extra[i+1]; extra[i] {
		case "--catalog":
			cat, err := catalog.Load(os.DirFS(v))
			if err != nil {
				return nil, fmt.Errorf("in-process hostsim --catalog %s: %w", v, err)
			}
			cfg.Catalog = cat
		case "--conformance-probes": // on unless "false": a host ignoring the probe header
			cfg.ConformanceProbes = v != "false"
		case "--lane":
			l, err := wire.LaneNamed(v)
			if err != nil {
				return nil, fmt.Errorf("in-process hostsim --lane: %w", err)
			}
			lane, cfg.Lane = l, l
		default:
			return nil, fmt.Errorf("in-process hostsim: the self-test passes no flag %s", extra[i])
		}
		i++
	}
	if cfg.Catalog == nil {
		cat, err := catalog.EmbeddedLane(lane)
		if err != nil {
			return nil, err
		}
		cfg.Catalog = cat
	}
	h, err := hostsim.New(cfg)
	if err != nil {
		return nil, fmt.Errorf("in-process hostsim --profile %s: %w", profile, err)
	}
	srv := httptest.NewServer(h.Handler())
	addr := srv.Listener.Addr().String()
	inProcessHandlers.Store(addr, h.Handler())
	return &Sim{URL: srv.URL, Admin: srv.URL + "/_sim", Profile: profile, stop: func() {
		inProcessHandlers.Delete(addr)
		srv.Close()
		h.Close()
	}}, nil
}
