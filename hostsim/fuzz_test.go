package hostsim_test

import (
	"bytes"
	"io"
	"net/http"
	"testing"

	"github.com/takokit/takokit/hostsim"
	"github.com/takokit/takokit/hostsim/hostsimtest"
)

// FuzzApplyDecoding throws arbitrary bodies and precondition headers at the
// PUT route: hostsim must never panic and never answer 5xx for bad input.
func FuzzApplyDecoding(f *testing.F) {
	cat := testCatalog(f)
	form := updatable(f, cat)
	sim := hostsimtest.Start(f, hostsim.Config{Catalog: cat})
	good := body(form, "orders", "prod", fixture(f, form), map[string]any{"review": map[string]any{"prepareDigest": "sha256:" + string(bytes.Repeat([]byte("a"), 64))}})
	f.Add(good, "*", "")
	f.Add([]byte(`{"apiVersion":1}`), "", "1")
	f.Add([]byte(`{"spec":{"a":-0}}`), "*", "01")
	f.Add([]byte("\xff\xfe"), "", "")
	f.Add(bytes.Repeat([]byte("["), 400), "*", "")
	f.Add([]byte(`{"apiVersion":"a","apiVersion":"b"}`), "*", "")
	path := resPath(form, "orders")
	f.Fuzz(func(t *testing.T, b []byte, inm, fence string) {
		req, err := http.NewRequest("PUT", sim.URL+path, bytes.NewReader(b))
		if err != nil {
			return
		}
		req.Header.Set("Authorization", "Bearer sim-primary")
		req.Header.Set("Idempotency-Key", "fuzz")
		if inm != "" && validHeader(inm) {
			req.Header.Set("If-None-Match", inm)
		}
		if fence != "" && validHeader(fence) {
			req.Header.Set("Takoform-Expected-Generation", fence)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("the request failed in transport (did the handler panic?): %v", err)
		}
		out, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode >= 500 {
			t.Fatalf("HTTP %d for malformed input: %s", resp.StatusCode, out)
		}
	})
}

func validHeader(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] == 0x7f {
			return false
		}
	}
	return true
}
