package hostsim_test

import (
	"fmt"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"github.com/takokit/takokit/hostsim"
)

// site creates a StaticAssetBundle resource over a committed manifest of paths.
func (w *world) site(name string, paths ...string) {
	w.t.Helper()
	w.create(kSite, name, map[string]any{"manifestDigest": w.c.uploadSite(paths...)}).status(201)
}

// assetVersion is the spec of a version of worker "api" on bundle "b1" serving
// the assets of site with notFoundHandling mode.
func (w *world) assetVersion(site, mode string) map[string]any {
	return map[string]any{"worker": w.ref(kWorker, "api"), "bundle": w.ref(kBundle, "b1"), "handlers": []any{"fetch"},
		"assets": map[string]any{"bundle": w.ref(kSite, site), "runWorkerFirst": false, "notFoundHandling": mode}}
}

// A single-page-application version needs index.html in the exact manifest its
// assets relation pins: refused invalid_argument at /assets/notFoundHandling before
// anything is stored, on apply and on import; accepted with the index, or under none.
func TestSPAVersionNeedsIndex(t *testing.T) {
	sim, w := deployedWorld(t, hostsim.Config{})
	w.site("bare", "about.html", "app/main.html")
	w.site("spa", "index.html", "app.js")
	r := w.refusedCreate(sim, kVersion, "v-spa", w.assetVersion("bare", "single_page_application"), "invalid_argument", 400)
	if f := fieldOf(t, r); f != "/assets/notFoundHandling" {
		t.Fatalf("details.field %s, want /assets/notFoundHandling: %s", f, r.body)
	}
	for _, says := range []string{`WorkerVersion \"v-spa\"`, `StaticAssetBundle \"bare\"`, "/assets/bundle", "declares no index.html", "set notFoundHandling to none"} {
		if !contains(r.body, says) {
			t.Fatalf("the refusal must say %q: %s", says, r.body)
		}
	}
	// Import runs the same rule before it adopts anything.
	f := w.f(kVersion)
	before, _ := sim.Admin.Counters()
	w.c.do("POST", resPath(f, "v-imp")+"/import", map[string]string{"If-None-Match": "*", "Idempotency-Key": newKey()},
		body(f, "v-imp", "prod", w.assetVersion("bare", "single_page_application"), map[string]any{"nativeId": "native-v-imp"})).refused("invalid_argument", 400)
	if after, _ := sim.Admin.Counters(); after.Mutations != before.Mutations {
		t.Fatalf("a refused import moved the mutation counter")
	}
	w.read(kVersion, "v-imp").refused("resource_not_found", 404)
	// none leaves a missing path a miss: no index needed.
	w.create(kVersion, "v-none", w.assetVersion("bare", "none")).status(201)
	// With the index the fallback has something to serve.
	w.create(kVersion, "v-spa", w.assetVersion("spa", "single_page_application")).status(201)
}

// An accepted (202) SPA version is decided again when it commits, against what its
// relation resolves to then: a bundle re-created without index.html in between fails
// the operation with invalid_argument and stores nothing.
func TestSPAIndexRecheckedAtCommit(t *testing.T) {
	_, w := deployedWorld(t, hostsim.Config{ConformanceProbes: true})
	w.site("spa", "index.html")
	f := w.f(kVersion)
	spec := w.assetVersion("spa", "single_page_application")
	pd := w.c.prepare(f, "v-late", "prod", spec, 0)
	op := accepted(t, w.c.do("PUT", resPath(f, "v-late"), map[string]string{"If-None-Match": "*", "Idempotency-Key": newKey(),
		"Takoform-Conformance-Probe": "async"}, body(f, "v-late", "prod", spec, map[string]any{"review": map[string]any{"prepareDigest": pd}})))
	w.del(kSite, "spa", 1).status(204) // a pending operation pins nothing
	w.site("spa", "about.html")
	var done opDoc
	for i := 0; i < 3 && !done.Done; i++ {
		done, _ = poll(t, w.c, op.ID)
	}
	if !done.Done || done.Error == nil || done.Error.Code != "invalid_argument" {
		t.Fatalf("the commit of an SPA version whose bundle lost index.html: %+v", done)
	}
	w.read(kVersion, "v-late").refused("resource_not_found", 404)
}

