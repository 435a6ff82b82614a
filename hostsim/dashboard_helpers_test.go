package hostsim_test

import (
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/takokit/takokit/hostsim/hostsimtest"
)

const ui = "/_sim/ui"

// browser is a dashboard client with a cookie jar, as a browser would be:
// it keeps the form token cookie and posts it back in the forms' hidden field.
type browser struct {
	t    testing.TB
	base string
	http *http.Client
}

func newBrowser(t testing.TB, sim *hostsimtest.Sim) *browser {
	jar, _ := cookiejar.New(nil)
	return &browser{t: t, base: sim.URL, http: &http.Client{Jar: jar}}
}

// page is one answer of the dashboard.
type page struct {
	t      testing.TB
	code   int
	header http.Header
	html   string
	what   string
}

func (b *browser) do(method, path string, form url.Values, headers map[string]string) *page {
	b.t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, b.base+path, body)
	if err != nil {
		b.t.Fatal(err)
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := b.http.Do(req)
	if err != nil {
		b.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return &page{t: b.t, code: resp.StatusCode, header: resp.Header, html: string(raw), what: method + " " + path}
}

func (b *browser) get(path string) *page { b.t.Helper(); return b.do("GET", ui+path, nil, nil) }

// submit posts a form of the page at from with the page's own form token,
// as the page's form would (same origin).
func (b *browser) submit(from, action string, fields url.Values) *page {
	b.t.Helper()
	p := b.get(from).status(200)
	fields.Set("csrf", p.csrf())
	return b.do("POST", ui+action, fields, map[string]string{"Origin": b.base, "Sec-Fetch-Site": "same-origin"})
}

func (p *page) status(want int) *page {
	p.t.Helper()
	if p.code != want {
		p.t.Fatalf("%s: HTTP %d, want %d:\n%s", p.what, p.code, want, p.html)
	}
	return p
}

// has asserts that the page shows every text (HTML-escaped as a page would).
func (p *page) has(texts ...string) *page {
	p.t.Helper()
	for _, s := range texts {
		if !strings.Contains(p.html, s) {
			p.t.Fatalf("%s does not show %q:\n%s", p.what, s, p.html)
		}
	}
	return p
}

func (p *page) lacks(texts ...string) *page {
	p.t.Helper()
	for _, s := range texts {
		if strings.Contains(p.html, s) {
			p.t.Fatalf("%s shows %q", p.what, s)
		}
	}
	return p
}

var csrfRE = regexp.MustCompile(`name="csrf" value="([0-9a-f]{64})"`)

func (p *page) csrf() string {
	p.t.Helper()
	m := csrfRE.FindStringSubmatch(p.html)
	if m == nil {
		p.t.Fatalf("%s has no form token:\n%s", p.what, p.html)
	}
	return m[1]
}

// row is the table row of the page whose opening tag carries attr.
func (p *page) row(attr string) string {
	p.t.Helper()
	i := strings.Index(p.html, attr)
	if i < 0 {
		p.t.Fatalf("%s has no row %s:\n%s", p.what, attr, p.html)
	}
	end := strings.Index(p.html[i:], "</tr>")
	return p.html[i : i+end]
}

// regexpFind returns the first group of pattern in s.
func regexpFind(t testing.TB, s, pattern string) string {
	t.Helper()
	m := regexp.MustCompile(pattern).FindStringSubmatch(s)
	if m == nil {
		t.Fatalf("no match for %s in:\n%s", pattern, s)
	}
	return m[1]
}
