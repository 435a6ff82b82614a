package transition_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim"
)

// client never reuses a connection: net/http retries a request carrying an
// Idempotency-Key on a reused connection that drops, and a dropped
// connection here must stay a dropped connection. A deadline: a request the
// host neither answers nor drops fails its test instead of hanging it.
var client = &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: 3 * time.Second}

// reply is one HTTP answer; dropped is true when the connection was dropped.
type reply struct {
	status  int
	header  http.Header
	body    []byte
	dropped bool
	what    string
}

func (r *reply) json() map[string]any {
	var m map[string]any
	_ = json.Unmarshal(r.body, &m)
	return m
}

func (r *reply) errBody() *wire.Error {
	var env wire.Envelope
	if err := json.Unmarshal(r.body, &env); err != nil || env.Error == nil {
		return &wire.Error{}
	}
	return env.Error
}

func (e *env) do(method, path string, h map[string]string, body []byte) *reply {
	e.t.Helper()
	req, err := http.NewRequest(method, e.url+path, bytes.NewReader(body))
	if err != nil {
		e.t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer sim-primary")
	for k, v := range h {
		if v != "" {
			req.Header.Set(k, v)
		}
	}
	what := method + " " + path
	resp, err := client.Do(req)
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		e.t.Fatalf("%s was neither answered nor dropped: the connection stayed open (%v)", what, err)
	}
	if err != nil {
		return &reply{dropped: true, what: what}
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return &reply{dropped: true, what: what}
	}
	return &reply{status: resp.StatusCode, header: resp.Header, body: b, what: what}
}

func (e *env) arm(text string) {
	e.t.Helper()
	f, err := hostsim.ParseFault(text)
	if err != nil {
		e.t.Fatal(err)
	}
	b, _ := json.Marshal(f)
	r, err := client.Post(e.url+"/_sim/faults", "application/json", bytes.NewReader(b))
	if err != nil {
		e.t.Fatal(err)
	}
	r.Body.Close()
	if r.StatusCode != 201 {
		e.t.Fatalf("arm %s: HTTP %d", text, r.StatusCode)
	}
}

func (e *env) admin(path string, out any) {
	e.t.Helper()
	r, err := client.Get(e.url + "/_sim" + path)
	if err != nil {
		e.t.Fatal(err)
	}
	defer r.Body.Close()
	if err := json.NewDecoder(r.Body).Decode(out); err != nil {
		e.t.Fatal(err)
	}
}

// state is the part of /_sim/state these tests read.
type state struct {
	Resources []struct {
		Name              string `json:"name"`
		DefinitionVersion string `json:"definitionVersion"`
		UID               string `json:"uid"`
		Generation        string `json:"generation"`
		Revision          string `json:"revision"`
		Claim             any    `json:"claim"`
	} `json:"resources"`
	Transitions []struct {
		OperationID       string  `json:"operationId"`
		Status            string  `json:"status"`
		DispatchAttempted bool    `json:"dispatchAttempted"`
		DispatchedAt      *string `json:"dispatchedAt"`
		AwaitingEvidence  bool    `json:"awaitingEvidence"`
		AckDeadlinePassed bool    `json:"ackDeadlinePassed"`
	} `json:"transitions"`
}

func (e *env) state() *state {
	e.t.Helper()
	var s state
	e.admin("/state", &s)
	return &s
}

// counters is the part of /_sim/counters these tests read.
type counters struct {
	Dispatch map[string]int64 `json:"dispatch"`
	Fired    map[string]int64 `json:"fired"` // firings per fault, NAME or NAME=VALUE, durably
}

func (e *env) counters() counters {
	e.t.Helper()
	var c counters
	e.admin("/counters", &c)
	return c
}

func (e *env) dispatches(op string) int64 { e.t.Helper(); return e.counters().Dispatch[op] }

// expectErr fails unless r is the error code (and hostCode when given).
func expectErr(t *testing.T, r *reply, code wire.Code, hostCode string) *wire.Error {
	t.Helper()
	if r.dropped {
		t.Fatalf("%s: dropped connection, want %s", r.what, code)
	}
	e := r.errBody()
	if r.status != code.Status() || e.Code != code || e.HostCode != hostCode {
		t.Fatalf("%s: got %d %s/%q, want %d %s/%q: %s", r.what, r.status, e.Code, e.HostCode, code.Status(), code, hostCode, r.body)
	}
	if e.RequestID == "" || e.Message == "" {
		t.Fatalf("%s: envelope without requestId or message: %s", r.what, r.body)
	}
	return e
}

// fired is how often the armed fault NAME (or NAME=VALUE) fired, durably.
func (e *env) fired(name string) int64 { e.t.Helper(); return e.counters().Fired[name] }

// disarm removes every armed fault (DELETE /_sim/faults).
func (e *env) disarm() {
	e.t.Helper()
	req, _ := http.NewRequest(http.MethodDelete, e.url+"/_sim/faults", nil)
	r, err := client.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	r.Body.Close()
	if r.StatusCode/100 != 2 {
		e.t.Fatalf("DELETE /_sim/faults: HTTP %d", r.StatusCode)
	}
}
