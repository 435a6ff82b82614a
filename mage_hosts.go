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
	"sort"
	"strings"
	"syscall"
	"time"
)

// simProfiles are the partial hosts `mage sim` and `mage demo` start side by side.
var simProfiles = []string{"full", "kv-only", "no-endpoints", "tight-limits"}

// simHost is one hostsim process started with a ready file.
type simHost struct {
	Profile string
	URL     string
	cmd     *exec.Cmd
	doc     map[string]any
}

// startHosts starts one bin/hostsim per profile on a free loopback port and waits on each ready
// file (never on a sleep). On any failure, hosts already started are stopped.
func startHosts(dir string, profiles []string) ([]*simHost, error) {
	var hosts []*simHost
	for _, p := range profiles {
		h, err := startHost(dir, p)
		if err != nil {
			stopHosts(hosts)
			return nil, err
		}
		hosts = append(hosts, h)
	}
	return hosts, nil
}

func startHost(dir, profile string) (*simHost, error) {
	ready := filepath.Join(dir, profile+".ready.json")
	_ = os.Remove(ready)
	logf, err := os.Create(filepath.Join(dir, profile+".log"))
	if err != nil {
		return nil, err
	}
	cmd := exec.Command("bin/hostsim", "serve", "--addr", "127.0.0.1:0", "--profile", profile, "--ready-file", ready)
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start hostsim --profile %s: %w", profile, err)
	}
	h := &simHost{Profile: profile, cmd: cmd}
	deadline := time.Now().Add(20 * time.Second)
	for {
		var r struct{ URL string }
		if b, err := os.ReadFile(ready); err == nil && json.Unmarshal(b, &r) == nil && r.URL != "" {
			h.URL = r.URL
			break
		}
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			return nil, fmt.Errorf("hostsim --profile %s wrote no ready file within 20s; see %s", profile, logf.Name())
		}
		time.Sleep(50 * time.Millisecond)
	}
	doc, err := getJSON(h.URL + "/_sim/profile")
	if err != nil {
		stopHosts([]*simHost{h})
		return nil, fmt.Errorf("read profile of %s: %w", profile, err)
	}
	h.doc = doc
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

// refusals summarizes, from the merged profile documents, what a host will not carry that the
// baseline (the full profile) does: only the deviations are listed.
func refusals(doc, baseline map[string]any) string {
	base := map[string]bool{}
	for _, s := range statements(baseline) {
		base[s] = true
	}
	var out []string
	for _, s := range statements(doc) {
		if !base[s] {
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		return "nothing (the whole catalog)"
	}
	return strings.Join(out, "; ")
}

// statements lists what one merged profile document states, one readable clause each.
func statements(doc map[string]any) []string {
	var out []string
	for _, group := range []string{"forms", "interfaces", "bindings"} {
		if m, ok := doc[group].(map[string]any); ok {
			if ex, ok := m["exclude"].([]any); ok && len(ex) > 0 {
				out = append(out, group+" excluded: "+joinAny(ex))
			}
		}
	}
	if ep, ok := doc["endpoints"].(map[string]any); ok && ep["assign"] == false {
		out = append(out, "no endpoint assignment (WorkerEndpoint not installed)")
	}
	for _, key := range []string{"supportedEnums", "supportedRanges", "limits"} {
		if m, ok := doc[key].(map[string]any); ok {
			out = append(out, flatten(key, m)...)
		}
	}
	if s, ok := doc["support"].(string); ok && s != "served" {
		out = append(out, "support surface: "+s)
	}
	return out
}

func flatten(prefix string, m map[string]any) []string {
	var out []string
	for k, v := range m {
		if sub, ok := v.(map[string]any); ok {
			out = append(out, flatten(prefix+"."+k, sub)...)
			continue
		}
		b, _ := json.Marshal(v)
		out = append(out, fmt.Sprintf("%s.%s=%s", prefix, k, b))
	}
	sort.Strings(out)
	return out
}

func joinAny(xs []any) string {
	var s []string
	for _, x := range xs {
		s = append(s, fmt.Sprint(x))
	}
	return strings.Join(s, ", ")
}
