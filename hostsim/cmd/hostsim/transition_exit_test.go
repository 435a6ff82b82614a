package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/readyfile"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/transition"
)

// simProcess is one `hostsim serve` process on a database file.
type simProcess struct {
	cmd  *exec.Cmd
	url  string
	done chan error
}

func startSim(t *testing.T, bin, dir string, args ...string) *simProcess {
	t.Helper()
	return startSimEnv(t, bin, dir, nil, args...)
}

// startSimEnv is startSim with the process's environment: env (nil: this
// process's).
func startSimEnv(t *testing.T, bin, dir string, env []string, args ...string) *simProcess {
	t.Helper()
	ready := filepath.Join(dir, "ready.json")
	_ = os.Remove(ready)
	cmd := exec.Command(bin, append([]string{"serve", "--addr", "127.0.0.1:0", "--ready-file", ready}, args...)...)
	cmd.Env = env
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &simProcess{cmd: cmd, done: make(chan error, 1)}
	go func() { p.done <- cmd.Wait() }()
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	info, err := readyfile.Await(context.Background(), ready, nil, 20*time.Second)
	if err != nil {
		t.Fatalf("the ready file never appeared: %v", err)
	}
	p.url = info.URL
	return p
}

var noReuse = &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}

func (p *simProcess) do(t *testing.T, method, path string, h map[string]string, body []byte) (int, []byte, error) {
	t.Helper()
	req, _ := http.NewRequest(method, p.url+path, bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer sim-primary")
	for k, v := range h {
		req.Header.Set(k, v)
	}
	resp, err := noReuse.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, b, err
}

// TestTransitionExitRestart: `hostsim serve --db FILE` exits at point C of a
// Form transition (fault transition.exit=C); restarted on the same file, the
// readback repairs forward from the backend's evidence with one dispatch.
func TestTransitionExitRestart(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the hostsim binary")
	}
	cat, err := catalog.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	var tr *catalog.Transition
	var from, to *catalog.Form
	for _, x := range cat.Transitions() {
		f, _ := cat.Form(x.From)
		if f != nil && len(f.Relations) == 0 && len(f.Fixtures) > 0 {
			tr, from = x, f
			to, _ = cat.Form(x.To)
			break
		}
	}
	if tr == nil {
		t.Skip("no standalone transition in the built-in catalog")
	}
	dir := t.TempDir()
	bin := hostsimBinary(t)
	db := filepath.Join(dir, "sim.db")
	p := startSim(t, bin, dir, "--db", db)

	path := wire.DefaultLane.APIRoot + "/resources/" + from.Ref.APIVersion + "/" + from.Ref.Kind + "/orders"
	var spec map[string]any
	_ = json.Unmarshal(from.Fixtures[0].Desired, &spec)
	doc := map[string]any{"apiVersion": from.Ref.APIVersion, "kind": from.Ref.Kind, "form": map[string]any{"formRef": from.Ref},
		"metadata": map[string]any{"name": "orders", "space": "prod"}, "spec": spec}
	b, _ := json.Marshal(doc)
	st, body, err := p.do(t, "POST", wire.DefaultLane.APIRoot+"/resources/prepare", nil, b)
	if err != nil || st != 200 {
		t.Fatalf("prepare: %d %s %v", st, body, err)
	}
	var prep struct {
		Review struct{ PrepareDigest string }
	}
	_ = json.Unmarshal(body, &prep)
	doc["review"] = map[string]any{"prepareDigest": prep.Review.PrepareDigest}
	b, _ = json.Marshal(doc)
	st, body, err = p.do(t, "PUT", path, map[string]string{"If-None-Match": "*", "Idempotency-Key": "create-1"}, b)
	if err != nil || st != 201 {
		t.Fatalf("create: %d %s %v", st, body, err)
	}
	var res struct{ Metadata struct{ UID string } }
	_ = json.Unmarshal(body, &res)

	req, _ := http.NewRequest("POST", p.url+"/_sim/faults", strings.NewReader(`{"fault":"transition.exit","value":"C","count":1}`))
	if resp, err := noReuse.Do(req); err != nil || resp.StatusCode != 201 {
		t.Fatalf("arm: %v %v", err, resp)
	}
	rq, err := transition.NewRequest(tr, from, to, "prod", "orders", res.Metadata.UID, 1, 1, spec)
	if err != nil {
		t.Fatal(err)
	}
	b, _ = json.Marshal(rq)
	h := map[string]string{"Idempotency-Key": rq.OperationID, "Takoform-Expected-Generation": "1", "If-Match": `"1"`}
	if st, body, err := p.do(t, "POST", path+"/form-transitions?space=prod", h, b); err == nil {
		t.Fatalf("the POST answered %d %s; the process should have exited at C", st, body)
	}
	select {
	case err := <-p.done:
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != transition.ExitStatus {
			t.Fatalf("hostsim exited with %v, want status %d", err, transition.ExitStatus)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("hostsim did not exit at point C")
	}

	p = startSim(t, bin, dir, "--db", db)
	st, body, err = p.do(t, "GET", path+"/form-transitions/"+rq.OperationID+"?space=prod", nil, nil)
	if err != nil || st != 200 || !strings.Contains(string(body), `"status":"committed"`) {
		t.Fatalf("readback after restart: %d %s %v", st, body, err)
	}
	q := "?" + strings.ReplaceAll(wire.ExactQuery("prod", to.Ref).Encode(), "+", "%20")
	if st, body, _ := p.do(t, "GET", path+q, nil, nil); st != 200 || !strings.Contains(string(body), `"generation":"2"`) {
		t.Fatalf("read under toForm: %d %s", st, body)
	}
	resp, err := noReuse.Get(p.url + "/_sim/counters")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var c struct{ Dispatch map[string]int64 }
	_ = json.NewDecoder(resp.Body).Decode(&c)
	if c.Dispatch[rq.OperationID] != 1 {
		t.Fatalf("dispatch counters %v, want exactly one for %s", c.Dispatch, rq.OperationID)
	}
}
