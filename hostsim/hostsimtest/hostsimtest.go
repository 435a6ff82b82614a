// Package hostsimtest starts a hostsim Host for a Go test and gives it an
// admin client. Servers listen on 127.0.0.1 only and close with the test.
package hostsimtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim"
)

// Sim is one running simulator.
type Sim struct {
	URL   string // bare origin, usable as TAKOFORM_ENDPOINT
	Host  *hostsim.Host
	Admin *Admin
}

// Start builds a Host from cfg, serves it on a loopback port and registers
// cleanup on t. It fails the test when the Host cannot be built.
func Start(t testing.TB, cfg hostsim.Config) *Sim {
	t.Helper()
	h, err := hostsim.New(cfg)
	if err != nil {
		t.Fatalf("hostsimtest: start hostsim: %v", err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("hostsimtest: listen on loopback: %v", err)
	}
	srv := &httptest.Server{Listener: l, Config: &http.Server{Handler: h.Handler()}}
	srv.Start()
	t.Cleanup(func() {
		srv.Close()
		_ = h.Close()
	})
	return &Sim{URL: srv.URL, Host: h, Admin: &Admin{base: srv.URL + "/_sim", client: srv.Client(), token: cfg.AdminToken}}
}

// Admin is a client of the /_sim/ API.
type Admin struct {
	base   string
	client *http.Client
	token  string
}

// Counters is the counters document of docs/protocol.md#admin.
type Counters struct {
	Requests     int64            `json:"requests"`
	Mutations    int64            `json:"mutations"`
	Uploads      int64            `json:"uploads"`
	SupportReads int64            `json:"supportReads"`
	Dispatch     map[string]int64 `json:"dispatch"`
	// Fired counts firings per fault (NAME, or NAME=VALUE), durably.
	Fired map[string]int64 `json:"fired"`
}

func (a *Admin) do(method, path string, body []byte, out any) error {
	req, err := http.NewRequest(method, a.base+path, bytes.NewReader(body))
	if err != nil {
		return err
	}
	if a.token != "" {
		req.Header.Set(wire.HeaderAuthorization, "Bearer "+a.token)
	}
	resp, err := a.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("hostsim admin %s %s: HTTP %d: %s", method, path, resp.StatusCode, b)
	}
	if out == nil {
		return nil
	}
	if raw, ok := out.(*json.RawMessage); ok {
		*raw = b
		return nil
	}
	return json.Unmarshal(b, out)
}

// Counters reads the counters.
func (a *Admin) Counters() (Counters, error) {
	var c Counters
	err := a.do("GET", "/counters", nil, &c)
	return c, err
}

// ArmFault arms one fault given in its text form (name[=value][,kind=K][,resource=N][,route=R][,count=N]).
func (a *Admin) ArmFault(text string) error {
	s, err := hostsim.ParseFault(text)
	if err != nil {
		return err
	}
	b, _ := json.Marshal(s)
	return a.do("POST", "/faults", b, nil)
}

// DisarmFaults removes every run-time fault.
func (a *Admin) DisarmFaults() error { return a.do("DELETE", "/faults", nil, nil) }

// Complete finishes a pending operation successfully.
func (a *Admin) Complete(opID string) (json.RawMessage, error) {
	var doc json.RawMessage
	err := a.do("POST", "/operations/"+opID+"/complete", nil, &doc)
	return doc, err
}

// Fail finishes a pending operation with an error code.
func (a *Admin) Fail(opID, code string) (json.RawMessage, error) {
	var doc json.RawMessage
	b, _ := json.Marshal(map[string]string{"error": code})
	err := a.do("POST", "/operations/"+opID+"/complete", b, &doc)
	return doc, err
}

// State returns GET /_sim/state.
func (a *Admin) State() (json.RawMessage, error) {
	var doc json.RawMessage
	err := a.do("GET", "/state", nil, &doc)
	return doc, err
}

// Events returns the journal after event number since.
func (a *Admin) Events(since int64) (json.RawMessage, error) {
	var doc json.RawMessage
	err := a.do("GET", fmt.Sprintf("/events?since=%d", since), nil, &doc)
	return doc, err
}

// Request is one request the host's journal holds (an event of type "request";
// admin routes are not journaled): what a test asserts about what a host was sent.
type Request struct {
	Method         string `json:"method"`
	Route          string `json:"route"` // the lane's route name: apply, prepare, read, forms, …
	Path           string `json:"path"`
	IdempotencyKey string `json:"idempotencyKey"`
	Status         int    `json:"status"`
}

// Requests returns the requests among the journal's first 10,000 events (what GET
// /_sim/events serves at once), oldest first.
func (a *Admin) Requests() ([]Request, error) {
	raw, err := a.Events(0)
	if err != nil {
		return nil, err
	}
	var doc struct {
		Events []struct {
			Type string          `json:"type"`
			Data json.RawMessage `json:"data"`
		} `json:"events"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, fmt.Errorf("events: %w", err)
	}
	var out []Request
	for _, e := range doc.Events {
		if e.Type != "request" {
			continue
		}
		var r Request
		if err := json.Unmarshal(e.Data, &r); err != nil {
			return nil, fmt.Errorf("request event: %w: %s", err, e.Data)
		}
		out = append(out, r)
	}
	return out, nil
}

// Reset empties every table and disarms run-time faults.
func (a *Admin) Reset() error { return a.do("POST", "/reset", nil, nil) }

// Databases returns GET /_sim/databases: each SQLiteDatabase's real database,
// its migration ledger and its tables.
func (a *Admin) Databases() (json.RawMessage, error) {
	var doc json.RawMessage
	err := a.do("GET", "/databases", nil, &doc)
	return doc, err
}
