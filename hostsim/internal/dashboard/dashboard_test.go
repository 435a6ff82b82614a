package dashboard

import (
	"slices"
	"strings"
	"testing"
)

func TestMatchCapturesUnescapedSegments(t *testing.T) {
	for _, c := range []struct {
		pattern, path string
		args          []string
		ok            bool
	}{
		{"/", "/", nil, true},
		{"/faults", "/faults", nil, true},
		{"/faults", "/faults/x", nil, false},
		{"/operations/*/complete", "/operations/op_1/complete", []string{"op_1"}, true},
		{"/operations/*/complete", "/operations//complete", nil, false},
		{"/resources/**", "/resources/t/s%2Fx/g/v1/K/n", []string{"t", "s/x", "g", "v1", "K", "n"}, true},
		{"/resources/**", "/resources", nil, false},
		{"/resources/**", "/resources/%zz", nil, false},
		{"/assets/*", "/assets/live.js", []string{"live.js"}, true},
	} {
		args, ok := match(c.pattern, c.path)
		if ok != c.ok || (ok && !slices.Equal(args, c.args)) {
			t.Errorf("match(%q, %q) = %q %v, want %q %v", c.pattern, c.path, args, ok, c.args, c.ok)
		}
	}
}

func TestLoopbackHostRefusesOtherNames(t *testing.T) {
	for host, want := range map[string]bool{
		"127.0.0.1:8484": true, "[::1]:8484": true, "localhost:1": true, "LOCALHOST": true, "127.0.0.2": true,
		"evil.example:8484": false, "10.0.0.1:8484": false, "": false, "127.0.0.1.nip.io:80": false,
	} {
		if got := loopbackHost(host); got != want {
			t.Errorf("loopbackHost(%q) = %v, want %v", host, got, want)
		}
	}
}

// Secret-looking members lose their values at any depth, PEM blocks too;
// lists of names and everything else stay.
func TestRedactHidesSecretLookingValues(t *testing.T) {
	in := []byte(`{"vars":{"LOG_LEVEL":"info","SIGNING_TOKEN":"s3cr3t-1","Db_Password":"s3cr3t-2"},
		"requiredSensitiveVars":["STRIPE_SECRET"],"nested":[{"apiKey":"s3cr3t-3","cert":"-----BEGIN PRIVATE KEY-----\nabc"}],
		"credentials":{"user":"u","pass":"s3cr3t-4"},"count":3}`)
	out := pretty(in)
	for _, secret := range []string{"s3cr3t-1", "s3cr3t-2", "s3cr3t-3", "s3cr3t-4", "BEGIN PRIVATE KEY"} {
		if strings.Contains(out, secret) {
			t.Errorf("%s shown:\n%s", secret, out)
		}
	}
	for _, kept := range []string{`"LOG_LEVEL": "info"`, `"STRIPE_SECRET"`, `"SIGNING_TOKEN": "` + Redacted, `"count": 3`} {
		if !strings.Contains(out, kept) {
			t.Errorf("%s missing:\n%s", kept, out)
		}
	}
	if got := compact([]byte(`{"token":"x","n":1}`)); got != `{"n":1,"token":"`+Redacted+`"}` {
		t.Errorf("compact: %s", got)
	}
	if pretty([]byte("not json")) != "—" {
		t.Error("bytes that are not JSON must show as a dash")
	}
	if got := compact([]byte("not json")); got != "" {
		t.Errorf("compact of bytes that are not JSON: %q, want nothing", got)
	}
	// every secret word, anywhere in a member name and in any case
	for _, name := range []string{"PASSWORD", "clientSecret", "refresh_token", "PrivateKey", "tls_private_key", "awsCredential", "xApiKey", "STRIPE_API_KEY"} {
		if got := compact([]byte(`{"` + name + `":"s3cr3t","kept":"v"}`)); strings.Contains(got, "s3cr3t") ||
			!strings.Contains(got, `"`+name+`":"`+Redacted+`"`) || !strings.Contains(got, `"kept":"v"`) {
			t.Errorf("a member named %s: %s", name, got)
		}
	}
	// a PEM block after white space, and a served output value (literal)
	if got := compact([]byte(`{"cert":"\n  -----BEGIN CERTIFICATE-----\nabc"}`)); got != `{"cert":"`+Redacted+`"}` {
		t.Errorf("a PEM block after white space: %s", got)
	}
	for _, c := range []struct {
		v    any
		want string
	}{
		{"-----BEGIN PRIVATE KEY-----\nabc", `"` + Redacted + `"`},
		{map[string]any{"apiToken": "s3cr3t", "host": "db"}, `{"apiToken":"` + Redacted + `","host":"db"}`},
		{"db.internal", `"db.internal"`},
		{int64(443), "443"},
	} {
		if got := literal(c.v); got != c.want {
			t.Errorf("literal(%#v) = %s, want %s", c.v, got, c.want)
		}
	}
	// numbers keep their digits: a large integer is not turned into a float
	if got := pretty([]byte(`{"bytes":12345678901234567890,"ratio":0.5}`)); !strings.Contains(got, `"bytes": 12345678901234567890`) || !strings.Contains(got, `"ratio": 0.5`) {
		t.Errorf("pretty changed a number:\n%s", got)
	}
}
