package hostsim_test

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/takokit/takokit/hostsim"
	"github.com/takokit/takokit/hostsim/hostsimtest"
)

// secretHost is a host with its own tokens and an admin token, holding a
// worker version with a sensitive var name and a secret-looking var, an
// armed fault, a pending operation and requests of two tenants.
func secretHost(t *testing.T) (*hostsimtest.Sim, []string) {
	t.Helper()
	secrets := []string{"tok-SECRET-alice-7f3a", "tok-SECRET-carol-0b9e", "adm-SECRET-91c2", "var-SECRET-value-5d1"}
	cat := testCatalog(t)
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat, AdminToken: secrets[2], ConformanceProbes: true,
		Tokens: []hostsim.Token{{Token: secrets[0], Tenant: "tenant-a", Principal: "alice"},
			{Token: secrets[1], Tenant: "tenant-b", Principal: "carol"}}})
	w := &world{t: t, c: newClient(t, sim.URL, secrets[0]), cat: cat, space: "prod"}
	w.served("api")
	w.version("v-secret", "api", "api-b", []string{"fetch"}, map[string]any{
		"vars": map[string]any{"LOG_LEVEL": "info", "SIGNING_TOKEN": secrets[3]}, "requiredSensitiveVars": []any{"STRIPE_SECRET"}}).status(201)
	arm(t, sim, "latency=1ms,resource=nothing-here")
	f := updatable(t, cat)
	pd := w.c.prepare(f, "later", "prod", fixture(t, f), 0)
	w.c.do("PUT", resPath(f, "later"), map[string]string{"If-None-Match": "*", "Idempotency-Key": newKey(),
		"Takoform-Conformance-Probe": "async"}, body(f, "later", "prod", fixture(t, f),
		map[string]any{"review": map[string]any{"prepareDigest": pd}})).status(202)
	newClient(t, sim.URL, secrets[1]).do("GET", api+"/forms", nil, nil)
	return sim, secrets
}

// No page and no event of the stream shows a token, the admin token or the
// value of a secret-looking var; the sensitive var's name is shown.
func TestDashboardNeverShowsASecret(t *testing.T) {
	sim, secrets := secretHost(t)
	b := newBrowser(t, sim)
	b.get("/?token=" + url.QueryEscape(secrets[2])).status(200)
	pages := map[string]*page{}
	for _, path := range []string{"/", "/resources", "/operations", "/transitions", "/faults", "/faults?arm=outputs.omit",
		"/resources/tenant-a/prod/" + kindForm(t, testCatalog(t), kEndpoint).Ref.APIVersion + "/WorkerEndpoint/nope", "/nowhere"} {
		pages[path] = b.get(path)
	}
	res := b.get("/resources").status(200)
	for _, link := range allMatches(res.html, `href="(`+ui+`/resources/[^"]+)"`) {
		pages[link] = b.do("GET", link, nil, nil).status(200)
	}
	version := pages[ui+"/resources/tenant-a/prod/"+kindForm(t, testCatalog(t), kVersion).Ref.APIVersion+"/WorkerVersion/v-secret"]
	if version == nil {
		t.Fatalf("the Resources page does not link the version v-secret:\n%s", res.html)
	}
	version.has("STRIPE_SECRET", "&#34;SIGNING_TOKEN&#34;: &#34;‹redacted›&#34;", "&#34;LOG_LEVEL&#34;: &#34;info&#34;")
	stream := readStream(t, b, "0", sim.Host.State().LastEvent())
	for _, s := range secrets {
		for path, p := range pages {
			if strings.Contains(p.html, s) || strings.Contains(fmt.Sprint(p.header), s) {
				t.Errorf("the page %s shows the secret %s", path, s)
			}
		}
		if strings.Contains(stream, s) {
			t.Errorf("the live stream carries the secret %s", s)
		}
	}
	if len(pages) < 13 || !strings.Contains(stream, "created WorkerVersion v-secret") {
		t.Fatalf("the test read %d pages and a stream without the version's creation: %s", len(pages), stream)
	}
}

// The admin token opens the dashboard once from the address; the dashboard
// keeps a cookie derived from it (HttpOnly, SameSite) and sends the browser
// to the address without the token. Without it, or with another, a 401 page.
func TestDashboardAdminTokenBecomesACookie(t *testing.T) {
	sim := hostsimtest.Start(t, hostsim.Config{AdminToken: "adm-token-1"})
	b := newBrowser(t, sim)
	b.get("/faults").status(401).has("Admin token needed", "?token=").lacks("adm-token-1")
	b.get("/faults?token=wrong").status(401).has("Wrong admin token").lacks("wrong")
	b.http.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	r := b.get("/faults?token=adm-token-1&arm=latency").status(303)
	if loc := r.header.Get("Location"); loc != ui+"/faults?arm=latency" {
		t.Fatalf("redirected to %q, want the address without the token", loc)
	}
	cookie := r.header.Values("Set-Cookie")
	joined := strings.Join(cookie, "\n")
	if !strings.Contains(joined, "hostsim_ui_session_") || !strings.Contains(joined, "HttpOnly") ||
		!strings.Contains(joined, "SameSite=Lax") || strings.Contains(joined, "adm-token-1") {
		t.Fatalf("Set-Cookie %q: want an HttpOnly SameSite session cookie that is not the token", cookie)
	}
	b.get("/faults?arm=latency").status(200).has(`<option value="latency" data-value="required" selected>`)
	other := newBrowser(t, sim)
	other.do("GET", ui+"/", nil, map[string]string{"Authorization": "Bearer adm-token-1"}).status(200)
	other.do("GET", ui+"/", nil, map[string]string{"Authorization": "Bearer adm-token-2"}).status(401)
	other.do("GET", ui+"/events", nil, nil).status(401)
	// a host without an admin token drops a token from the address all the same
	open := newBrowser(t, hostsimtest.Start(t, hostsim.Config{}))
	open.http.CheckRedirect = b.http.CheckRedirect
	if loc := open.get("/?token=x").status(303).header.Get("Location"); loc != ui+"/" {
		t.Fatalf("redirected to %q", loc)
	}
}

