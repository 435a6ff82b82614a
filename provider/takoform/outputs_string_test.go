package takoform

import (
	"strings"
	"testing"
)

// hostOfLength is a host name of n characters that matches the declared hostname
// pattern (labels of at most 63 characters).
func hostOfLength(n int) string {
	var labels []string
	for n > 0 {
		l := min(n, 63)
		if rest := n - l; rest > 0 && rest < 2 {
			l-- // leave room for a dot and a one-letter label
		}
		labels = append(labels, strings.Repeat("a", l))
		n -= l + 1
	}
	return strings.Join(labels, ".")
}

// TestStringOutputAtItsDeclaredMaximumIsWritten: hostname declares maxLength 253; a
// host name of exactly 253 characters is a valid answer and is written as sent.
func TestStringOutputAtItsDeclaredMaximumIsWritten(t *testing.T) {
	t.Parallel()
	host := hostOfLength(253)
	if len(host) != 253 {
		t.Fatalf("test host name has %d characters", len(host))
	}
	st, d, _ := endpointsThrough(t).create(t, setOutput("hostname", `"`+host+`"`))
	mustNoError(t, "apply", d)
	if st.str("hostname") != host {
		t.Errorf("hostname = %q, want the 253 characters the host sent", st.str("hostname"))
	}
}

// TestStringOutputOutsideItsDeclarationFailsTheWrite: a string output that is null, of
// another JSON type, longer than declared or outside its pattern fails the write
// naming that output and what the host sent.
func TestStringOutputOutsideItsDeclarationFailsTheWrite(t *testing.T) {
	t.Parallel()
	host := endpointsThrough(t)
	long := hostOfLength(254)
	for _, c := range []struct{ name, output, sent, problem string }{
		{"null", "hostname", "null", "is null"},
		{"number", "hostname", "5", "was declared string and the host sent the number 5"},
		{"too long", "hostname", `"` + long + `"`, "has 254 characters, more than the declared maximum 253"},
		{"pattern", "url", `"http://api.example/"`, `is "http://api.example/", which does not match the declared pattern ^https://[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+/$`},
	} {
		t.Run(c.name, func(t *testing.T) {
			st, d, w := host.create(t, setOutput(c.output, c.sent))
			mustRefuseOutput(t, w, st, d, c.output, c.problem)
		})
	}
}
