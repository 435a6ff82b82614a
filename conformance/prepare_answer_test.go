package conformance

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog/wire"
)

// TestPrepareNeedsAValidDigest: a prepare answered 200 without a valid
// review.prepareDigest (missing, malformed, or a body that is no JSON) fails
// naming the answer; the apply that would carry it is never sent.
func TestPrepareNeedsAValidDigest(t *testing.T) {
	for _, body := range []string{`{"review":{}}`, `{"review":{"prepareDigest":"sha256:nope"}}`, `not json`} {
		puts := 0
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodPut {
				puts++
			}
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(body))
		}))
		p := &Probe{P: NewClient(srv.URL, "primary", "t"), Space: "s"}
		ref := wire.FormRef{APIVersion: "edge.forms.takokit.dev/v1beta1", Kind: "KV"}
		_, err := p.apply(context.Background(), p.P, ref, "kv-1", map[string]any{}, "")
		srv.Close()
		var f *Failure
		if !errors.As(err, &f) || !strings.Contains(f.Msg, "prepare answer carries no valid review.prepareDigest") || f.Rule != "" {
			t.Errorf("prepare answered %s: %v; want a failure naming the missing digest", body, err)
		}
		if puts != 0 {
			t.Errorf("prepare answered %s: the apply was sent anyway (%d PUTs)", body, puts)
		}
	}
}
