package client

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/takokit/takokit/catalog/wire"
)

// supportHost is a loopback host answering discovery and, under the support base,
// whatever routes holds (status and body); every support request's time is kept.
type supportHost struct {
	mu    sync.Mutex
	seen  []time.Time
	URL   string
	route map[string]func(w http.ResponseWriter, n int)
}

func newSupportHost(t *testing.T, route map[string]func(w http.ResponseWriter, n int)) *supportHost {
	t.Helper()
	h := &supportHost{route: route}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == wire.DefaultLane.DiscoveryPath {
			w.Write([]byte(strings.ReplaceAll(goodDiscovery, "ORIGIN", h.URL)))
			return
		}
		h.mu.Lock()
		h.seen = append(h.seen, time.Now())
		n := len(h.seen)
		h.mu.Unlock()
		if f, ok := h.route[strings.TrimPrefix(r.URL.Path, wire.DefaultLane.APIRoot+"/support")]; ok {
			f(w, n)
			return
		}
		t.Errorf("unexpected request %s", r.URL.Path)
		w.WriteHeader(http.StatusTeapot)
	}))
	t.Cleanup(srv.Close)
	h.URL = srv.URL
	return h
}

func (h *supportHost) requests() []time.Time {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.seen)
}

const supportFormRoute = "/forms/edge.forms.takokit.dev/v1alpha1/WorkerVersion/0.1.0"

var supportFormRef = wire.FormRef{APIVersion: "edge.forms.takokit.dev/v1alpha1", Kind: "WorkerVersion", DefinitionVersion: "0.1.0"}

func answer(status int, body string) func(http.ResponseWriter, int) {
	return func(w http.ResponseWriter, _ int) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		w.Write([]byte(body))
	}
}

// TestSupportListingKeepsOnlyTheAskedKindsFormProfiles: the versions a refusal
// names come from the listing's Form profiles of the asked group and kind only; a
// profile of another kind of entry (an Interface's), of another kind in the group
// or of the same kind in another group is passed over, not read as a Form.
func TestSupportListingKeepsOnlyTheAskedKindsFormProfiles(t *testing.T) {
	t.Parallel()
	other := strings.Replace(string(formProfile("")), "edge.forms.takokit.dev/v1alpha1", "other.forms.example/v1alpha1", 1)
	second := strings.Replace(string(formProfile("")), `"0.1.0"`, `"0.2.0"`, 1)
	otherKind := strings.Replace(strings.Replace(string(formProfile("")), "WorkerVersion", "ModuleWorker", 1), `"0.1.0"`, `"0.3.0"`, 1)
	listing := `{"profiles":[` + string(formProfile("")) + `,` + strings.Replace(profIface, "EXTRA", "", 1) + `,` + other + `,` + otherKind + `,` + second + `]}`
	h := newSupportHost(t, map[string]func(http.ResponseWriter, int){"/forms": answer(http.StatusOK, listing)})
	c, err := New(Config{Endpoint: h.URL, Token: "t"})
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.SupportedFormVersions(context.Background(), "edge.forms.takokit.dev/v1alpha1", "WorkerVersion")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"0.1.0", "0.2.0"}; !slices.Equal(got, want) {
		t.Errorf("SupportedFormVersions = %q, want %q", got, want)
	}
	if got, err := c.SupportedFormVersions(context.Background(), "other.forms.example/v1alpha1", "WorkerVersion"); err != nil || !slices.Equal(got, []string{"0.1.0"}) {
		t.Errorf("SupportedFormVersions of the other group = %q, %v; want [0.1.0]", got, err)
	}
}

// TestSupportReadAnswersOnly200: a support profile counts only in a 200 answer;
// the same profile under another 2xx status is an undecided read, not a profile.
func TestSupportReadAnswersOnly200(t *testing.T) {
	t.Parallel()
	for _, status := range []int{http.StatusCreated, http.StatusNonAuthoritativeInfo} {
		h := newSupportHost(t, map[string]func(http.ResponseWriter, int){supportFormRoute: answer(status, string(formProfile("")))})
		c, err := New(Config{Endpoint: h.URL, Token: "t", SupportRetryWait: time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		ans, err := c.FormSupport(context.Background(), supportFormRef)
		var sre *SupportReadError
		if !errors.As(err, &sre) || ans != nil {
			t.Errorf("a %d support answer gave %+v, %v; want an undecided support read", status, ans, err)
		}
	}
}

// TestSupportRetryWaitsTheHostsRetryAfter: a failed support read whose answer
// carries Retry-After is tried again only after that long, even where the client's
// own pause is shorter.
func TestSupportRetryWaitsTheHostsRetryAfter(t *testing.T) {
	t.Parallel()
	h := newSupportHost(t, map[string]func(http.ResponseWriter, int){supportFormRoute: func(w http.ResponseWriter, n int) {
		if n == 1 {
			w.Header().Set(wire.HeaderRetryAfter, "1")
			answer(http.StatusServiceUnavailable, `{"error":{"code":"backend_unavailable","message":"m","requestId":"r","retryable":true}}`)(w, n)
			return
		}
		answer(http.StatusOK, string(formProfile("")))(w, n)
	}})
	c, err := New(Config{Endpoint: h.URL, Token: "t", SupportRetryWait: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	ans, err := c.FormSupport(context.Background(), supportFormRef)
	if err != nil || ans.Profile == nil {
		t.Fatalf("FormSupport = %+v, %v; want the profile of the retry", ans, err)
	}
	seen := h.requests()
	if len(seen) != 2 {
		t.Fatalf("%d support requests, want 2", len(seen))
	}
	if gap := seen[1].Sub(seen[0]); gap < time.Second {
		t.Errorf("the retry came %s after the refusal; its Retry-After said 1s", gap)
	}
}

// TestSupportRetryPastTheDeadlineGivesUpAtOnce: when the pause before the retry
// would outlast the plan's deadline, the failed read is reported at once; it does
// not spend the rest of the plan's budget waiting.
func TestSupportRetryPastTheDeadlineGivesUpAtOnce(t *testing.T) {
	t.Parallel()
	h := newSupportHost(t, map[string]func(http.ResponseWriter, int){supportFormRoute: func(w http.ResponseWriter, n int) {
		w.Header().Set(wire.HeaderRetryAfter, "3600")
		answer(http.StatusServiceUnavailable, `{"error":{"code":"backend_unavailable","message":"m","requestId":"r","retryable":true}}`)(w, n)
	}})
	c, err := New(Config{Endpoint: h.URL, Token: "t"})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, err = c.FormSupport(ctx, supportFormRef)
	var sre *SupportReadError
	if !errors.As(err, &sre) || !IsCode(err, wire.CodeBackendUnavailable) {
		t.Fatalf("FormSupport = %v; want the undecided read of the refusal", err)
	}
	if ctx.Err() != nil {
		t.Errorf("the read gave up only when the deadline passed (%v); a retry it cannot make must not be waited for", ctx.Err())
	}
	if n := len(h.requests()); n != 1 {
		t.Errorf("%d support requests, want 1", n)
	}
}