// Only loopback clients, under a loopback host name, reach the dashboard.
func TestDashboardAnswersOnlyLoopback(t *testing.T) {
	sim := hostsimtest.Start(t, hostsim.Config{})
	for _, c := range []struct{ remote, host string }{{"10.1.2.3:5555", "127.0.0.1:8484"}, {"127.0.0.1:5555", "rebound.example:8484"}} {
		req := httptest.NewRequest("GET", ui+"/", nil)
		req.RemoteAddr, req.Host = c.remote, c.host
		rec := httptest.NewRecorder()
		sim.Host.Handler().ServeHTTP(rec, req)
		if rec.Code != 403 || !strings.Contains(rec.Body.String(), "loopback") {
			t.Fatalf("remote %s host %s: HTTP %d %s", c.remote, c.host, rec.Code, rec.Body)
		}
	}
}

// A form posted from another site is refused and changes nothing: the
// browser's Sec-Fetch-Site or Origin gives it away, and without either the
// form token does. The same form posted by the dashboard's page works.
func TestDashboardRefusesCrossSitePosts(t *testing.T) {
	cat := testCatalog(t)
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat, ConformanceProbes: true})
	c := newClient(t, sim.URL, "sim-primary")
	f := updatable(t, cat)
	pd := c.prepare(f, "later", "prod", fixture(t, f), 0)
	op := c.do("PUT", resPath(f, "later"), map[string]string{"If-None-Match": "*", "Idempotency-Key": newKey(),
		"Takoform-Conformance-Probe": "async"}, body(f, "later", "prod", fixture(t, f),
		map[string]any{"review": map[string]any{"prepareDigest": pd}})).status(202).json()["operation"].(map[string]any)["id"].(string)
	b := newBrowser(t, sim)
	token := b.get("/faults").status(200).csrf()
	arm := url.Values{"fault": {"latency"}, "value": {"2s"}, "csrf": {token}}
	complete := url.Values{"outcome": {"complete"}, "csrf": {token}}
	forged := url.Values{"fault": {"latency"}, "value": {"2s"}}
	cases := []struct {
		what    string
		b       *browser
		action  string
		form    url.Values
		headers map[string]string
	}{
		{"Sec-Fetch-Site cross-site", b, "/faults", arm, map[string]string{"Sec-Fetch-Site": "cross-site", "Origin": "https://evil.example"}},
		{"Sec-Fetch-Site same-site", b, "/faults", arm, map[string]string{"Sec-Fetch-Site": "same-site"}},
		{"another Origin", b, "/faults", arm, map[string]string{"Origin": "http://evil.example"}},
		{"Origin null", b, "/faults", arm, map[string]string{"Origin": "null"}},
		{"no form token", b, "/faults", forged, nil},
		{"another browser's form token", newBrowser(t, sim), "/faults", arm, nil},
		{"cross-site completion", b, "/operations/" + op + "/complete", complete, map[string]string{"Sec-Fetch-Site": "cross-site"}},
		{"cross-site disarm", b, "/faults/disarm", url.Values{"csrf": {token}}, map[string]string{"Origin": "http://evil.example"}},
	}
	for _, x := range cases {
		x.b.do("POST", ui+x.action, x.form, x.headers).status(403).has("Refused: not posted by this dashboard", "Nothing was changed.")
	}
	if armed, _ := sim.Host.State().Faults(); len(armed) != 0 {
		t.Fatalf("a refused post armed %+v", armed)
	}
	if ops, _ := sim.Host.State().Operations(context.Background()); ops[0].Done {
		t.Fatal("a refused post completed the operation")
	}
	b.do("POST", ui+"/faults", arm, map[string]string{"Origin": sim.URL, "Sec-Fetch-Site": "same-origin"}).status(200).has("Fault armed.")
}

// readStream reads the live stream after event number after until it has
// seen event until, and returns what it read.
func readStream(t *testing.T, b *browser, after string, until int64) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", b.base+ui+"/events?after="+after, nil)
	resp, err := b.http.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		t.Fatalf("the stream answered HTTP %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	var out strings.Builder
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		out.WriteString(sc.Text() + "\n")
		if sc.Text() == fmt.Sprintf("id: %d", until) {
			return out.String()
		}
	}
	t.Fatalf("the stream ended before event %d (%v):\n%s", until, sc.Err(), out.String())
	return ""
}

func allMatches(s, pattern string) []string {
	var out []string
	for _, m := range regexp.MustCompile(pattern).FindAllStringSubmatch(s, -1) {
		out = append(out, m[1])
	}
	return out
}
