package hostsim_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"path/filepath"
	"testing"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/hostsim"
	"github.com/takokit/takokit/hostsim/hostsimtest"
	"github.com/takokit/takokit/hostsim/internal/transition"
)

// standalonePair is a declared transition between Forms without relations.
func standalonePair(t *testing.T, cat *catalog.Catalog) (*catalog.Transition, *catalog.Form, *catalog.Form) {
	t.Helper()
	for _, x := range cat.Transitions() {
		f, ok1 := cat.Form(x.From)
		g, ok2 := cat.Form(x.To)
		if ok1 && ok2 && len(f.Relations) == 0 && len(f.Fixtures) > 0 {
			return x, f, g
		}
	}
	t.Skip("the catalog declares no transition between Forms without relations")
	return nil, nil, nil
}

// postTransition creates name under from and posts its transition; a dropped
// connection answers nil.
func postTransition(t *testing.T, c *client, tr *catalog.Transition, from, to *catalog.Form, name string) *http.Response {
	t.Helper()
	spec := fixture(t, from)
	uid, _, _ := meta(t, c.create(from, name, "prod", spec).status(201))
	req, err := transition.NewRequest(tr, from, to, "prod", name, uid, 1, 1, spec)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(req)
	hr, _ := http.NewRequest("POST", c.base+resPath(from, name)+"/form-transitions?space=prod", bytes.NewReader(b))
	hr.GetBody = nil // Go's transport would otherwise resend a keyed request by itself
	for k, v := range map[string]string{"Authorization": "Bearer sim-primary", "Idempotency-Key": req.OperationID,
		"Takoform-Expected-Generation": "1", "If-Match": `"1"`} {
		hr.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(hr)
	if err != nil {
		return nil
	}
	resp.Body.Close()
	return resp
}

// The transition faults act at their points: a crash point drops the
// connection after its step, an exit point ends the process (here a recorded
// exit), and a rejection answers 409 with its failure code.
func TestTransitionCrashExitAndRejectPoints(t *testing.T) {
	cat := testCatalog(t)
	tr, from, to := standalonePair(t, cat)
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat})
	c := newClient(t, sim.URL, "sim-primary")
	arm(t, sim, "transition.crash=A,count=1")
	if resp := postTransition(t, c, tr, from, to, "crash-a"); resp != nil {
		t.Fatalf("transition.crash=A answered HTTP %d instead of dropping the connection", resp.StatusCode)
	}
	if got := c.read(from, "crash-a", "prod").status(200).json(); len(got["status"].(map[string]any)["conditions"].([]any)) != 2 {
		t.Fatalf("after a crash at A the claim is not held: %v", got["status"])
	}
	arm(t, sim, "transition.reject=backend_refused")
	if resp := postTransition(t, c, tr, from, to, "rejected"); resp == nil || resp.StatusCode != 409 {
		t.Fatalf("transition.reject: %v, want 409", resp)
	}
	disarm(t, sim)

	exited := make(chan int, 1)
	file := hostsimtest.Start(t, hostsim.Config{Catalog: cat, DBPath: filepath.Join(t.TempDir(), "x.db"),
		Exit: func(code int) { exited <- code }})
	fc := newClient(t, file.URL, "sim-primary")
	arm(t, file, "transition.exit=B,count=1")
	if resp := postTransition(t, fc, tr, from, to, "exit-b"); resp != nil {
		t.Fatalf("transition.exit=B answered HTTP %d instead of ending the process", resp.StatusCode)
	}
	select {
	case code := <-exited:
		if code != transition.ExitStatus {
			t.Fatalf("transition.exit ended with %d, want %d", code, transition.ExitStatus)
		}
	default:
		t.Fatal("transition.exit=B did not end the process")
	}
}
