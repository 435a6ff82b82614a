package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/takokit/takokit/catalog"
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
	bin := hostsimBinary(t)
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
	resp, err = http.Get(info.Admin + "/health") // what a readiness probe asks, without any token
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("admin health: %v %v", err, resp)
	}
	var health struct{ Status, Profile, Version string }
	if err := json.NewDecoder(resp.Body).Decode(&health); err != nil || health.Status != "ok" || health.Profile != "kv-only" || health.Version == "" {
		t.Fatalf("admin health: %v %+v", err, health)
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

// serveInProcess runs `hostsim serve args` until the test ends and returns its
// stdout once the ready file is written.
func serveInProcess(t *testing.T, args ...string) string {
	t.Helper()
	ready := filepath.Join(t.TempDir(), "ready.json")
	stop := make(chan struct{})
	var stdout, stderr syncBuffer
	done := make(chan error, 1)
	go func() {
		done <- serve(append([]string{"--addr", "127.0.0.1:0", "--ready-file", ready}, args...), envOf(nil), &stdout, &stderr, stop)
	}()
	t.Cleanup(func() {
		close(stop)
		if err := <-done; err != nil {
			t.Errorf("serve %v: %v", args, err)
		}
	})
	for deadline := time.Now().Add(20 * time.Second); ; {
		if _, err := os.Stat(ready); err == nil {
			return stdout.String()
		}
		select {
		case err := <-done:
			t.Fatalf("serve %v ended: %v\n%s", args, err, stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatal("the ready file never appeared")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// The startup line says how many Forms of how many kinds the host serves, out
// of how many the catalog holds when the profile leaves some out, and the lane.
func TestStartupLineSaysWhatTheHostServes(t *testing.T) {
	cat, err := catalog.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	kvOnlyLeavesOut := map[string]bool{"ObjectBucket": true, "SQLiteDatabase": true, "AtLeastOnceQueue": true, "QueueConsumer": true}
	kinds, kvForms, kvKinds := map[string]bool{}, 0, map[string]bool{}
	for _, f := range cat.Forms() {
		kinds[f.Ref.APIVersion+"/"+f.Ref.Kind] = true
		if !kvOnlyLeavesOut[f.Ref.Kind] {
			kvForms++
			kvKinds[f.Ref.Kind] = true
		}
	}
	lane := regexp.QuoteMeta(", lane " + wire.DefaultLane.APIVersion + "\n")
	for _, tc := range []struct {
		profile, want string
	}{
		{"full", fmt.Sprintf(`^hostsim full listening on http://127\.0\.0\.1:\d+ \(dashboard http://127\.0\.0\.1:\d+/_sim/ui/\): %d Forms of %d kinds`,
			len(cat.Forms()), len(kinds)) + lane + "$"},
		{"kv-only", fmt.Sprintf(`^hostsim kv-only listening on .*: %d Forms of %d kinds \(of the catalog's %d\)`, kvForms, len(kvKinds), len(cat.Forms())) + lane + "$"},
	} {
		if out := serveInProcess(t, "--profile", tc.profile); !regexp.MustCompile(tc.want).MatchString(out) {
			t.Errorf("--profile %s: the startup line %q does not match %s", tc.profile, out, tc.want)
		}
	}
	if kvForms == len(cat.Forms()) || kvForms == 0 {
		t.Fatalf("kv-only should leave some Forms out of the built-in catalog and keep some: %d of %d", kvForms, len(cat.Forms()))
	}
}

// syncBuffer is a bytes.Buffer safe for one writer and one reader.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
