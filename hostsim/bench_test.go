package hostsim_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/hostsim"
	"github.com/takokit/takokit/hostsim/hostsimtest"
)

// benchClient is a keep-alive client that drains every body.
type benchClient struct {
	b    testing.TB
	base string
	hc   *http.Client
}

func (c *benchClient) do(method, path string, h map[string]string, body []byte, want int) []byte {
	req, _ := http.NewRequest(method, c.base+path, bytes.NewReader(body))
	if body == nil {
		req.Body = nil
	}
	req.Header.Set("Authorization", "Bearer sim-primary")
	for k, v := range h {
		req.Header.Set(k, v)
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		c.b.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != want {
		c.b.Fatalf("%s %s: HTTP %d: %s", method, path, resp.StatusCode, b)
	}
	return b
}

// requester answers one request: over the network (benchClient) or straight to
// the handler (handlerClient).
type requester interface {
	do(method, path string, h map[string]string, body []byte, want int) []byte
}

// lifecycle is prepare → PUT → GET → DELETE of one resource.
func lifecycle(c requester, f *catalog.Form, spec map[string]any, name string) {
	pb := c.do("POST", api+"/resources/prepare", nil, body(f, name, "bench", spec, nil), 200)
	var p struct {
		Review struct{ PrepareDigest string }
	}
	_ = json.Unmarshal(pb, &p)
	c.do("PUT", resPath(f, name), map[string]string{"If-None-Match": "*", "Idempotency-Key": "k-" + name},
		body(f, name, "bench", spec, map[string]any{"review": map[string]any{"prepareDigest": p.Review.PrepareDigest}}), 201)
	c.do("GET", resPath(f, name)+exactQuery(f, "bench"), nil, nil, 200)
	c.do("DELETE", resPath(f, name)+exactQuery(f, "bench"), map[string]string{"Takoform-Expected-Generation": "1", "Idempotency-Key": "d-" + name}, nil, 204)
}

func newBench(b *testing.B) (*benchClient, *hostsimtest.Sim) {
	sim := hostsimtest.Start(b, hostsim.Config{Catalog: testCatalog(b)})
	tr := &http.Transport{MaxIdleConnsPerHost: 64}
	b.Cleanup(tr.CloseIdleConnections)
	return &benchClient{b: b, base: sim.URL, hc: &http.Client{Transport: tr}}, sim
}

// BenchmarkLifecycle is one prepare → PUT → GET → DELETE on loopback with keep-alive.
func BenchmarkLifecycle(b *testing.B) {
	c, _ := newBench(b)
	f := updatable(b, testCatalog(b))
	spec := fixture(b, f)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		lifecycle(c, f, spec, fmt.Sprintf("r%d", i))
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "lifecycles/s")
}

// BenchmarkConcurrentReads reads one resource from many goroutines while a
// writer keeps mutating another: reads must not queue behind the writer.
func BenchmarkConcurrentReads(b *testing.B) {
	c, _ := newBench(b)
	f := updatable(b, testCatalog(b))
	spec := fixture(b, f)
	lifecycle(c, f, spec, "warm")
	pb := c.do("POST", api+"/resources/prepare", nil, body(f, "hot", "bench", spec, nil), 200)
	var p struct {
		Review struct{ PrepareDigest string }
	}
	_ = json.Unmarshal(pb, &p)
	c.do("PUT", resPath(f, "hot"), map[string]string{"If-None-Match": "*", "Idempotency-Key": "hot"},
		body(f, "hot", "bench", spec, map[string]any{"review": map[string]any{"prepareDigest": p.Review.PrepareDigest}}), 201)
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
				lifecycle(c, f, spec, fmt.Sprintf("w%d", i))
			}
		}
	}()
	path := resPath(f, "hot") + exactQuery(f, "bench")
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			c.do("GET", path, nil, nil, 200)
		}
	})
	b.StopTimer()
	close(stop)
	<-done
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "reads/s")
}

// BenchmarkRSSAfter2000Lifecycles reports resident memory after 2,000 lifecycles.
func BenchmarkRSSAfter2000Lifecycles(b *testing.B) {
	for i := 0; i < b.N; i++ {
		c, _ := newBench(b)
		f := updatable(b, testCatalog(b))
		spec := fixture(b, f)
		for j := 0; j < 2000; j++ {
			lifecycle(c, f, spec, fmt.Sprintf("m%d-%d", i, j))
		}
	}
	b.ReportMetric(rssMiB(), "RSS-MiB")
}

func rssMiB() float64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			return kb / 1024
		}
	}
	return 0
}

// BenchmarkStartToFirstRequest builds a Host over the catalog and serves its
// first discovery request (docs/decisions.md: well under 100 ms).
func BenchmarkStartToFirstRequest(b *testing.B) {
	cat := testCatalog(b)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		h, err := hostsim.New(hostsim.Config{Catalog: cat})
		if err != nil {
			b.Fatal(err)
		}
		req, _ := http.NewRequest("GET", discovery, nil)
		req.Header.Set("Authorization", "Bearer sim-primary")
		rec := &recorder{header: http.Header{}}
		h.Handler().ServeHTTP(rec, req)
		if rec.code != 200 {
			b.Fatalf("discovery: HTTP %d", rec.code)
		}
		h.Close()
	}
}

type recorder struct {
	header http.Header
	code   int
}

func (r *recorder) Header() http.Header         { return r.header }
func (r *recorder) Write(b []byte) (int, error) { return len(b), nil }
func (r *recorder) WriteHeader(code int)        { r.code = code }

// handlerClient drives the host's handler directly, without a network: what
// the host itself costs per request (BenchmarkLifecycleHandler).
type handlerClient struct {
	b testing.TB
	h http.Handler
}

func (c handlerClient) do(method, path string, h map[string]string, body []byte, want int) []byte {
	req := httptest.NewRequest(method, "http://127.0.0.1"+path, bytes.NewReader(body))
	if body == nil {
		req.Body = http.NoBody
		req.ContentLength = 0
	}
	req.RemoteAddr = "127.0.0.1:1234"
	req.Header.Set("Authorization", "Bearer sim-primary")
	for k, v := range h {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	c.h.ServeHTTP(rec, req)
	if rec.Code != want {
		c.b.Fatalf("%s %s: HTTP %d: %s", method, path, rec.Code, rec.Body.Bytes())
	}
	return rec.Body.Bytes()
}

// BenchmarkLifecycleHandler is BenchmarkLifecycle without the network: the
// host's own CPU and allocations per prepare → PUT → GET → DELETE.
func BenchmarkLifecycleHandler(b *testing.B) {
	cat := testCatalog(b)
	h, err := hostsim.New(hostsim.Config{Catalog: cat})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { h.Close() })
	c := handlerClient{b: b, h: h.Handler()}
	f := updatable(b, cat)
	spec := fixture(b, f)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		lifecycle(c, f, spec, fmt.Sprintf("r%d", i))
	}
}
