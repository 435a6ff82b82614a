package testrun

// TestGOGC is the collector's target the test jobs run with unless the caller set
// GOGC: every test binary, and the hostsim, OpenTofu and provider processes the
// tests start, lives seconds to minutes with a small heap, and at Go's default
// (100) the collector took about a seventh of a full run's CPU. A full
// `go tool mage test` (TAKOKIT_TEST_FRESH=1) used 624 CPU-seconds at the default
// and 539 with 400, its peak heap per process a few hundred MB
// (docs/decisions.md#test-time).
const TestGOGC = "400"

// GCEnv is what a test job adds for the collector: GOGC=TestGOGC, or nothing when
// getenv("GOGC") is set (the caller's choice wins, e.g. GOGC=100 to measure the
// default).
func GCEnv(getenv func(string) string) []string {
	if getenv("GOGC") != "" {
		return nil
	}
	return []string{"GOGC=" + TestGOGC}
}
