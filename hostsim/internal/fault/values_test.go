package fault

import (
	"strings"
	"testing"
)

// Each value check takes what its fault can act on and refuses the rest, at
// the edges of what it accepts (docs/protocol.md#faults).
func TestEveryValueCheckAtItsEdges(t *testing.T) {
	code64 := "e" + strings.Repeat("a", 63)
	for text, want := range map[string]string{
		"transition.crash=A": "", "transition.crash=E": "",
		"transition.crash=AB": "not a crash point", "transition.crash=F": "not a crash point",
		"transition.crash=a": "not a crash point", "transition.hang": "needs a value",
		"transition.proof-wrong=uid": "", "transition.proof-wrong=transitionEvidenceDigest": "",
		"transition.proof-wrong=spec":        "not a transitionProof member",
		"transition.reject=backend_rejected": "", "transition.reject=e9_x": "", "transition.reject=" + code64: "",
		"transition.reject=" + code64 + "a": "not a failure code", "transition.reject=Backend": "not a failure code",
		"transition.reject=9x": "not a failure code", "transition.reject=_x": "not a failure code",
		"transition.reject=a-b": "not a failure code", "transition.reject=aB": "not a failure code",
		"store.fail=1": "", "store.fail=12": "", "store.read-fail=3": "",
		"store.fail=0": "not a statement number", "store.fail=-1": "not a statement number",
		"store.fail=01": "not a statement number", "store.fail=+1": "not a statement number",
		"store.read-fail=x": "not a statement number",
		"latency=0s":        "", "latency=250ms": "", "latency=-1s": "not a duration",
		"error=resource_busy": "", "error=busy": "error codes",
		"outputs.omit=url": "", "support.omit-profile=KVNamespace": "",
	} {
		s, err := ParseText(text)
		switch {
		case want == "" && err != nil:
			t.Errorf("%q refused: %v", text, err)
		case want == "" && s.Text() != text:
			t.Errorf("%q read back as %q", text, s.Text())
		case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
			t.Errorf("%q: error %v, want one saying %q", text, err, want)
		}
	}
}
