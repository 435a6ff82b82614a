package main

import (
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/takokit/takokit/catalog/reftest"
	"github.com/takokit/takokit/catalog/wire"
)

// referenceDir is the published folder of the default lane (reftest.Lane).
func referenceDir(t *testing.T) string { return reftest.Lane(t, wire.DefaultLane) }

// TestServeProcessReadyFileAndSIGINT runs `hostsim serve` as a process the way
// scripts do: wait on the ready file, talk to it, stop it with SIGINT (exit 0).
func TestServeProcessReadyFileAndSIGINT(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the hostsim binary")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "hostsim")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	args := []string{"serve", "--addr", "127.0.0.1:0", "--profile", "kv-only"}
	args = append(args, "--catalog", referenceDir(t))
	ready := filepath.Join(dir, "ready.json")
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "HOSTSIM_READY_FILE="+ready)
	var stdout strings.Builder
	cmd.Stdout = &stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	var info struct {
		URL, Admin, UI string
		PID            int
	}
	for deadline := time.Now().Add(20 * time.Second); ; {
		if b, err := os.ReadFile(ready); err == nil && json.Unmarshal(b, &info) == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the ready file never appeared")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if info.PID != cmd.Process.Pid || info.Admin != info.URL+"/_sim" || info.UI != info.URL+"/_sim/ui/" || !strings.HasPrefix(info.URL, "http://127.0.0.1:") || strings.HasSuffix(info.URL, "/") {
		t.Fatalf("ready file: %+v", info)
	}
	req, _ := http.NewRequest("GET", info.URL+wire.DefaultLane.DiscoveryPath, nil)
	req.Header.Set("Authorization", "Bearer sim-primary")
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("discovery: %v %v", err, resp)
	}
	resp.Body.Close()
	resp, err = http.Get(info.Admin + "/profile")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("admin profile: %v", err)
	}
	resp.Body.Close()
	// an open dashboard stream does not hold up the shutdown (it would wait
	// out the 5s shutdown timeout)
	resp, err = http.Get(info.UI + "events")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("dashboard stream: %v %v", err, resp)
	}
	defer resp.Body.Close()
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	stopping := time.Now()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("hostsim did not exit 0 on SIGINT: %v", err)
	}
	if d := time.Since(stopping); d > 4*time.Second {
		t.Fatalf("hostsim took %v to stop beside an open dashboard stream: Shutdown waited for it", d)
	}
	if !strings.Contains(stdout.String(), "hostsim kv-only listening on "+info.URL+" (dashboard "+info.UI+")") {
		t.Fatalf("stdout: %q", stdout.String())
	}
}
