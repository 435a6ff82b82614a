// Package browser drives hostsim's dashboard in a real headless Chromium
// (docs/guides/dashboard.md), with resources created by the real OpenTofu
// CLI through the takoform provider.
package browser

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/takokit/takokit/catalog/readyfile"
	"github.com/takokit/takokit/internal/testinputs"
)

// findChromium returns the browser to drive. In CI (CI=true) a missing
// browser fails the test: .ci/run installs it. Elsewhere the test skips and
// says how to install it.
//
// go test does not look at files outside the module, Chromium's included: the test
// reads testinputs.EnvChromiumID, which `go tool mage test` sets, so that a result
// (a skip for a missing browser too) is kept only while the browser is the same.
func findChromium(t *testing.T) string {
	t.Helper()
	_ = os.Getenv(testinputs.EnvChromiumID)
	if p, ok := testinputs.Chromium(); ok {
		return p
	}
	msg := "no Chromium found (chromium, chromium-browser, google-chrome or TAKOKIT_CHROMIUM): install it with `apt-get install -y chromium` (Debian)"
	if os.Getenv("CI") == "true" {
		t.Fatal(msg + "; in CI .ci/run installs it before the tests")
	}
	t.Skip(msg)
	return ""
}

// binDir is the repository's bin/ with the binaries the test runs; without
// them the test fails with the command that builds them.
func binDir(t *testing.T) string {
	t.Helper()
	bin, err := filepath.Abs("../bin")
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range []string{"hostsim", "tofu", "terraform-provider-takoform"} {
		if _, err := os.Stat(filepath.Join(bin, b)); err != nil {
			t.Fatalf("%s is missing: run `go tool mage build tofu` (or `go tool mage test`) first", filepath.Join(bin, b))
		}
	}
	return bin
}

// sim is one bin/hostsim process with an admin token.
type sim struct {
	URL, UI, token string
}

func startHostsim(t *testing.T, bin, profile string) *sim {
	t.Helper()
	dir := t.TempDir()
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	s := &sim{token: "adm-" + hex.EncodeToString(b)}
	ready := filepath.Join(dir, "ready.json")
	logf, err := os.Create(filepath.Join(dir, "hostsim.log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(filepath.Join(bin, "hostsim"), "serve", "--addr", "127.0.0.1:0", "--profile", profile,
		"--admin-token", s.token, "--ready-file", ready)
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGINT)
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
		logf.Close()
	})
	r, err := readyfile.Await(context.Background(), ready, done, 20*time.Second)
	if err != nil {
		t.Fatalf("hostsim wrote no ready file (%v); see %s", err, logf.Name())
	}
	s.URL, s.UI = r.URL, r.UI
	if s.UI != s.URL+"/_sim/ui/" {
		t.Fatalf("the ready file names the dashboard %q, want %q", s.UI, s.URL+"/_sim/ui/")
	}
	return s
}

// admin calls the admin API with the admin token.
func (s *sim) admin(t *testing.T, method, path string, body any, out any) {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, s.URL+"/_sim"+path, rd)
	req.Header.Set("Authorization", "Bearer "+s.token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode/100 != 2 {
		t.Fatalf("%s /_sim%s: HTTP %d %s", method, path, resp.StatusCode, b)
	}
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatal(err)
		}
	}
}

// tofu runs OpenTofu in a copy of testdata/ against one host, through the
// provider's dev_overrides (no init, no network).
type tofu struct {
	bin, dir string
	env      []string
}

func newTofu(t *testing.T, bin string, s *sim) *tofu {
	t.Helper()
	dir := t.TempDir()
	for _, f := range []string{"main.tf", "index.js"} {
		b, err := os.ReadFile(filepath.Join("testdata", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rc := filepath.Join(dir, ".tofurc")
	cfg := fmt.Sprintf("provider_installation {\n  dev_overrides {\n    \"registry.opentofu.org/takokit/takoform\" = %q\n  }\n  direct {}\n}\n", bin)
	if err := os.WriteFile(rc, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "TF_") && !strings.HasPrefix(kv, "TOFU_") && !strings.HasPrefix(kv, "TAKOFORM_") && !strings.HasPrefix(kv, "HOME=") {
			env = append(env, kv)
		}
	}
	env = append(env, "HOME="+dir, "TF_CLI_CONFIG_FILE="+rc, "TF_IN_AUTOMATION=1", "CHECKPOINT_DISABLE=1",
		"TAKOFORM_ENDPOINT="+s.URL, "TAKOFORM_TOKEN=sim-primary", "TAKOFORM_SPACE=demo")
	return &tofu{bin: filepath.Join(bin, "tofu"), dir: dir, env: env}
}

// run runs one tofu command and returns its combined output and error.
func (tf *tofu) run(args ...string) (string, error) {
	cmd := exec.Command(tf.bin, args...)
	cmd.Dir, cmd.Env = tf.dir, tf.env
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// apply applies and fails the test unless it succeeds.
func (tf *tofu) apply(t *testing.T, vars ...string) string {
	t.Helper()
	args := []string{"apply", "-auto-approve", "-no-color", "-input=false"}
	for _, v := range vars {
		args = append(args, "-var", v)
	}
	out, err := tf.run(args...)
	if err != nil || !strings.Contains(out, "Apply complete!") {
		t.Fatalf("tofu %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// newChromium starts a headless Chromium with a fresh profile. Its temporary
// directory is the test's too: Chromium leaves its org.chromium.Chromium.* folders
// (the profile's singleton lock) in TMPDIR, and the test removes its own.
func newChromium(t *testing.T, path string) context.Context {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-component-update", true),
		chromedp.UserDataDir(t.TempDir()), chromedp.Env("TMPDIR="+t.TempDir()), chromedp.WindowSize(1280, 900))
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(alloc)
	t.Cleanup(func() { cancel(); cancelAlloc() })
	if err := chromedp.Do(ctx); err != nil { // starts the browser, bound to ctx
		t.Fatalf("start %s: %v", path, err)
	}
	return ctx
}

// do runs browser actions with a bound, failing the test on error.
func do(t *testing.T, ctx context.Context, what string, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	c, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	if err := chromedp.Do(c, steps...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// eval evaluates a script expression in the page.
func eval[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	c, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	v, err := chromedp.Run(c, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("evaluate %s: %v", expr, err)
	}
	return v
}

// waitFor evaluates a script expression every 25ms until it is true. An
// evaluation that fails (the page is navigating) counts as false.
func waitFor(t *testing.T, ctx context.Context, what, expr string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	var last error
	for time.Now().Before(deadline) {
		c, cancel := context.WithTimeout(ctx, 5*time.Second)
		ok, err := chromedp.Run(c, chromedp.Evaluate[bool]("!!("+expr+")"))
		cancel()
		if err == nil && ok {
			return
		}
		last = err
		time.Sleep(25 * time.Millisecond)
	}
	c, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	body, _ := chromedp.Run(c, chromedp.Evaluate[string](`document.querySelector("main") ? document.querySelector("main").innerText : ""`))
	t.Fatalf("waiting for %s (%s): not true within 30s (last error %v)\npage text:\n%s", what, expr, last, body)
}
