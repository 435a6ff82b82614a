package client

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim"
	"github.com/takokit/takokit/hostsim/hostsimtest"
)

// A client speaks its own lane's paths, and against a host of another lane it says
// which lane the host speaks instead of a bare 404 (docs/protocol.md#lanes).
func TestClientSpeaksItsLaneAndNamesTheHostsLane(t *testing.T) {
	t.Parallel()
	for _, hostLane := range wire.Lanes() {
		sim := hostsimtest.Start(t, hostsim.Config{Lane: hostLane})
		for _, clientLane := range wire.Lanes() {
			c, err := New(Config{Endpoint: sim.URL, Token: "sim-primary", Lane: clientLane})
			if err != nil {
				t.Fatal(err)
			}
			d, err := c.Discover(context.Background())
			if clientLane == hostLane {
				if err != nil || d.API != sim.URL+hostLane.APIRoot {
					t.Errorf("a %s client of a %s host: %+v, %v", clientLane.Name, hostLane.Name, d, err)
				}
				continue
			}
			var de *DiscoveryError
			if !errors.As(err, &de) || de.HostLane != hostLane {
				t.Fatalf("a %s client of a %s host: %v, want a DiscoveryError naming the host's lane", clientLane.Name, hostLane.Name, err)
			}
			if want := "the host speaks " + hostLane.Describe() + ", but this provider speaks " + clientLane.Describe(); !strings.Contains(err.Error(), want) {
				t.Errorf("error %q does not say %q", err, want)
			}
		}
	}
}

// A client without a lane speaks the default lane.
func TestClientDefaultsToTheDefaultLane(t *testing.T) {
	t.Parallel()
	c, err := New(Config{Endpoint: "http://127.0.0.1:1", Token: "t"})
	if err != nil || c.Lane() != wire.DefaultLane {
		t.Fatalf("lane %v, %v", c.Lane(), err)
	}
}

// TestAnotherLaneIsClaimedOnlyByItsOwnDocument: a host that does not answer this
// lane's discovery path with 200 (a 404 with or without an error envelope, or
// another 2xx) is asked whether it speaks another lane; it is said to only when
// that lane's path serves a document listing exactly that lane's API version.
func TestAnotherLaneIsClaimedOnlyByItsOwnDocument(t *testing.T) {
	t.Parallel()
	other := wire.V1alpha3
	own := `{"api_versions":["` + other.APIVersion + `"]}`
	envelope := `{"error":{"code":"resource_not_found","message":"m","requestId":"r","retryable":false}}`
	for _, c := range []struct {
		name   string
		status int    // this lane's path
		answer string // its body
		body   string // the other lane's document
		claim  bool
	}{
		{"a 404 with an envelope, its own document", http.StatusNotFound, envelope, own, true},
		{"a bare 404, its own document", http.StatusNotFound, "", own, true},
		{"a 204, its own document", http.StatusNoContent, "", own, true},
		{"a bare 404, two API versions", http.StatusNotFound, "", `{"api_versions":["` + other.APIVersion + `","` + wire.DefaultLane.APIVersion + `"]}`, false},
		{"a bare 404, another API version", http.StatusNotFound, "", `{"api_versions":["forms.example.com/v9"]}`, false},
	} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == other.DiscoveryPath {
				w.Write([]byte(c.body))
				return
			}
			w.WriteHeader(c.status)
			w.Write([]byte(c.answer))
		}))
		cl, err := New(Config{Endpoint: srv.URL, Token: "t"})
		if err != nil {
			t.Fatal(err)
		}
		_, err = cl.Discover(context.Background())
		srv.Close()
		var de *DiscoveryError
		if !errors.As(err, &de) {
			t.Fatalf("%s: %v, want a DiscoveryError", c.name, err)
		}
		if got := de.HostLane == other; got != c.claim {
			t.Errorf("%s: the host's lane %v (%v), want claimed %v", c.name, de.HostLane, err, c.claim)
		}
		if want := "the host speaks " + other.Describe(); c.claim && !strings.Contains(de.Rule, want) {
			t.Errorf("%s: rule %q does not say %q", c.name, de.Rule, want)
		}
	}
}
