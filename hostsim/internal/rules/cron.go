package rules

import "github.com/takokit/takokit/hostsim/internal/rules/cron"

// CheckCron is the apply/import/commit rule for a cron-valued spec field at pointer:
// nil when value parses, else an invalid_argument Refusal naming the pointer, the
// field at fault and the grammar.
func CheckCron(pointer, value string) *Refusal {
	if _, err := cron.Parse(value); err != nil {
		return invalid(pointer, "%s: %v; accepted: %s", pointer, err, cron.Grammar)
	}
	return nil
}
