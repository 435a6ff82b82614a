// Package simhosts starts the partial hosts `go tool mage sim` and `go tool mage
// demo` run side by side (docs/guides/partial-hosts.md): one hostsim process per
// profile, each awaited on its ready file, never on a sleep.
package simhosts

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/takokit/takokit/catalog/readyfile"
	"github.com/takokit/takokit/catalog/wire"
)

// The environment that shapes the hosts: fixed ports for bookmarks, and the lane.
const (
	EnvPort = "TAKOKIT_SIM_PORT" // first port; the hosts listen on it and the ones after it
	EnvLane = "TAKOKIT_SIM_LANE" // the lane the hosts speak (default: hostsim's, v1beta1)
)

// ReadyWithin is how long a host may take to write its ready file.
const ReadyWithin = 20 * time.Second

// Host is one hostsim process started with a ready file.
type Host struct {
	Profile string
	Lane    string // the lane the host says it speaks (GET /_sim/health)
	URL     string
	UI      string // the host's dashboard
	Refuses []string
	cmd     *exec.Cmd
	exited  chan struct{} // closed once the process ended
}

// Start starts the hostsim binary bin once per profile on a free loopback
// port (or on the ports from EnvPort on), its ready files and logs in dir, as
// getenv shapes them. On any failure, the hosts already started are stopped;
// a bad EnvPort or EnvLane is refused before anything starts.
func Start(bin, dir string, profiles []string, getenv func(string) string) ([]*Host, error) {
	base := 0
	if v := getenv(EnvPort); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1024 || n+len(profiles) > 65535 {
			return nil, fmt.Errorf("%s=%q: give the first of %d free ports, from 1024 up", EnvPort, v, len(profiles))
		}
		base = n
	}
	lane := getenv(EnvLane)
	if lane != "" {
		if _, err := wire.LaneNamed(lane); err != nil {
			return nil, fmt.Errorf("%s=%q: %v; unset it for the default", EnvLane, lane, err)
		}
	}
	var hosts []*Host
	for i, p := range profiles {
		addr := "127.0.0.1:0"
		if base != 0 {
			addr = fmt.Sprintf("127.0.0.1:%d", base+i)
		}
		h, err := start(bin, dir, p, addr, lane)
		if err != nil {
			Stop(hosts)
			if base != 0 { // a port of the range may be another program's
				return nil, fmt.Errorf("%w(%s=%d puts the %d hosts on ports %d to %d: free those, or give another first port)",
					err, EnvPort, base, len(profiles), base, base+len(profiles)-1)
			}
			return nil, err
		}
		hosts = append(hosts, h)
	}
	return hosts, nil
}

func start(bin, dir, profile, addr, lane string) (*Host, error) {
	ready := filepath.Join(dir, profile+".ready.json")
	_ = os.Remove(ready)
	logf, err := os.Create(filepath.Join(dir, profile+".log"))
	if err != nil {
		return nil, err
	}
	defer logf.Close() // the process holds its own descriptor
	args := []string{"serve", "--addr", addr, "--profile", profile, "--ready-file", ready}
	if lane != "" {
		args = append(args, "--lane", lane)
	}
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start hostsim --profile %s: %w", profile, err)
	}
	h := &Host{Profile: profile, cmd: cmd, exited: make(chan struct{})}
	go func() { _ = cmd.Wait(); close(h.exited) }()
	rd, err := readyfile.Await(context.Background(), ready, h.exited, ReadyWithin)
	switch {
	case errors.Is(err, readyfile.ErrExited):
		log, _ := os.ReadFile(logf.Name())
		return nil, fmt.Errorf("hostsim --profile %s on %s ended (%v) before it was ready; it said:\n%s", profile, addr, cmd.ProcessState, log)
	case err != nil:
		_ = cmd.Process.Kill()
		<-h.exited
		log, _ := os.ReadFile(logf.Name())
		return nil, fmt.Errorf("hostsim --profile %s on %s wrote no ready file within %s; it said:\n%s", profile, addr, ReadyWithin, log)
	}
	h.URL, h.UI = rd.URL, rd.UI
	health, err := GetJSON(h.URL + "/_sim/health")
	if err != nil {
		Stop([]*Host{h})
		return nil, fmt.Errorf("read the health of %s: %w", profile, err)
	}
	h.Lane = fmt.Sprint(health["lane"])
	// what the host refuses compared with full: the host computes it (GET
	// /_sim/refusals), the same clauses its dashboard's Host page shows
	doc, err := GetJSON(h.URL + "/_sim/refusals")
	if err != nil {
		Stop([]*Host{h})
		return nil, fmt.Errorf("read the refusals of %s: %w", profile, err)
	}
	list, _ := doc["refuses"].([]any)
	for _, r := range list {
		h.Refuses = append(h.Refuses, fmt.Sprint(r))
	}
	return h, nil
}

// Stop interrupts every host and waits for it (killing one still up after
// 10 s), so no process is left behind.
func Stop(hosts []*Host) {
	for _, h := range hosts {
		_ = h.cmd.Process.Signal(syscall.SIGINT)
	}
	for _, h := range hosts {
		select {
		case <-h.exited:
		case <-time.After(10 * time.Second):
			_ = h.cmd.Process.Kill()
			<-h.exited
		}
	}
}

// GetJSON reads a JSON object answered 200.
func GetJSON(url string) (map[string]any, error) {
	resp, err := http.Get(url)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s: %s: %s", url, resp.Status, body)
	}
	var doc map[string]any
	return doc, json.Unmarshal(body, &doc)
}
