package rules

import (
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/rules/cron"
)

// CheckCron refuses what cron.Parse refuses, as invalid_argument at the
// pointer, with the parse error, the value and the accepted grammar.
func TestCheckCronRefusesWhatParseRefuses(t *testing.T) {
	for _, expr := range []string{"0 24 * * *", "5-1 * * * *", "*/0 * * * *", "@daily", "* * * *", "*  * * *",
		"5/10 * * * *", "0 0 * JAN *", "0 0 L * *", "1,,2 * * * *", "*/5/2 * * * *", "+5 * * * *"} {
		_, err := cron.Parse(expr)
		if err == nil {
			t.Fatalf("cron.Parse(%q) accepted", expr)
		}
		r := CheckCron("/cron", expr)
		if r == nil || r.Code != wire.CodeInvalidArgument || r.Pointer != "/cron" {
			t.Fatalf("CheckCron(%q) = %+v, want invalid_argument at /cron", expr, r)
		}
		if !strings.Contains(r.Message, "/cron") || !strings.Contains(r.Message, expr) || !strings.Contains(r.Message, err.Error()) ||
			!strings.Contains(r.Message, "accepted: "+cron.Grammar) {
			t.Errorf("refusal message %q must name the pointer, the value, the parse error and what is accepted", r.Message)
		}
	}
}

func TestCheckCronAcceptsAndWires(t *testing.T) {
	if r := CheckCron("/cron", "0,30 8-18 * * 1-5"); r != nil {
		t.Fatalf("CheckCron refused a valid expression: %v", r)
	}
	r := CheckCron("/cron", "0 24 * * *")
	w := r.Wire()
	if w.Code != wire.CodeInvalidArgument || w.Retryable || string(w.Details) != `{"field":"/cron"}` {
		t.Fatalf("wire form = %+v details %s", w, w.Details)
	}
}
