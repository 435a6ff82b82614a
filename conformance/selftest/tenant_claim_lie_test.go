package selftest

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/takokit/takokit/conformance"
)

// unnamedClaim answers the other tenant's first create of a WorkerCustomDomain
// with the resource's metadata left out: a claim the host accepted (201) whose
// answer is no resource representation. It counts the answers it changed.
type unnamedClaim struct{ told atomic.Int32 }

func (u *unnamedClaim) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := direct(r)
	if err != nil || r.Method != http.MethodPut || !strings.Contains(r.URL.Path, "/WorkerCustomDomain/") ||
		r.Header.Get("Authorization") != "Bearer "+TokenOtherTenant || resp.StatusCode != http.StatusCreated || u.told.Load() > 0 {
		return resp, err
	}
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	var doc map[string]json.RawMessage
	if json.Unmarshal(b, &doc) == nil {
		delete(doc, "metadata")
		b, _ = json.Marshal(doc)
		u.told.Add(1)
	}
	resp.Header.Del("Content-Length")
	resp.ContentLength, resp.Body = int64(len(b)), io.NopCloser(bytes.NewReader(b))
	return resp, nil
}

// TestHostnameClaimCheckReadsTheOtherTenantsAnswer: the check that a hostname
// claim stops at the tenant creates a claim as the other tenant and goes on with
// the resource its answer names. When that answer is no resource (its metadata
// left out), the check must fail on it, naming the answer, not go on without the
// resource and break later (a runner bug). The recorded lies reach the same
// failure through the first tenant's claim first, so none is told to this one.
func TestHostnameClaimCheckReadsTheOtherTenantsAnswer(t *testing.T) {
	t.Parallel() // its own host
	const id = "custom-domain-hostname-claim-stops-at-the-tenant"
	narrowedTo(t, id)
	ctx, sim, cat := startInProcessSim(t, "full")
	lie := &unnamedClaim{}
	cfg := conformance.Config{Endpoint: sim.URL, Catalog: cat, Space: "unnamed-claim", Only: []string{id}, Transport: lie}
	tokens(&cfg)
	rep, err := conformance.Run(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if lie.told.Load() == 0 {
		t.Fatal("the other tenant created no WorkerCustomDomain: the check no longer claims as the other tenant")
	}
	for _, r := range rep.Checks {
		if r.ID == id {
			if r.Status != conformance.StatusFail || strings.Contains(r.Message, "runner bug") || !strings.Contains(r.Message, "metadata") {
				t.Errorf("with the other tenant's claim answered without its metadata: %s\nwant a failure naming the answer's missing metadata", r.Line())
			}
			return
		}
	}
	t.Fatalf("%s did not run", id)
}
