package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/takokit/takokit/internal/testinputs"
)

// TestDashboardInBrowser applies a configuration with OpenTofu, then drives
// the dashboard in headless Chromium: the resource rows and typed outputs, a
// pending operation completed from the Operations page, a Form transition on
// the ledger, outputs.omit armed from the Faults page, and — without a reload
// — its firing and the failed write's event arriving live while OpenTofu
// applies again. An unknown resource is the 404 page. Each page is saved as
// a PNG (TAKOKIT_DASHBOARD_SHOTS=DIR, else takokit-dashboard-shots in the
// temporary directory; `go tool mage docs` writes docs/guides/dashboard/).
func TestDashboardInBrowser(t *testing.T) {
	// runs these three of bin/, and no other: docs/decisions.md#test-cache
	testinputs.DeclareBin("bin/hostsim", "bin/tofu", "bin/terraform-provider-takoform")
	chromium := findChromium(t)
	bin := binDir(t)
	shots := shotDir(t)
	host := startHostsim(t, bin, "full")
	tf := newTofu(t, bin, host)

	// The KV namespace's create is accepted and left pending, for the Operations page.
	host.admin(t, "POST", "/faults", map[string]any{"fault": "apply.accept-unfinished", "kind": "EdgeKVNamespace", "count": 1}, nil)
	tf.apply(t, "form_version=0.1.0")
	out, err := tf.run("output", "-json")
	if err != nil {
		t.Fatalf("tofu output: %v\n%s", err, out)
	}
	var outputs struct {
		Endpoint struct {
			Value struct {
				URL, Hostname string
				Port          int
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &outputs); err != nil || outputs.Endpoint.Value.Port == 0 {
		t.Fatalf("tofu output: %v\n%s", err, out)
	}
	ep := outputs.Endpoint.Value

	ctx := newChromium(t, chromium)
	do(t, ctx, "emulate the viewport", chromedp.EmulateViewport(1280, 880))

	// The admin token opens the dashboard once; the address loses it, and
	// page scripts cannot read the session cookie (HttpOnly).
	do(t, ctx, "open the dashboard with the admin token", chromedp.Navigate(host.UI+"?token="+host.token))
	if loc := eval[string](t, ctx, "location.href"); loc != host.UI {
		t.Fatalf("after ?token= the address is %q, want %q", loc, host.UI)
	}
	if c := eval[string](t, ctx, "document.cookie"); strings.Contains(c, "session") || strings.Contains(c, host.token) {
		t.Fatalf("page scripts read the session cookie: %q", c)
	}
	waitFor(t, ctx, "the live stream", `document.getElementById("live").textContent === "live"`)

	// Resources: the endpoint's row with the typed outputs OpenTofu recorded.
	do(t, ctx, "open Resources", chromedp.Navigate(host.UI+"resources"))
	row := eval[string](t, ctx, `document.querySelector('tr[data-resource="WorkerEndpoint/api"]').innerText`)
	for _, want := range []string{"WorkerEndpoint", "True", "Available", `"` + ep.URL + `"`, `"` + ep.Hostname + `"`, fmt.Sprint(ep.Port), "integer", "string"} {
		if !strings.Contains(row, want) {
			t.Fatalf("the endpoint's row lacks %q:\n%s", want, row)
		}
	}
	t.Logf("resource row: %s", strings.Join(strings.Fields(row), " "))

	// The endpoint's own page: identity, typed outputs, its pin on the worker.
	do(t, ctx, "open the endpoint", chromedp.Click(chromedp.CSS(`tr[data-resource="WorkerEndpoint/api"] a`)))
	waitFor(t, ctx, "the endpoint page", `document.querySelector("h1") && document.querySelector("h1").textContent === "WorkerEndpoint api"`)
	if text := eval[string](t, ctx, `document.querySelector("main").innerText`); !strings.Contains(text, ep.URL) || !strings.Contains(text, "/worker") {
		t.Fatalf("the endpoint page lacks its url or its pin:\n%s", text)
	}
	shoot(t, ctx, shots, "resource", "one resource: identity, Ready, typed outputs, conditions, pins, spec, events")

	// Operations: complete the pending create from the page.
	do(t, ctx, "open Operations", chromedp.Navigate(host.UI+"operations"))
	waitFor(t, ctx, "the pending create", `[...document.querySelectorAll('tr[data-op]')].some(r => r.innerText.includes("EdgeKVNamespace sessions"))`)
	shoot(t, ctx, shots, "operations", "a pending accepted create with Complete and Fail")
	do(t, ctx, "complete it", chromedp.Click(chromedp.CSS(`tr[data-op] button.primary`)))
	waitFor(t, ctx, "the completion", `document.querySelector(".notice") && document.querySelector(".notice").textContent.includes("Operation completed")`)
	// the page redraws its pending and finished lists one after the other: wait for both
	// (reading the page right after the notice failed once in a dozen runs of mage test)
	waitFor(t, ctx, "the completed operation under Finished and none pending",
		`document.querySelector("main").innerText.includes("No operation is pending.") && document.querySelector("main").innerText.includes("Succeeded")`)

	// A Form transition of the queue, committed by OpenTofu, on the ledger.
	tf.apply(t, "marker=at-least-once-queue-0.1-to-0.2")
	do(t, ctx, "open Form transitions", chromedp.Navigate(host.UI+"transitions"))
	waitFor(t, ctx, "the committed transition", `[...document.querySelectorAll("tr[data-op]")].some(r => r.innerText.includes("AtLeastOnceQueue orders") && r.innerText.includes("reached E, committed"))`)
	shoot(t, ctx, shots, "transitions", "the ledger: a committed Form transition with its crash points, backend calls and claim")

	// Faults: arm outputs.omit on the endpoint "web" from the form.
	do(t, ctx, "open Faults", chromedp.Navigate(host.UI+"faults"))
	do(t, ctx, "fill the arm form",
		chromedp.SetValue(chromedp.ID("f-fault"), "outputs.omit"),
		chromedp.Evaluate[chromedp.Void](`document.getElementById("f-fault").dispatchEvent(new Event("change"))`),
		chromedp.SendKeys(chromedp.ID("f-kind"), "WorkerEndpoint"),
		chromedp.SendKeys(chromedp.ID("f-resource"), "web"),
		chromedp.SendKeys(chromedp.ID("f-value"), "url"),
		chromedp.Click(chromedp.CSS(`#arm button[type="submit"]`)))
	waitFor(t, ctx, "the armed fault", `document.querySelector('tr[data-fault="outputs.omit"] td.fired') && document.querySelector('tr[data-fault="outputs.omit"] td.fired').textContent === "0"`)
	if armed := eval[string](t, ctx, `document.querySelector('tr[data-fault="outputs.omit"]').innerText`); !strings.Contains(armed, "outputs.omit=url") || !strings.Contains(armed, "kind WorkerEndpoint name web") {
		t.Fatalf("the armed row: %s", armed)
	}

	// A second tab follows the Host page's live feed.
	hostTab, closeTab := chromedp.NewContext(ctx)
	defer closeTab()
	if err := chromedp.Do(hostTab); err != nil { // opens the tab, bound to hostTab (not to a timeout)
		t.Fatal(err)
	}
	do(t, hostTab, "open the Host page in a second tab", chromedp.EmulateViewport(1280, 880), chromedp.Navigate(host.UI))
	waitFor(t, hostTab, "the second tab's live stream", `document.getElementById("live").textContent === "live"`)
	for _, tab := range []context.Context{ctx, hostTab} {
		eval[bool](t, tab, "window.notReloaded = true")
	}

	// Apply again: the new endpoint's create commits on the host, whose answer
	// lacks "url", so OpenTofu fails the write. Both pages learn it live.
	started := time.Now()
	applyOut, applyErr := tf.run("apply", "-auto-approve", "-no-color", "-input=false",
		"-var", "marker=at-least-once-queue-0.1-to-0.2", "-var", "second_endpoint=true")
	applied := time.Since(started)
	if applyErr == nil || !strings.Contains(applyOut, `host returned an unusable output "url"`) {
		t.Fatalf("the apply with outputs.omit armed did not fail on the missing url (%v):\n%s", applyErr, applyOut)
	}
	waitFor(t, ctx, "the fired count", `Number(document.querySelector('tr[data-fault="outputs.omit"] td.fired').textContent) >= 1`)
	waitFor(t, ctx, "the firing in the feed", `[...document.querySelectorAll('tbody[data-feed="fault"] tr')].some(r => r.innerText.includes("outputs.omit=url,kind=WorkerEndpoint,resource=web fired on WorkerEndpoint web"))`)
	waitFor(t, hostTab, "the failed write's event", `document.querySelector('tbody[data-feed="all"] tr[data-at]') && [...document.querySelectorAll('tbody[data-feed="all"] tr')].some(r => r.innerText.includes("created WorkerEndpoint web in tenant-a/demo"))`)
	for _, tab := range []context.Context{ctx, hostTab} {
		if !eval[bool](t, tab, "window.notReloaded === true") {
			t.Fatal("a page reloaded to show the events; they must arrive live")
		}
	}
	var seen struct {
		At   string `json:"at"`
		Seen int64  `json:"seen"`
	}
	raw := eval[string](t, hostTab, `(() => { const r = [...document.querySelectorAll('tbody[data-feed="all"] tr[data-at]')].find(r => r.innerText.includes("created WorkerEndpoint web")); return JSON.stringify({at: r.dataset.at, seen: Number(r.dataset.seen)}); })()`)
	if err := json.Unmarshal([]byte(raw), &seen); err != nil {
		t.Fatal(err)
	}
	committed, err := time.Parse(time.RFC3339Nano, seen.At)
	if err != nil {
		t.Fatal(err)
	}
	// the page's clock reads whole milliseconds (Date.now) and the journal's nanoseconds: an
	// event seen in the millisecond it was journaled reads as up to 1 ms early unless
	// both are in milliseconds (it failed once as "-190.631µs after it was journaled")
	latency := time.UnixMilli(seen.Seen).Sub(committed.Truncate(time.Millisecond))
	t.Logf("apply→event latency: the failed write's mutation event (WorkerEndpoint web, committed %s) appeared on the open Host page %v after the host journaled it; the whole tofu apply took %v",
		committed.Format("15:04:05.000"), latency.Round(time.Millisecond), applied.Round(time.Millisecond))
	if latency < 0 || latency > 10*time.Second {
		t.Fatalf("the event appeared %v after it was journaled", latency)
	}
	shoot(t, ctx, shots, "faults", "outputs.omit armed from the form, its fired count and firing arrived live")
	shoot(t, hostTab, shots, "host", "the profile, counters and the live feed with the failed write's events")

	do(t, ctx, "open Resources again", chromedp.Navigate(host.UI+"resources"))
	shoot(t, ctx, shots, "resources", "every resource by tenant and space with Ready and typed outputs")

	// A partial host's Host page says what it refuses compared with full.
	partial := startHostsim(t, bin, "kv-only")
	do(t, ctx, "open a kv-only host", chromedp.Navigate(partial.UI+"?token="+partial.token))
	if text := eval[string](t, ctx, `document.querySelector("main").innerText`); !strings.Contains(text, "forms excluded: ObjectBucket") ||
		!strings.Contains(text, "Profile kv-only") {
		t.Fatalf("the kv-only Host page does not show its refusals:\n%s", text)
	}
	shoot(t, ctx, shots, "host-partial", "a kv-only host: what it refuses compared with full")
	var counted struct{ Requests int64 }
	partial.admin(t, "GET", "/counters", nil, &counted)
	if counted.Requests != 0 {
		t.Fatalf("viewing the dashboard counted %d requests to the Takoform API", counted.Requests)
	}

	// An unknown resource is the 404 page.
	do(t, ctx, "open an unknown resource", chromedp.Navigate(host.UI+"resources/tenant-a/demo/edge.forms.takokit.dev/v1alpha1/WorkerEndpoint/nope"))
	if text := eval[string](t, ctx, `document.querySelector("main").innerText`); !strings.Contains(text, "Not found") || !strings.Contains(text, "HTTP 404") ||
		!strings.Contains(text, `No WorkerEndpoint "nope" is stored in tenant tenant-a, space demo`) {
		t.Fatalf("the unknown resource's page:\n%s", text)
	}
	shoot(t, ctx, shots, "not-found", "the 404 page of a resource that does not exist")
}

// shotDir is where the screenshots go: TAKOKIT_DASHBOARD_SHOTS (`go tool
// mage docs` points it at docs/guides/dashboard), else takokit-dashboard-shots in the
// temporary directory. Not bin/: a file the test writes inside the module is one go
// test counts among its inputs, too new to reuse the result (docs/decisions.md#test-cache).
func shotDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("TAKOKIT_DASHBOARD_SHOTS")
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "takokit-dashboard-shots")
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// shoot saves the tab's viewport as dir/name.png.
func shoot(t *testing.T, ctx context.Context, dir, name, what string) {
	t.Helper()
	c, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	png, err := chromedp.Run(c, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	path := filepath.Join(dir, name+".png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot written: %s (%s)", path, what)
}
