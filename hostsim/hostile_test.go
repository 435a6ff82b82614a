package hostsim_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim"
	"github.com/takokit/takokit/hostsim/hostsimtest"
)

// hostile is one request a hostile or broken client sends.
type hostile struct {
	name, method, path, ctype string
	body                      []byte
	headers                   http.Header
	want                      int // the expected status; 0 = any 4xx
	envelope                  bool
}

// TestHostileClients sends malformed, oversized and odd requests to a running
// hostsim. Each must get a clear 4xx (a valid error envelope where the host's own
// code answers) within a bounded time, and the host must keep serving afterwards.
func TestHostileClients(t *testing.T) {
	cat := testCatalog(t)
	form := updatable(t, cat)
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat})
	put := resPath(form, "hostile") + exactQuery(form, "prod")
	validate := api + "/resources/validate"
	good := body(form, "hostile", "prod", fixture(t, form), nil)

	huge := append([]byte(`{"spec":{"x":"`), bytes.Repeat([]byte("a"), 10<<20)...)
	huge = append(huge, `"}}`...)
	badUTF8 := bytes.Replace(good, []byte(`"hostile"`), []byte("\"host\xffile\""), 1)
	flood := http.Header{}
	for i := range 500 {
		flood.Set(fmt.Sprintf("X-Flood-%d", i), strings.Repeat("v", 100))
	}
	tooMany := http.Header{"X-Big": {strings.Repeat("h", 2<<20)}}

	cases := []hostile{
		{name: "malformed JSON", method: "PUT", path: put, body: []byte(`{"apiVersion":`), want: 400, envelope: true},
		{name: "a JSON array, not an object", method: "POST", path: validate, body: []byte(`[1,2,3]`), want: 400, envelope: true},
		{name: "deep nesting", method: "POST", path: validate, body: []byte(`{"spec":` + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + `}`), want: 400, envelope: true},
		{name: "deep object nesting", method: "PUT", path: put, body: []byte(strings.Repeat(`{"a":`, 50000) + "1" + strings.Repeat("}", 50000)), want: 400, envelope: true},
		{name: "10 MB body", method: "PUT", path: put, body: huge, want: 400, envelope: true},
		{name: "10 MB body to validate", method: "POST", path: validate, body: huge, want: 400, envelope: true},
		{name: "XML under a wrong content type", method: "PUT", path: put, ctype: "application/xml", body: []byte(`<resource/>`), want: 400, envelope: true},
		{name: "form data", method: "POST", path: validate, ctype: "application/x-www-form-urlencoded", body: []byte(`a=1&b=2`), want: 400, envelope: true},
		{name: "bad UTF-8 in a string", method: "POST", path: validate, body: badUTF8, want: 400, envelope: true},
		{name: "bad UTF-8 in a member name", method: "POST", path: validate, body: []byte("{\"\xc3\x28\":1}"), want: 400, envelope: true},
		{name: "NUL bytes", method: "PUT", path: put, body: []byte("{\x00}"), want: 400, envelope: true},
		{name: "a number beyond I-JSON", method: "POST", path: validate, body: bytes.Replace(good, []byte(`"spec":{`), []byte(`"spec":{"zz":1e400,`), 1), want: 400, envelope: true},
		{name: "500 extra headers", method: "PUT", path: put, body: []byte(`{}`), headers: flood, want: 0, envelope: true},
		{name: "headers over the server's limit", method: "GET", path: api + "/forms", headers: tooMany, want: http.StatusRequestHeaderFieldsTooLarge},
	}
	client := &http.Client{Timeout: 30 * time.Second}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			req, err := http.NewRequestWithContext(ctx, c.method, sim.URL+c.path, bytes.NewReader(c.body))
			if err != nil {
				t.Fatal(err)
			}
			for k, v := range c.headers {
				req.Header[k] = v
			}
			req.Header.Set("Authorization", "Bearer sim-primary")
			req.Header.Set("Idempotency-Key", "hostile-"+strings.ReplaceAll(c.name, " ", "-"))
			req.Header.Set("If-None-Match", "*")
			ct := c.ctype
			if ct == "" {
				ct = "application/json"
			}
			req.Header.Set("Content-Type", ct)
			resp, err := client.Do(req)
			if err != nil {
				t.Fatalf("%s %s: no answer: %v", c.method, c.path, err)
			}
			raw, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
			resp.Body.Close()
			switch {
			case resp.StatusCode >= 500:
				t.Errorf("%s: HTTP %d, a server error for bad client input: %s", c.name, resp.StatusCode, snippet(raw))
			case c.want != 0 && resp.StatusCode != c.want:
				t.Errorf("%s: HTTP %d, want %d: %s", c.name, resp.StatusCode, c.want, snippet(raw))
			case c.want == 0 && (resp.StatusCode < 400 || resp.StatusCode >= 500):
				t.Errorf("%s: HTTP %d, want a 4xx refusal: %s", c.name, resp.StatusCode, snippet(raw))
			}
			if c.envelope && resp.StatusCode >= 400 {
				env, err := wire.ParseErrorEnvelope(resp.StatusCode, raw)
				if err != nil {
					t.Errorf("%s: HTTP %d without a valid error envelope (%v): %s", c.name, resp.StatusCode, err, snippet(raw))
				} else if env.Message == "" || env.RequestID == "" {
					t.Errorf("%s: envelope without message or requestId: %s", c.name, snippet(raw))
				}
			}
			stillServing(t, client, sim.URL)
		})
	}
	counters, err := sim.Admin.Counters()
	if err != nil {
		t.Fatal(err)
	}
	if counters.Mutations != 0 {
		t.Errorf("hostile requests mutated the host %d times; bad input must change nothing", counters.Mutations)
	}
}

// stillServing requires discovery to answer 200 right after a hostile request.
func stillServing(t *testing.T, client *http.Client, origin string) {
	t.Helper()
	req, _ := http.NewRequest("GET", origin+discovery, nil)
	req.Header.Set("Authorization", "Bearer sim-primary")
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("the host stopped serving after the hostile request: %v", err)
	}
	defer resp.Body.Close()
	var doc map[string]any
	if resp.StatusCode != 200 || json.NewDecoder(resp.Body).Decode(&doc) != nil {
		t.Fatalf("the host answers discovery with HTTP %d after the hostile request", resp.StatusCode)
	}
}

func snippet(b []byte) string {
	if len(b) > 300 {
		return string(b[:300]) + "…"
	}
	return string(b)
}
