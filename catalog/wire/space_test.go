package wire

import (
	"strings"
	"testing"
)

func TestValidateSpaceID(t *testing.T) {
	for _, ok := range []string{"prod", "a b", "Ünïcødé", strings.Repeat("s", 255), "x+y", "日本"} {
		if err := ValidateSpaceID(ok); err != nil {
			t.Errorf("ValidateSpaceID(%q) = %v, want ok", ok, err)
		}
	}
	// the probes of conformance check space-id-grammar-enforced, plus edge cases
	for _, bad := range []string{"", " prod", "prod ", "\ufeffprod", "prod\ufeff", "\u00a0prod", "a/b", "a\u0001b",
		"a\u007fb", "a\u0085b", strings.Repeat("s", 256), "\u3000x", "x\u2028", "\xff"} {
		err := ValidateSpaceID(bad)
		if err == nil {
			t.Errorf("ValidateSpaceID(%q) accepted", bad)
		} else if !strings.Contains(err.Error(), "space") {
			t.Errorf("error %q does not name the space", err)
		}
	}
}
