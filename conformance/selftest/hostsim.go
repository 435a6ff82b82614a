// Package selftest proves the runner against hostsim run as a process
// (docs/guides/conformance.md): the positive suite against the `full` profile and each
// check against its negative. It imports nothing of hostsim.
package selftest

import (
	"bytes"
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
	"strings"
	"syscall"
	"time"

	"github.com/takokit/takokit/catalog/piddir"
	"github.com/takokit/takokit/catalog/readyfile"
)

// The default hostsim credentials (docs/protocol.md#auth).
const (
	TokenPrimary     = "sim-primary"
	TokenAlternate   = "sim-alternate"
	TokenOtherTenant = "sim-other-tenant"
)

// FindHostsim returns the hostsim binary: path when given, else bin/hostsim, else
// hostsim on PATH. The error names every place it looked.
func FindHostsim(path string) (string, error) {
	if path != "" {
		st, err := os.Stat(path)
		switch {
		case err != nil:
			return "", fmt.Errorf("no hostsim binary at %s (from --hostsim); build it with `go tool mage build`", path)
		case st.IsDir():
			return "", fmt.Errorf("--hostsim %s is a directory; give the hostsim binary in it, such as %s", path, filepath.Join(path, "hostsim"))
		case st.Mode()&0o111 == 0:
			return "", fmt.Errorf("--hostsim %s is not executable (%v); give the hostsim binary (`go tool mage build` writes bin/hostsim)", path, st.Mode())
		}
		return path, nil
	}
	if st, err := os.Stat(filepath.Join("bin", "hostsim")); err == nil && !st.IsDir() {
		return filepath.Join("bin", "hostsim"), nil
	}
	if p, err := exec.LookPath("hostsim"); err == nil {
		return p, nil
	}
	wd, _ := os.Getwd()
	return "", fmt.Errorf("no hostsim binary: looked at %s and for hostsim on PATH; build it with `go tool mage build` or pass --hostsim PATH", filepath.Join(wd, "bin", "hostsim"))
}

// NoHostsimEnv opts out of the tests that run bin/hostsim: set to 1, they skip, the
// skip naming this variable (`go tool mage unit` and `mage quick` set it: they build
// nothing and run only unit tests). Unset, a missing binary fails them, in CI and
// outside it alike: the self-test is what proves every check can fail, and a run that
// skipped it without being asked would prove nothing.
const NoHostsimEnv = "TAKOKIT_NO_HOSTSIM"

// LocateHostsim looks for bin/hostsim beside the go.work above wd. It returns the
// binary, or why a test needing it skips (only when optOut, from NoHostsimEnv), or
// why it fails (a missing binary otherwise): the tests of this module that run hostsim
// as a process all find it this way.
func LocateHostsim(wd string, optOut bool) (bin, skip string, err error) {
	// bin/ is outside this module, where go test's result cache does not look: reading
	// bin/hostsim's id that `go tool mage test` sets keys the caller's results on it,
	// and on no other binary (docs/decisions.md#test-cache).
	_ = os.Getenv("TAKOKIT_BIN_ID_HOSTSIM")
	if optOut {
		return "", NoHostsimEnv + "=1 leaves out the tests that run bin/hostsim (go tool mage test runs them)", nil
	}
	why := "no go.work above " + wd + ", so no bin/hostsim to run the self-test with"
	for d := wd; filepath.Dir(d) != d; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.work")); err == nil {
			bin = filepath.Join(d, "bin", "hostsim")
			if _, err := os.Stat(bin); err == nil {
				return bin, "", nil
			}
			why = fmt.Sprintf("no hostsim binary at %s: build it with `go tool mage build` (or go build -o bin/hostsim ./hostsim/cmd/hostsim)", bin)
			break
		}
	}
	return "", "", fmt.Errorf("%s; the self-test tests need it (`go tool mage test` builds it first), or set %s=1 to skip them", why, NoHostsimEnv)
}

// HostsimOptOut reports whether NoHostsimEnv asks the hostsim tests to skip.
func HostsimOptOut() bool {
	v, _ := strconv.ParseBool(os.Getenv(NoHostsimEnv))
	return v
}

// Sim is one running hostsim process.
type Sim struct {
	URL     string
	Admin   string
	Profile string
	cmd     *exec.Cmd
	exited  chan struct{} // closed once the process ended
	waitErr error         // how it ended, once exited is closed
	stderr  *bytes.Buffer
	dir     string
	stop    func() // a host not run as a process (startHost in tests)
}

// A started host's folder holds its ready file. It is named for the process
// that started the host (conformance-hostsim-<pid>-*, catalog/piddir): Stop removes it, and
// when that process was killed outright (SIGKILL, which no process can catch,
// or a test binary's panic on timeout) the next Start in any process removes
// the folders of processes no longer running. Where the system cannot tell
// (piddir.Alive's fallback), nothing is removed.
const runDirPrefix = "conformance-hostsim-"