// The assets bundle is an exact-FormRef, UID-pinned relation like any other: its
// target is protected while a version pins it, an out-of-band delete and re-create
// render as drift naming /assets/bundle and both uids, and a missing target refuses
// the version naming the pointer.
func TestAssetsRelationIsPinned(t *testing.T) {
	sim, w := deployedWorld(t, hostsim.Config{ConformanceProbes: true})
	w.site("site", "index.html")
	w.create(kVersion, "v-site", w.assetVersion("site", "single_page_application")).status(201)
	del := w.del(kSite, "site", 1).refused("dependency_in_use", 409)
	if !contains(del.body, `WorkerVersion \"v-site\" (/assets/bundle)`) {
		t.Fatalf("dependency_in_use must name the holder and its pointer: %s", del.body)
	}
	pinned := uidOf(t, w.read(kSite, "site"))
	w.externalDelete(kSite, "site")
	gone := readyIn(t, w.read(kVersion, "v-site"))
	wantReady(t, gone, "False", "DependencyMissing", gone.HostReason, "1", "2")
	for _, says := range []string{"relation-target-missing", "/assets/bundle", pinned} {
		if !strings.Contains(gone.HostReason, says) {
			t.Fatalf("hostReason %q must name %s", gone.HostReason, says)
		}
	}
	w.site("site", "index.html")
	now := uidOf(t, w.read(kSite, "site"))
	moved := readyIn(t, w.read(kVersion, "v-site"))
	wantReady(t, moved, "False", "ExternalChange", moved.HostReason, "1", "3")
	for _, says := range []string{"relation-target-replaced", "/assets/bundle", pinned, now} {
		if !strings.Contains(moved.HostReason, says) {
			t.Fatalf("hostReason %q must name %s", moved.HostReason, says)
		}
	}
	r := w.refusedCreate(sim, kVersion, "v-ghost", w.assetVersion("ghost", "none"), "resource_not_found", 404)
	if !contains(r.body, "/assets/bundle") {
		t.Fatalf("a missing assets bundle must be named by its pointer: %s", r.body)
	}
}

// The fault assets.spa-without-index accepts a single-page-application version
// whose bundle declares no index.html.
func TestSPAWithoutIndexFault(t *testing.T) {
	sim, w := deployedWorld(t, hostsim.Config{})
	w.site("bare", "about.html")
	n := 0
	name := func() string { n++; return fmt.Sprintf("v-spa-%d", n) }
	broken(t, sim, "assets.spa-without-index",
		func() {
			w.refusedCreate(sim, kVersion, name(), w.assetVersion("bare", "single_page_application"), "invalid_argument", 400)
		},
		func() { w.create(kVersion, name(), w.assetVersion("bare", "single_page_application")).status(201) })
}

// GET /_sim/assets/{uid}?path=P answers what pathname P does on a version: the
// lookup of docs/protocol.md#static-assets in the exact manifest its relation pinned.
func TestAdminAssetLookup(t *testing.T) {
	_, w := deployedWorld(t, hostsim.Config{})
	w.site("spa", "index.html", "app.js", "docs/guide.html")
	w.create(kVersion, "v-spa", w.assetVersion("spa", "single_page_application")).status(201)
	w.create(kVersion, "v-none", w.assetVersion("spa", "none")).status(201)
	spa, none := uidOf(t, w.read(kVersion, "v-spa")), uidOf(t, w.read(kVersion, "v-none"))
	plain := uidOf(t, w.read(kVersion, "v1"))
	lookup := func(uid, pathname string) map[string]any {
		return w.c.do("GET", "/_sim/assets/"+uid+"?path="+url.QueryEscape(pathname), nil, nil).status(200).json()
	}
	for _, c := range []struct{ uid, pathname, outcome, serves string }{
		{spa, "/app.js?v=1", "served", "app.js"},
		{spa, "/docs/guide.html", "served", "docs/guide.html"},
		{spa, "/settings/profile", "fallback", "index.html"},
		{spa, "/", "fallback", "index.html"},
		{spa, "/a%2Fb", "refused", ""},
		{spa, "/../index.html", "refused", ""},
		{none, "/settings/profile", "miss", ""},
		{none, "/", "miss", ""},
		{none, "/index.html", "served", "index.html"},
		{plain, "/app.js", "no-assets", ""},
	} {
		got := lookup(c.uid, c.pathname)
		if got["outcome"] != c.outcome || fmt.Sprint(got["serves"]) != fmt.Sprint(map[bool]any{true: c.serves, false: nil}[c.serves != ""]) {
			t.Errorf("%s on %s: %v, want %s serving %q", c.pathname, c.uid, got, c.outcome, c.serves)
		}
	}
	if got := lookup(spa, "/x"); got["bundle"].(map[string]any)["name"] != "spa" || got["runWorkerFirst"] != false {
		t.Errorf("the answer names the pinned bundle and the order: %v", got)
	}
	w.c.do("GET", "/_sim/assets/u-nope?path=/", nil, nil).refused("resource_not_found", 404)
	w.c.do("GET", "/_sim/assets/"+spa, nil, nil).refused("invalid_argument", 400)
}

