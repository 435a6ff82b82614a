package dashboard

import (
	"encoding/json"
	"strings"

	"github.com/takokit/takokit/catalog/wire"
)

// Redacted stands where the dashboard hides a value.
const Redacted = "‹redacted›"

// secretNames are the member-name substrings whose values the dashboard
// never shows, matched case-insensitively: the words docs/protocol.md
// refuses in a Form transition spec, and API keys. A Form keeps secrets out
// of its spec (sensitive vars travel as names only), but a spec may still
// carry one by mistake, say under vars; the dashboard hides it all the same.
var secretNames = []string{"password", "secret", "token", "privatekey", "private_key", "credential", "apikey", "api_key"}

func secretName(name string) bool {
	n := strings.ToLower(name)
	for _, s := range secretNames {
		if strings.Contains(n, s) {
			return true
		}
	}
	return false
}

// redact returns v with the value of every secret-looking member and every
// PEM-looking string replaced by Redacted. Lists of names stay: a sensitive
// var's name (requiredSensitiveVars) is what a Form declares, never its value.
func redact(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, sub := range x {
			if secretName(k) {
				out[k] = Redacted
				continue
			}
			out[k] = redact(sub)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, sub := range x {
			out[i] = redact(sub)
		}
		return out
	case string:
		if strings.HasPrefix(strings.TrimSpace(x), "-----BEGIN") {
			return Redacted
		}
	}
	return v
}

// decode reads JSON bytes into plain values (nil when they are not JSON).
func decode(raw []byte) any {
	var v any
	if wire.DecodeNumbers(raw, &v) != nil {
		return nil
	}
	return v
}

// pretty is JSON bytes (or a value) indented and redacted, for a <pre>.
func pretty(v any) string {
	switch x := v.(type) {
	case json.RawMessage:
		v = decode(x)
	case []byte:
		v = decode(x)
	}
	if v == nil {
		return "—"
	}
	b, err := json.MarshalIndent(redact(v), "", "  ")
	if err != nil {
		return "—"
	}
	return string(b)
}

// compact is JSON bytes on one line, redacted.
func compact(raw []byte) string {
	v := decode(raw)
	if v == nil {
		return ""
	}
	b, _ := json.Marshal(redact(v))
	return string(b)
}

// literal is a served value as JSON text: "text", 443, true.
func literal(v any) string {
	b, err := json.Marshal(redact(v))
	if err != nil {
		return "?"
	}
	return string(b)
}