// startHost starts the self-test's hosts: Start, or in this package's tests an
// in-process hostsim when TAKOKIT_SELFTEST_INPROCESS=1 (inprocess_test.go).
var startHost = Start

// Start runs `hostsim serve` on a free loopback port with the profile and the
// probe header enabled, and waits on its ready file.
func Start(ctx context.Context, bin, profile string, extra ...string) (*Sim, error) {
	dir, err := piddir.Make(os.TempDir(), runDirPrefix)
	if err != nil {
		return nil, err
	}
	ready := filepath.Join(dir, "ready.json")
	args := append([]string{"serve", "--addr", "127.0.0.1:0", "--profile", profile, "--ready-file", ready, "--conformance-probes"}, extra...)
	cmd := exec.Command(bin, args...)
	dieWithParent(cmd)
	var stderr bytes.Buffer
	cmd.Stdout = io.Discard
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("starting %s: %w", bin, err)
	}
	exited := make(chan struct{})
	s := &Sim{Profile: profile, cmd: cmd, exited: exited, stderr: &stderr, dir: dir}
	go func() { s.waitErr = cmd.Wait(); close(exited) }()
	doc, err := readyfile.Await(ctx, ready, exited, readyWithin)
	switch {
	case errors.Is(err, readyfile.ErrExited):
		os.RemoveAll(dir)
		return nil, fmt.Errorf("hostsim --profile %s exited before it was ready (%v): %s", profile, s.waitErr, strings.TrimSpace(stderr.String()))
	case errors.Is(err, readyfile.ErrTimeout):
		_ = cmd.Process.Kill()
		os.RemoveAll(dir)
		return nil, fmt.Errorf("hostsim --profile %s wrote no ready file %s within %s: %s", profile, ready, readyWithin, strings.TrimSpace(stderr.String()))
	case err != nil:
		_ = cmd.Process.Kill()
		os.RemoveAll(dir)
		return nil, err
	}
	s.URL, s.Admin = doc.URL, doc.Admin
	if s.Admin == "" {
		s.Admin = s.URL + "/_sim"
	}
	return s, nil
}

// readyWithin is how long a started host may take to write its ready file.
const readyWithin = 20 * time.Second

// Stop interrupts the process, waits up to five seconds, then kills it.
func (s *Sim) Stop() {
	if s.stop != nil {
		s.stop()
		return
	}
	_ = s.cmd.Process.Signal(syscall.SIGINT)
	select {
	case <-s.exited:
	case <-time.After(5 * time.Second):
		_ = s.cmd.Process.Kill()
		<-s.exited
	}
	os.RemoveAll(s.dir)
}

// Reset empties the host and disarms run-time faults.
func (s *Sim) Reset(ctx context.Context) error {
	return s.admin(ctx, http.MethodPost, "/reset", nil, http.StatusOK, http.StatusNoContent)
}

// ArmFault arms one fault given in the text form name[=value][,kind=K][,resource=N][,route=R][,count=N].
func (s *Sim) ArmFault(ctx context.Context, text string) error {
	obj, err := faultObject(text)
	if err != nil {
		return err
	}
	return s.admin(ctx, http.MethodPost, "/faults", obj, http.StatusCreated, http.StatusOK)
}

func (s *Sim) admin(ctx context.Context, method, path string, body []byte, ok ...int) error {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, s.Admin+path, rd)
	if err != nil {
		return err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("hostsim admin %s %s: %w", method, path, err)
	}
	defer res.Body.Close()
	msg, _ := io.ReadAll(io.LimitReader(res.Body, 4096))
	for _, code := range ok {
		if res.StatusCode == code {
			return nil
		}
	}
	return fmt.Errorf("hostsim admin %s %s answered %d: %s", method, path, res.StatusCode, strings.TrimSpace(string(msg)))
}

// faultObject turns the text form into the admin API's fault object.
func faultObject(text string) ([]byte, error) {
	parts := strings.Split(text, ",")
	obj := map[string]any{}
	name, value, hasValue := strings.Cut(parts[0], "=")
	if name == "" {
		return nil, errors.New("fault text names no fault")
	}
	obj["fault"] = name
	if hasValue {
		obj["value"] = value
	}
	for _, p := range parts[1:] {
		k, v, ok := strings.Cut(p, "=")
		if !ok {
			return nil, fmt.Errorf("fault %q: %q is not key=value", text, p)
		}
		switch k {
		case "kind", "resource", "route":
			obj[k] = v
		case "count":
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 {
				return nil, fmt.Errorf("fault %q: count %q is not a positive integer", text, v)
			}
			obj[k] = n
		default:
			return nil, fmt.Errorf("fault %q: unknown key %q", text, k)
		}
	}
	return json.Marshal(obj)
}
