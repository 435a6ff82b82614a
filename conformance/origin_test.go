package conformance

import (
	"net/url"
	"testing"
)

// sameOrigin compares scheme, host and effective port: a URL that differs in
// any one of them is another origin, and a default port written out is the
// same origin as the one left implicit.
func TestSameOrigin(t *testing.T) {
	for _, c := range []struct {
		origin, raw string
		same        bool
	}{
		{"http://127.0.0.1:8080", "http://127.0.0.1:8080/apis/x", true},
		{"http://127.0.0.1:8080", "HTTP://127.0.0.1:8080/apis/x", true},
		{"http://127.0.0.1:8080", "http://127.0.0.2:8080/apis/x", false},  // another host, same port
		{"http://127.0.0.1:8080", "http://127.0.0.1:8081/apis/x", false},  // another port
		{"http://127.0.0.1:8080", "https://127.0.0.1:8080/apis/x", false}, // another scheme
		{"https://h.example", "https://h.example:443/apis/x", true},
		{"http://h.example", "http://h.example:80/apis/x", true},
		{"https://h.example", "https://h.example:80/apis/x", false},
		{"http://h.example", "http://h.example:443/apis/x", false},
	} {
		o, err := url.Parse(c.origin)
		if err != nil {
			t.Fatal(err)
		}
		if err := sameOrigin(o, c.raw); (err == nil) != c.same {
			t.Errorf("sameOrigin(%s, %s) = %v, want same origin %v", c.origin, c.raw, err, c.same)
		}
	}
	o, _ := url.Parse("http://127.0.0.1:8080")
	if err := sameOrigin(o, "http://[::1"); err == nil {
		t.Error("an unparseable URL was taken for the same origin")
	}
}
