package mutate

import (
	"os"
	"testing"
)

// TestMain gives the go commands the tests run in their throwaway sample modules
// the environment every one of them wants, once for the process: no workspace,
// and go.mod written as the command needs. Set per test (t.Setenv), it kept
// those tests from running side by side, and they mostly wait on the go command
// and on their mutants' timeouts (docs/decisions.md#test-time).
func TestMain(m *testing.M) {
	os.Setenv("GOWORK", "off")
	os.Setenv("GOFLAGS", "-mod=mod")
	os.Exit(m.Run())
}
