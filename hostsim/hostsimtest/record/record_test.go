package record

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
)

// Every exchange is kept whole: the request's body readable again, the answer's
// body kept, and the client still reads the whole answer.
func TestRecorderKeepsEveryExchangeWhole(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		w.Header().Set("X-Seen", r.URL.Path)
		w.WriteHeader(http.StatusCreated)
		w.Write([]byte("echo:" + string(b)))
	}))
	defer srv.Close()
	rec := &Recorder{}
	client := &http.Client{Transport: rec}
	var wg sync.WaitGroup
	for _, name := range []string{"a", "b", "c"} {
		wg.Go(func() {
			resp, err := client.Post(srv.URL+"/"+name, "text/plain", strings.NewReader("body-"+name))
			if err != nil {
				t.Error(err)
				return
			}
			defer resp.Body.Close()
			if b, _ := io.ReadAll(resp.Body); string(b) != "echo:body-"+name {
				t.Errorf("the client read %q through the recorder; want the whole answer", b)
			}
		})
	}
	wg.Wait()
	got := rec.Exchanges()
	if len(got) != 3 {
		t.Fatalf("%d exchanges kept; want 3", len(got))
	}
	var paths []string
	for _, x := range got {
		name := strings.TrimPrefix(x.Req.URL.Path, "/")
		paths = append(paths, name)
		if b, _ := io.ReadAll(x.Req.Body); string(b) != "body-"+name {
			t.Errorf("%s: the kept request's body reads %q", name, b)
		}
		if string(x.Body) != "echo:body-"+name || x.Resp.StatusCode != http.StatusCreated || x.Resp.Header.Get("X-Seen") != "/"+name {
			t.Errorf("%s: kept answer %d %q (X-Seen %q)", name, x.Resp.StatusCode, x.Body, x.Resp.Header.Get("X-Seen"))
		}
	}
	slices.Sort(paths)
	if !slices.Equal(paths, []string{"a", "b", "c"}) {
		t.Errorf("kept the exchanges of %v", paths)
	}
}

// A request the transport could not send is returned as its error and not kept.
func TestRecorderKeepsNoFailedExchange(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	rec := &Recorder{}
	if _, err := (&http.Client{Transport: rec}).Get(url); err == nil {
		t.Fatal("a closed server answered")
	}
	if n := len(rec.Exchanges()); n != 0 {
		t.Fatalf("%d exchanges kept of a request that got no answer", n)
	}
}

// The scenarios import this package for its recorder; it depends on nothing of takokit,
// so a change to hostsim does not compile their test binary again
// (docs/decisions.md#test-time).
func TestRecordDependsOnNothingOfTakokit(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.HasPrefix(dep, "github.com/takokit/") && dep != "github.com/takokit/takokit/hostsim/hostsimtest/record" {
			t.Errorf("record depends on %s", dep)
		}
	}
}
