package client

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim"
	"github.com/takokit/takokit/hostsim/hostsimtest"
)

// The support cache of docs/provider-design.md#plan-time-support, counted with hostsim's supportReads.

func cacheSim(t *testing.T, profile string) (*hostsimtest.Sim, *Client) {
	t.Helper()
	if len(profile) > 0 && profile[0] == '{' {
		p := filepath.Join(t.TempDir(), "profile.json")
		if err := os.WriteFile(p, []byte(profile), 0o644); err != nil {
			t.Fatal(err)
		}
		profile = p
	}
	sim := hostsimtest.Start(t, hostsim.Config{Profile: profile})
	c, err := New(Config{Endpoint: sim.URL, Token: "sim-primary"})
	if err != nil {
		t.Fatal(err)
	}
	return sim, c
}

func supportReads(t *testing.T, sim *hostsimtest.Sim) int64 {
	t.Helper()
	c, err := sim.Admin.Counters()
	if err != nil {
		t.Fatal(err)
	}
	return c.SupportReads
}

func cacheForm(t *testing.T, kind string) wire.FormRef {
	t.Helper()
	cat, err := catalog.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range cat.Kinds() {
		if k.Kind == kind {
			return k.DefaultCreate().Ref
		}
	}
	t.Fatalf("no kind %s in the catalog", kind)
	return wire.FormRef{}
}

func TestSupportCacheConcurrentAskersShareOneRequest(t *testing.T) {
	t.Parallel()
	sim, c := cacheSim(t, `{"name":"slowish","extends":"full","support":"slow:300ms"}`)
	ref := cacheForm(t, "AtLeastOnceQueue")
	const n = 8
	answers := make([]*SupportAnswer, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			answers[i], errs[i] = c.FormSupport(context.Background(), ref)
		}(i)
	}
	wg.Wait()
	for i := range answers {
		if errs[i] != nil || answers[i] == nil || answers[i].Profile == nil || answers[i] != answers[0] {
			t.Fatalf("asker %d: %v %+v (every asker shares the one answer)", i, errs[i], answers[i])
		}
	}
	if got := supportReads(t, sim); got != 1 {
		t.Errorf("%d concurrent askers made %d requests, want 1", n, got)
	}
	if _, err := c.FormSupport(context.Background(), ref); err != nil || supportReads(t, sim) != 1 {
		t.Errorf("a cached answer was read again (%v)", err)
	}
}

func TestSupportCacheKeepsRefusalsAndTheListing(t *testing.T) {
	t.Parallel()
	sim, c := cacheSim(t, "kv-only")
	for i := 0; i < 3; i++ {
		ans, err := c.BindingSupport(context.Background(), "module-worker.object-bucket", "1.0.0")
		if err != nil || ans.Refusal == nil || ans.Refusal.Env.Code != wire.CodeResourceNotFound {
			t.Fatalf("want the resource_not_found refusal, got %+v %v", ans, err)
		}
		if _, err := c.FormSupport(context.Background(), cacheForm(t, "ObjectBucket")); err != nil {
			t.Fatal(err)
		}
		if _, err := c.SupportedFormVersions(context.Background(), cacheForm(t, "ObjectBucket").APIVersion, "ObjectBucket"); err != nil {
			t.Fatal(err)
		}
	}
	if got := supportReads(t, sim); got != 3 {
		t.Errorf("support reads = %d, want 3 (binding refusal, Form refusal, listing: each once)", got)
	}
}

func TestSupportCacheDeadlineIsUndecidedAndNotPinned(t *testing.T) {
	t.Parallel()
	sim, c := cacheSim(t, `{"name":"slow","extends":"full","support":"slow:1s"}`)
	ref := cacheForm(t, "EdgeKVNamespace")
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	ans, err := c.FormSupport(ctx, ref)
	cancel()
	if err == nil || ans != nil {
		t.Fatalf("a read past the deadline must be undecided, got %+v", ans)
	}
	var h *HostError
	if errors.As(err, &h) {
		t.Fatalf("a deadline is not a host answer: %v", err)
	}
	// the failure is not cached: the next asker with time left is answered
	ans, err = c.FormSupport(context.Background(), ref)
	if err != nil || ans.Profile == nil || ans.Profile.FormRef.SchemaDigest != ref.SchemaDigest {
		t.Fatalf("the next asker: %+v %v", ans, err)
	}
	if got := supportReads(t, sim); got < 2 {
		t.Errorf("support reads = %d; the failed read must not have been pinned", got)
	}
}
