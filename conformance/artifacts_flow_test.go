package conformance

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
)

// uploadHost is an artifact host whose answers a test sets: start answers the
// upload's start, blob each blob, commit the commit (nil: the host's right
// answer). It records what it was sent.
type uploadHost struct {
	start, blob, commit func(w http.ResponseWriter)
	sent                []string
}

func (h *uploadHost) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	_, _ = io.Copy(io.Discard, r.Body)
	h.sent = append(h.sent, r.Method+" "+r.URL.Path[strings.Index(r.URL.Path, "/artifacts/"):]) // the lane's API root cut
	w.Header().Set("Content-Type", "application/json")
	answer := func(set func(w http.ResponseWriter), status int, body string) {
		if set != nil {
			set(w)
			return
		}
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}
	switch {
	case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/artifacts/uploads"):
		answer(h.start, http.StatusCreated, `{"uploadId":"up_1","missingBlobs":["`+testModule.digest()+`"]}`)
	case r.Method == http.MethodPut && strings.Contains(r.URL.Path, "/blobs/"):
		answer(h.blob, http.StatusCreated, "")
	case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/commit"):
		answer(h.commit, http.StatusCreated, `{"manifestDigest":"`+testManifestDigest()+`"}`)
	default:
		http.Error(w, "unexpected", http.StatusTeapot)
	}
}

var testModule = module{Name: "index.js", MediaType: "application/javascript+module", Bytes: []byte("export default {};\n")}

func (m module) digest() string { return wire.RawDigest(m.Bytes) }

func testManifest() map[string]any { return manifestOf("WorkerBundle", testModule.Name, testModule) }

func testManifestDigest() string {
	d, _ := wire.DigestValue(testManifest())
	return d
}

func status(code int, body string) func(w http.ResponseWriter) {
	return func(w http.ResponseWriter) {
		w.WriteHeader(code)
		_, _ = io.WriteString(w, body)
	}
}

const internalError = `{"error":{"code":"internal_error","message":"m","retryable":true,"requestId":"r"}}`

// TestAnUploadFollowsTheHostsAnswers: the runner's upload (start, the missing
// blobs, commit) goes on after each answer the protocol allows (a start
// answered 200, as for a session the host already holds) and stops, failing,
// at the first it does not: a start that is not an artifactUploadStatus, a
// blob or a commit refused, a commit naming another manifestDigest than the
// manifest's own.
func TestAnUploadFollowsTheHostsAnswers(t *testing.T) {
	t.Parallel()
	ok := &uploadHost{}
	cases := []struct {
		name string
		host *uploadHost
		fail string // "": the upload succeeds
	}{
		{"every answer right", ok, ""},
		{"a start answered 200", &uploadHost{start: status(http.StatusOK, `{"uploadId":"up_1","missingBlobs":["`+testModule.digest()+`"]}`)}, ""},
		{"a start with a member more", &uploadHost{start: status(http.StatusCreated, `{"uploadId":"up_1","missingBlobs":[],"extra":1}`)}, "not an artifactUploadStatus"},
		{"a blob refused", &uploadHost{blob: status(http.StatusInternalServerError, internalError)}, "expected 201 or 204, got 500"},
		{"a commit refused", &uploadHost{commit: status(http.StatusInternalServerError, internalError)}, "expected 201 or 200, got 500"},
		{"a commit naming another manifest", &uploadHost{commit: status(http.StatusCreated, `{"manifestDigest":"`+flipDigest(testManifestDigest())+`"}`)}, "expected manifestDigest " + testManifestDigest()},
	}
	for _, c := range cases {
		srv := httptest.NewServer(c.host)
		p := &Probe{P: NewClient(srv.URL, "primary", "t"), Space: "s"}
		got, err := p.upload(context.Background(), p.P, testManifest(), testModule)
		srv.Close()
		if c.fail == "" {
			if err != nil || got != testManifestDigest() {
				t.Errorf("%s: upload = %q, %v; want %s", c.name, got, err, testManifestDigest())
			}
			if want := []string{"POST /artifacts/uploads", "PUT /artifacts/uploads/up_1/blobs/" + testModule.digest(), "POST /artifacts/uploads/up_1/commit"}; !reflect.DeepEqual(c.host.sent, want) {
				t.Errorf("%s: the upload sent %q, want %q", c.name, c.host.sent, want)
			}
			continue
		}
		var f *Failure
		if !errors.As(err, &f) || !strings.Contains(f.Msg, c.fail) {
			t.Errorf("%s: upload = %q, %v; want a failure saying %q", c.name, got, err, c.fail)
		}
	}
}

// TestTheMainModuleExportsTheHandlersOfItsReferrers: the bundle the runner
// uploads for an artifact-addressed Form exports, sorted and once each, every
// value of a string-set enum on a Form referring to that Form by apiVersion and
// kind, and nothing of a Form referring to the same kind of another group, nor
// of another field kind.
func TestTheMainModuleExportsTheHandlersOfItsReferrers(t *testing.T) {
	t.Parallel()
	bundle := &catalog.Form{Ref: wire.FormRef{APIVersion: "a.example/v1", Kind: "WorkerBundle"}}
	refersTo := func(apiVersion string, fields ...catalog.Field) *catalog.Form {
		return &catalog.Form{Relations: []catalog.Relation{{TargetAPIVersion: apiVersion, TargetKind: "WorkerBundle"}}, Fields: fields}
	}
	set := func(values ...string) catalog.Field { return catalog.Field{Kind: catalog.FieldStringSet, Enum: values} }
	p := &Probe{S: &Surface{Forms: []*catalog.Form{
		bundle,
		refersTo("a.example/v1", set("queue", "fetch"), catalog.Field{Kind: catalog.FieldStringEnum, Enum: []string{"standard"}}),
		refersTo("a.example/v1", set("fetch", "scheduled")),
		refersTo("b.example/v1", set("email")),
	}}}
	if got, want := p.exportedHandlers(bundle), []string{"fetch", "queue", "scheduled"}; !reflect.DeepEqual(got, want) {
		t.Errorf("exportedHandlers = %q, want %q", got, want)
	}
}

// TestABundleFileIsOfItsKind: the manifest kind of an artifact-addressed Form is
// the wire table's, else the manifest kind of its own name, else a module
// bundle; a files bundle's one file has the kind's first media type (a page
// when the kind admits any).
func TestABundleFileIsOfItsKind(t *testing.T) {
	t.Parallel()
	for kind, want := range map[string]*wire.ManifestKind{
		"SQLiteMigrationSet": wire.MigrationBundleManifest,
		"MigrationBundle":    wire.MigrationBundleManifest,
		"StaticAssetBundle":  wire.StaticAssetBundleManifest,
		"SomethingElse":      wire.WorkerBundleManifest,
	} {
		if got := manifestKind(&catalog.Form{Ref: wire.FormRef{Kind: kind}}); got != want {
			t.Errorf("manifestKind(%s) = %s, want %s", kind, got.Kind, want.Kind)
		}
	}
	p := &Probe{}
	two := &wire.ManifestKind{Kind: "Docs", Member: "files", MediaTypes: []string{"text/markdown", "text/plain"}}
	if m := p.bundleFile(two, "t"); m.MediaType != "text/markdown" || m.Name != "index.html" {
		t.Errorf("bundleFile of a kind of two media types = %s %s, want index.html text/markdown", m.Name, m.MediaType)
	}
	if m := p.bundleFile(wire.StaticAssetBundleManifest, "t"); m.MediaType != "text/html" {
		t.Errorf("bundleFile of a kind admitting any media type = %s, want text/html", m.MediaType)
	}
}
