//go:build mage

package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"time"
)

// simProfiles are the partial hosts `mage sim` and `mage demo` start side by side.
var simProfiles = []string{"full", "kv-only", "no-endpoints", "tight-limits"}

// The environment that shapes the hosts `mage sim` and `mage demo` start
// (docs/guides/partial-hosts.md): fixed ports for bookmarks, and the lane.
const (
	envSimPort = "TAKOKIT_SIM_PORT" // first port; the hosts listen on it and the ones after it
	envSimLane = "TAKOKIT_SIM_LANE" // the lane the hosts speak (default: hostsim's, v1beta1)
)

// simHost is one hostsim process started with a ready file.
type simHost struct {
	Profile string
	Lane    string // the lane the host says it speaks (GET /_sim/health)
	URL     string
	UI      string // the host's dashboard
	Refuses []string
	cmd     *exec.Cmd
}

// startHosts starts one bin/hostsim per profile on a free loopback port and waits on each ready
// file (never on a sleep). On any failure, hosts already started are stopped.
func startHosts(dir string, profiles []string) ([]*simHost, error) {
	var hosts []*simHost
	base := 0
	if v := os.Getenv(envSimPort); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1024 || n+len(profiles) > 65535 {
			return nil, fmt.Errorf("%s=%q: give the first of %d free ports, from 1024 up", envSimPort, v, len(profiles))
		}
		base = n
	}
	for i, p := range profiles {
		addr := "127.0.0.1:0"
		if base != 0 {
			addr = fmt.Sprintf("127.0.0.1:%d", base+i)
		}
		h, err := startHost(dir, p, addr)
		if err != nil {
			stopHosts(hosts)
			return nil, err
		}
		hosts = append(hosts, h)
	}
	return hosts, nil
}

func startHost(dir, profile, addr string) (*simHost, error) {
	ready := filepath.Join(dir, profile+".ready.json")
	_ = os.Remove(ready)
	logf, err := os.Create(filepath.Join(dir, profile+".log"))
	if err != nil {
		return nil, err
	}
	args := []string{"serve", "--addr", addr, "--profile", profile, "--ready-file", ready}
	if lane := os.Getenv(envSimLane); lane != "" {
		args = append(args, "--lane", lane)
	}
	cmd := exec.Command("bin/hostsim", args...)
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start hostsim --profile %s: %w", profile, err)
	}
	h := &simHost{Profile: profile, cmd: cmd}
	deadline := time.Now().Add(20 * time.Second)
	for {
		var r struct{ URL, UI string }
		if b, err := os.ReadFile(ready); err == nil && json.Unmarshal(b, &r) == nil && r.URL != "" {
			h.URL, h.UI = r.URL, r.UI
			break
		}
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			log, _ := os.ReadFile(logf.Name())
			return nil, fmt.Errorf("hostsim --profile %s on %s wrote no ready file within 20s:\n%s", profile, addr, log)
		}
		time.Sleep(50 * time.Millisecond)
	}
	health, err := getJSON(h.URL + "/_sim/health")
	if err != nil {
		stopHosts([]*simHost{h})
		return nil, fmt.Errorf("read the health of %s: %w", profile, err)
	}
	h.Lane = fmt.Sprint(health["lane"])
	// what the host refuses compared with full: the host computes it (GET
	// /_sim/refusals), the same clauses its dashboard's Host page shows
	doc, err := getJSON(h.URL + "/_sim/refusals")
	if err != nil {
		stopHosts([]*simHost{h})
		return nil, fmt.Errorf("read the refusals of %s: %w", profile, err)
	}
	list, _ := doc["refuses"].([]any)
	for _, r := range list {
		h.Refuses = append(h.Refuses, fmt.Sprint(r))
	}
	return h, nil
}

// stopHosts interrupts every host and waits for it, so no process is left behind.
func stopHosts(hosts []*simHost) {
	for _, h := range hosts {
		_ = h.cmd.Process.Signal(syscall.SIGINT)
	}
	for _, h := range hosts {
		done := make(chan struct{})
		go func() { _ = h.cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = h.cmd.Process.Kill()
			<-done
		}
	}
}

func getJSON(url string) (map[string]any, error) {
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
