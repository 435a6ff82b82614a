package hostsim_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog/wire"
)

// client drives the lane over HTTP the way a provider would. Tests spell paths in
// the default lane (api, discovery); a client of a host of another lane (speak)
// sends them on that lane's paths instead.
type client struct {
	t     testing.TB
	base  string
	token string
	http  *http.Client
	lane  *wire.Lane // nil = the default lane
}

// speak returns a client of the same host that sends on lane's paths.
func (c *client) speak(lane *wire.Lane) *client {
	cp := *c
	cp.lane = lane
	return &cp
}

// onLane moves a default-lane path to the client's lane.
func (c *client) onLane(path string) string {
	if c.lane == nil || c.lane == wire.DefaultLane {
		return path
	}
	for _, p := range [][2]string{{wire.DefaultLane.APIRoot, c.lane.APIRoot}, {wire.DefaultLane.DiscoveryPath, c.lane.DiscoveryPath}} {
		if rest, ok := strings.CutPrefix(path, p[0]); ok {
			return p[1] + rest
		}
	}
	return path
}

func newClient(t testing.TB, base, token string) *client {
	return &client{t: t, base: base, token: token, http: &http.Client{}}
}

type reply struct {
	t      testing.TB
	code   int
	header http.Header
	body   []byte
	what   string
}

func (c *client) do(method, path string, headers map[string]string, body []byte) *reply {
	c.t.Helper()
	path = c.onLane(path)
	req, err := http.NewRequest(method, c.base+path, bytes.NewReader(body))
	if err != nil {
		c.t.Fatal(err)
	}
	if body == nil {
		req.Body = nil
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		c.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return &reply{t: c.t, code: resp.StatusCode, header: resp.Header, body: b, what: method + " " + path}
}

// status asserts the HTTP status.
func (r *reply) status(want int) *reply {
	r.t.Helper()
	if r.code != want {
		r.t.Fatalf("%s: HTTP %d, want %d: %s", r.what, r.code, want, r.body)
	}
	return r
}

// refused asserts an error envelope with code and status.
func (r *reply) refused(code string, status int) *reply {
	r.t.Helper()
	var env struct {
		Error struct {
			Code      string `json:"code"`
			Message   string `json:"message"`
			RequestID string `json:"requestId"`
		} `json:"error"`
	}
	if err := json.Unmarshal(r.body, &env); err != nil || env.Error.Code == "" {
		r.t.Fatalf("%s: HTTP %d, want a %s envelope; body %s", r.what, r.code, code, r.body)
	}
	if env.Error.Code != code || r.code != status {
		r.t.Fatalf("%s: HTTP %d %s, want HTTP %d %s: %s", r.what, r.code, env.Error.Code, status, code, env.Error.Message)
	}
	if env.Error.Message == "" || env.Error.RequestID == "" {
		r.t.Fatalf("%s: envelope lacks message or requestId: %s", r.what, r.body)
	}
	return r
}

// message is the error envelope's message ("" when the body holds none).
func (r *reply) message() string {
	var env struct{ Error struct{ Message string } }
	_ = json.Unmarshal(r.body, &env)
	return env.Error.Message
}

// json decodes the body into a generic map.
func (r *reply) json() map[string]any {
	r.t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.body, &m); err != nil {
		r.t.Fatalf("%s: body is not a JSON object: %v: %s", r.what, err, r.body)
	}
	return m
}
