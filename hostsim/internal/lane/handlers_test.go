package lane_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"testing"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim"
	"github.com/takokit/takokit/hostsim/hostsimtest"
)

// host is a simulator with one resource created, and a client of it.
type host struct {
	t    *testing.T
	sim  *hostsimtest.Sim
	f    *catalog.Form
	spec json.RawMessage
	keys int
}

const space = "lane-tests"

func newHost(t *testing.T, name string) *host {
	t.Helper()
	cat, err := catalog.Embedded()
	if err != nil {
		t.Fatalf("the built-in catalog does not load: %v", err)
	}
	h := &host{t: t, sim: hostsimtest.Start(t, hostsim.Config{Catalog: cat, ConformanceProbes: true})}
	for _, f := range cat.Forms() {
		if len(f.Fixtures) > 0 && len(f.Relations) == 0 && !f.HasOutputs() && f.Role != "revision" {
			h.f, h.spec = f, f.Fixtures[0].Desired
			break
		}
	}
	if h.f == nil {
		t.Fatal("the built-in catalog holds no Form without relations and outputs")
	}
	if name != "" {
		h.create(name)().want(201)
	}
	return h
}

// create prepares name and returns the create, to send now or later.
func (h *host) create(name string) func() *reply {
	pd := h.prepare(name)
	hd := map[string]string{"If-None-Match": "*", "Idempotency-Key": h.key()}
	b := h.doc(name, map[string]any{"review": map[string]any{"prepareDigest": pd}})
	return func() *reply { return h.do("PUT", h.path(name), hd, b) }
}

func (h *host) key() string { h.keys++; return fmt.Sprintf("lane-key-%d", h.keys) }

func (h *host) path(name string) string {
	return wire.DefaultLane.APIRoot + "/resources/" + h.f.Ref.APIVersion + "/" + h.f.Ref.Kind + "/" + name
}

func (h *host) query() string { return "?" + wire.ExactQuery(space, h.f.Ref).Encode() }

func (h *host) doc(name string, extra map[string]any) []byte {
	d := map[string]any{"apiVersion": h.f.Ref.APIVersion, "kind": h.f.Ref.Kind,
		"form": map[string]any{"formRef": h.f.Ref}, "metadata": map[string]any{"name": name, "space": space}, "spec": h.spec}
	for k, v := range extra {
		d[k] = v
	}
	b, _ := json.Marshal(d)
	return b
}

func (h *host) prepare(name string) string {
	r := h.do("POST", wire.DefaultLane.APIRoot+"/resources/prepare", nil, h.doc(name, nil)).want(200)
	var out struct {
		Review struct{ PrepareDigest string } `json:"review"`
	}
	_ = json.Unmarshal(r.body, &out)
	return out.Review.PrepareDigest
}

type reply struct {
	t      *testing.T
	what   string
	status int
	header http.Header
	body   []byte
}

func (h *host) send(req *http.Request, headers map[string]string) *reply {
	h.t.Helper()
	req.Header.Set("Authorization", "Bearer sim-primary")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		h.t.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return &reply{t: h.t, what: req.Method + " " + req.URL.Path, status: resp.StatusCode, header: resp.Header, body: b}
}

func (h *host) do(method, path string, headers map[string]string, body []byte) *reply {
	h.t.Helper()
	req, err := http.NewRequest(method, h.sim.URL+path, bytes.NewReader(body))
	if err != nil {
		h.t.Fatal(err)
	}
	if body == nil {
		req.Body = nil
	}
	return h.send(req, headers)
}

func (r *reply) want(status int) *reply {
	r.t.Helper()
	if r.status != status {
		r.t.Fatalf("%s: HTTP %d, want %d: %s", r.what, r.status, status, r.body)
	}
	return r
}

// refused asserts an error envelope with code, and that its message names want.
func (r *reply) refused(code, want string) *reply {
	r.t.Helper()
	var env struct {
		Error struct{ Code, Message string } `json:"error"`
	}
	_ = json.Unmarshal(r.body, &env)
	if env.Error.Code != code || !bytes.Contains([]byte(env.Error.Message), []byte(want)) {
		r.t.Fatalf("%s: HTTP %d %s, want %s naming %q: %s", r.what, r.status, env.Error.Code, code, want, r.body)
	}
	return r
}
