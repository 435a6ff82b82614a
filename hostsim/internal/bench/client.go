package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/takokit/takokit/catalog/wire"
)

const api = "/apis/forms.takoform.com/v1alpha3"

// client runs lifecycles over one keep-alive transport. strict checks every
// status hostsim must answer; the null server answers 200 to everything.
type client struct {
	base   string
	ref    wire.FormRef
	strict bool
	hc     *http.Client
	seq    atomic.Int64
}

func newClient(base string, ref wire.FormRef, strict bool) *client {
	tr := &http.Transport{MaxIdleConnsPerHost: 64, DisableCompression: true}
	return &client{base: base, ref: ref, strict: strict, hc: &http.Client{Transport: tr}}
}

func (c *client) do(method, path string, h map[string]string, body []byte, want int) ([]byte, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequest(method, c.base+path, rd)
	if err != nil {
		return nil, err
	}
	req.Header.Set(wire.HeaderAuthorization, "Bearer sim-primary")
	if body != nil {
		req.Header.Set(wire.HeaderContentType, wire.ContentTypeJSON)
	}
	for k, v := range h {
		req.Header.Set(k, v)
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, err
	}
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	if c.strict && resp.StatusCode != want {
		return nil, fmt.Errorf("%s %s: HTTP %d, want %d: %s", method, path, resp.StatusCode, want, b)
	}
	return b, nil
}

func (c *client) resourceBody(name string, review map[string]string) []byte {
	doc := map[string]any{"apiVersion": c.ref.APIVersion, "kind": c.ref.Kind, "form": map[string]any{"formRef": c.ref},
		"metadata": map[string]string{"name": name, "space": "bench"}, "spec": map[string]any{}}
	if review != nil {
		doc["review"] = review
	}
	b, _ := json.Marshal(doc)
	return b
}

// lifecycle is prepare → PUT (create) → GET → DELETE of one resource.
func (c *client) lifecycle(name string) error {
	res := api + "/resources/" + c.ref.APIVersion + "/" + c.ref.Kind + "/" + name
	query := "?space=bench&group=" + c.ref.APIVersion + "&kind=" + c.ref.Kind + "&definitionVersion=" +
		c.ref.DefinitionVersion + "&schemaDigest=" + c.ref.SchemaDigest
	pb, err := c.do("POST", api+"/resources/prepare", nil, c.resourceBody(name, nil), 200)
	if err != nil {
		return err
	}
	var p struct {
		Review struct {
			PrepareDigest string `json:"prepareDigest"`
		} `json:"review"`
	}
	_ = json.Unmarshal(pb, &p)
	put := c.resourceBody(name, map[string]string{"prepareDigest": p.Review.PrepareDigest})
	if _, err := c.do("PUT", res, map[string]string{wire.HeaderIfNoneMatch: "*", wire.HeaderIdempotencyKey: "c-" + name}, put, 201); err != nil {
		return err
	}
	if _, err := c.do("GET", res+query, nil, nil, 200); err != nil {
		return err
	}
	_, err = c.do("DELETE", res+query, map[string]string{wire.HeaderExpectedGeneration: "1", wire.HeaderIdempotencyKey: "d-" + name}, nil, 204)
	return err
}

// loop runs n lifecycles one after another.
func (c *client) loop(tag string, n int) error {
	for range n {
		if err := c.lifecycle(fmt.Sprintf("%s-%d", tag, c.seq.Add(1))); err != nil {
			return err
		}
	}
	return nil
}

// rate runs n lifecycles across workers and returns lifecycles per second.
func (c *client) rate(tag string, n, workers int) (float64, error) {
	var wg sync.WaitGroup
	var first error
	var mu sync.Mutex
	per := n / workers
	start := time.Now()
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := c.loop(tag, per); err != nil {
				mu.Lock()
				first = err
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return float64(per*workers) / time.Since(start).Seconds(), first
}

// kvFormRef asks the host which EdgeKVNamespace it installs.
func kvFormRef(base string) (wire.FormRef, error) {
	c := newClient(base, wire.FormRef{}, true)
	b, err := c.do("GET", api+"/support/forms", nil, nil, 200)
	if err != nil {
		return wire.FormRef{}, err
	}
	var doc struct {
		Profiles []struct {
			FormRef wire.FormRef `json:"formRef"`
		} `json:"profiles"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		return wire.FormRef{}, err
	}
	for _, p := range doc.Profiles {
		if p.FormRef.Kind == "EdgeKVNamespace" {
			return p.FormRef, nil
		}
	}
	return wire.FormRef{}, fmt.Errorf("the host installs no EdgeKVNamespace")
}

// report prints rates as they are measured and the ratios at the end.
type report struct {
	out     io.Writer
	workers int
	rates   [][2]float64 // per measured host: sequential, parallel
	served  int          // lifecycles the last measured host served, warm-up included
}

func (r *report) measure(label, base string, ref wire.FormRef, o options, strict bool) error {
	c := newClient(base, ref, strict)
	if err := c.loop("warm", o.sequential/10); err != nil {
		return fmt.Errorf("%s: %w", label, err)
	}
	seq, err := c.rate("s", o.sequential, 1)
	if err != nil {
		return fmt.Errorf("%s: %w", label, err)
	}
	if err := c.loop("warm", o.sequential/10); err != nil {
		return fmt.Errorf("%s: %w", label, err)
	}
	par, err := c.rate("p", o.parallel, r.workers)
	if err != nil {
		return fmt.Errorf("%s: %w", label, err)
	}
	c.hc.CloseIdleConnections()
	r.rates = append(r.rates, [2]float64{seq, par})
	r.served = int(c.seq.Load())
	fmt.Fprintf(r.out, "%-28s sequential %7.0f lifecycles/s   %d workers %7.0f lifecycles/s\n", label, seq, r.workers, par)
	return nil
}

// ratios prints hostsim's rates over the null server's (the first two measured).
func (r *report) ratios() {
	if len(r.rates) < 2 {
		return
	}
	n, h := r.rates[0], r.rates[1]
	fmt.Fprintf(r.out, "hostsim/null                 sequential %7.2f                 %d workers %7.2f\n", h[0]/n[0], r.workers, h[1]/n[1])
}
