package wire

import "testing"

func TestSchemelessOriginSaysTheOriginToWrite(t *testing.T) {
	for raw, want := range map[string]string{
		"127.0.0.1:8484":   "http://127.0.0.1:8484",
		"LocalHost:1":      "http://LocalHost:1",
		"[::1]:9/apis":     "http://[::1]:9",
		"host.example:443": "https://host.example:443",
		"me@10.0.0.1":      "https://10.0.0.1",
		"http://x:1":       "",
		"/apis":            "",
		"[::1":             "",
	} {
		got, ok := SchemelessOrigin(raw)
		if got != want || ok != (want != "") {
			t.Errorf("SchemelessOrigin(%q) = %q, %v; want %q", raw, got, ok, want)
		}
	}
}
