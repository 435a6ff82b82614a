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

// api is the root of the lane the benchmarked hosts speak: bin/hostsim serve speaks the default lane.
var api = wire.DefaultLane.APIRoot

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
		wg.Go(func() {
			if err := c.loop(tag, per); err != nil {
				mu.Lock()
				first = err
				mu.Unlock()
			}
		})
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
