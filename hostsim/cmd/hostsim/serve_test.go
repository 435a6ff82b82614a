package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/readyfile"
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
	info, err := readyfile.Await(context.Background(), ready, nil, 20*time.Second)
	if err != nil {
		t.Fatalf("the ready file never appeared: %v", err)
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
	return startInProcess(t, args...).stdout.String()
}

// inProcess is `hostsim serve` run by serve in this process.
type inProcess struct {
	url            string // from the ready file
	stdout, stderr syncBuffer
	stopCh         chan struct{}
	done           chan error
	stopped        bool
}

// startInProcess starts `hostsim serve args` and returns once the ready file is
// written; the test stops it (stop), or its end does, failing the test if serve
// returned an error.
func startInProcess(t *testing.T, args ...string) *inProcess {
	t.Helper()
	ready := filepath.Join(t.TempDir(), "ready.json")
	p := &inProcess{stopCh: make(chan struct{}), done: make(chan error, 1)}
	go func() {
		p.done <- serve(append([]string{"--addr", "127.0.0.1:0", "--ready-file", ready}, args...), envOf(nil), &p.stdout, &p.stderr, p.stopCh)
	}()
	t.Cleanup(func() {
		if err := p.stop(); err != nil {
			t.Errorf("serve %v: %v", args, err)
		}
	})
	for deadline := time.Now().Add(20 * time.Second); ; {
		if b, err := os.ReadFile(ready); err == nil {
			var info struct{ URL string }
			if json.Unmarshal(b, &info) != nil || info.URL == "" {
				t.Fatalf("ready file: %s", b)
			}
			p.url = info.URL
			return p
		}
		select {
		case err := <-p.done:
			t.Fatalf("serve %v ended: %v\n%s", args, err, p.stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatal("the ready file never appeared")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// stop ends serve as SIGINT would and returns what it returned (nil the second time).
func (p *inProcess) stop() error {
	if p.stopped {
		return nil
	}
	p.stopped = true
	close(p.stopCh)
	return <-p.done
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

// hostsim serve logs one line per request to stderr, as slog's text handler
// writes it or, with --log-format json, as one JSON object; either way with the
// tenant the token names and never the token itself, a refused one included.
func TestServeLogsOneLinePerRequestWithoutTheToken(t *testing.T) {
	tokens := filepath.Join(t.TempDir(), "tokens.json")
	const token, wrong = "tok-very-secret-1", "wrong-secret-2"
	if err := os.WriteFile(tokens, []byte(`[{"token": "`+token+`", "tenant": "acme", "principal": "ops"}]`), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, format := range []string{"text", "json"} {
		t.Run(format, func(t *testing.T) {
			p := startInProcess(t, "--tokens", tokens, "--log-format", format)
			for _, bearer := range []string{token, wrong} {
				req, _ := http.NewRequest("GET", p.url+wire.DefaultLane.DiscoveryPath, nil)
				req.Header.Set("Authorization", "Bearer "+bearer)
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
			}
			if err := p.stop(); err != nil {
				t.Fatal(err)
			}
			logs := p.stderr.String()
			if strings.Contains(logs, token) || strings.Contains(logs, wrong) {
				t.Fatalf("a bearer token reached the log:\n%s", logs)
			}
			type line struct {
				Msg, Tenant, Method string
				Status              int
			}
			var got []line
			for _, l := range strings.Split(strings.TrimSpace(logs), "\n") {
				var e line
				if format == "json" {
					if err := json.Unmarshal([]byte(l), &e); err != nil {
						t.Fatalf("--log-format json wrote a line that is no JSON object: %q", l)
					}
				} else {
					f := map[string]string{}
					for _, kv := range strings.Fields(l) {
						k, v, _ := strings.Cut(kv, "=")
						if u, err := strconv.Unquote(v); err == nil {
							v = u // the text handler quotes what needs it, "" among them
						}
						f[k] = v
					}
					if f["level"] != "INFO" || f["time"] == "" {
						t.Fatalf("the text log wrote a line slog's text handler would not: %q", l)
					}
					e.Msg, e.Tenant, e.Method = f["msg"], f["tenant"], f["method"]
					e.Status, _ = strconv.Atoi(f["status"])
				}
				got = append(got, e)
			}
			// Each line is written after its answer is sent, so the client's second
			// request, on a new connection when the first one is not yet back in its
			// pool, can be logged first: compare the lines in the order of their status.
			slices.SortFunc(got, func(a, b line) int { return a.Status - b.Status })
			want := []line{{"request", "acme", "GET", 200}, {"request", "", "GET", 401}}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("--log-format %s: the log holds %+v, want %+v:\n%s", format, got, want, logs)
			}
		})
	}
}
