package testrun

import (
	"slices"
	"testing"
)

func TestGCEnvLeavesTheCallersGOGC(t *testing.T) {
	unset := func(string) string { return "" }
	if got := GCEnv(unset); !slices.Equal(got, []string{"GOGC=400"}) {
		t.Errorf("with GOGC unset, GCEnv = %q, want [GOGC=400]", got)
	}
	set := func(k string) string {
		if k == "GOGC" {
			return "100"
		}
		return ""
	}
	if got := GCEnv(set); got != nil {
		t.Errorf("with GOGC=100 set, GCEnv = %q, want nothing (the caller's GOGC wins)", got)
	}
}