// The asset answer in full, for a version that runs its worker first: which
// version and which pinned bundle (by uid), the manifest, both settings and the
// order they give; then the pinned bundle gone (only a fault deletes a bundle a
// version pins), which is not found and says to re-apply, and a uid that is no
// Worker Version's.
func TestAdminAssetLookupAnswersInFull(t *testing.T) {
	sim, w := deployedWorld(t, hostsim.Config{})
	w.site("spa", "index.html", "app.js")
	spec := w.assetVersion("spa", "single_page_application")
	spec["assets"].(map[string]any)["runWorkerFirst"] = true
	w.create(kVersion, "v-first", spec).status(201)
	v, site := uidOf(t, w.read(kVersion, "v-first")), uidOf(t, w.read(kSite, "spa"))
	digest := w.read(kSite, "spa").status(200).json()["spec"].(map[string]any)["manifestDigest"]
	lookup := func(uid, pathname string) *reply {
		return w.c.do("GET", "/_sim/assets/"+uid+"?path="+url.QueryEscape(pathname), nil, nil)
	}
	want := map[string]any{
		"version":          map[string]any{"kind": kVersion, "name": "v-first", "space": "prod", "uid": v},
		"bundle":           map[string]any{"kind": kSite, "name": "spa", "space": "prod", "uid": site},
		"manifestDigest":   digest,
		"notFoundHandling": "single_page_application",
		"runWorkerFirst":   true,
		"pathname":         "/app.js",
		"outcome":          "served",
		"path":             "app.js",
		"serves":           "app.js",
		"order":            "fetch first; asset lookup only when the worker answers 404, and a miss keeps the worker's 404",
	}
	if got := lookup(v, "/app.js").status(200).json(); !reflect.DeepEqual(got, want) {
		t.Errorf("the asset answer:\n got %v\nwant %v", got, want)
	}
	lookup(site, "/").refused("resource_not_found", 404)
	arm(t, sim, "delete.skip-dependents,resource=spa")
	w.del(kSite, "spa", 1).status(204)
	msg := lookup(v, "/app.js").refused("resource_not_found", 404).message()
	for _, says := range []string{`WorkerVersion "v-first"`, `StaticAssetBundle "spa" uid ` + site, "/assets/bundle", "no longer exists", "re-apply the version"} {
		if !strings.Contains(msg, says) {
			t.Errorf("a lookup through a bundle that is gone must say %q: %s", says, msg)
		}
	}
	// A version whose asset bundle was never found (a fault let it through
	// without a pin) has no manifest to look in.
	arm(t, sim, "relations.ignore-missing,resource=v-ghost")
	w.create(kVersion, "v-ghost", w.assetVersion("ghost", "none")).status(201)
	msg = lookup(uidOf(t, w.read(kVersion, "v-ghost")), "/").refused("resource_not_found", 404).message()
	if want := `WorkerVersion "v-ghost" pins no /assets/bundle`; msg != want {
		t.Errorf("a lookup on a version pinning no asset bundle: %s, want %s", msg, want)
	}
}
