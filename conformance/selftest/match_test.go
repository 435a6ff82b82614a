package selftest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/takokit/takokit/conformance"
)

func TestCaughtAtRule(t *testing.T) {
	fail := func(msg string) conformance.Result {
		return conformance.Result{Status: conformance.StatusFail, Message: msg}
	}
	earlier := fail(`POST /apis/…/form-transitions?…: expected 200, got 409 form_identity_conflict: rejected (backend_rejected)`)
	cases := []struct {
		name string
		neg  conformance.Negative
		res  conformance.Result
		want bool
	}{
		{"the rule's own failure", conformance.Negative{Fragment: "moved the generation"},
			fail(`POST …/observe: a host-side change of status moved the generation to "2"`), true},
		{"a fragment found in an earlier request's error status", conformance.Negative{Fragment: "backend_rejected"}, earlier, false},
		{"the same failure on a row that says it is not isolated", conformance.Negative{Fragment: "backend_rejected", Wanted: "transition.proof-wrong"}, earlier, true},
		{"a refused success that is the rule itself", conformance.Negative{Fragment: "expected 201, got 404 artifact_missing"},
			fail(`PUT …/WorkerBundle/b: expected 201, got 404 artifact_missing: gone`), true},
		{"a refusal where the rule wanted another code", conformance.Negative{Fragment: "expected 412 generation_conflict"},
			fail(`PUT …: expected 412 generation_conflict, got 200 {}`), true},
		{"the fragment is absent", conformance.Negative{Fragment: "moved the generation"}, fail("something else"), false},
		{"the check passed", conformance.Negative{Fragment: "x"}, conformance.Result{Status: conformance.StatusPass, Message: "x"}, false},
		{"the check errored", conformance.Negative{Fragment: "x"}, conformance.Result{Status: conformance.StatusError, Message: "x"}, false},
	}
	for _, c := range cases {
		if got := caughtAtRule(c.neg, c.res); got != c.want {
			t.Errorf("%s: caughtAtRule = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestNegativeRowsNameTheirRule: a row that claims to isolate its rule must not
// expect a fragment that only an earlier request's error status would carry.
func TestNegativeRowsNameTheirRule(t *testing.T) {
	for id, n := range conformance.Negatives() {
		if n.Wanted != "" || n.Missing {
			continue
		}
		if strings.Contains(n.Fragment, "500 internal_error") || strings.Contains(n.Fragment, "503 backend_unavailable") {
			t.Errorf("%s: fragment %q is an injected error status, so the row must say what would isolate the rule (Wanted)", id, n.Fragment)
		}
	}
}

// TestMissingHostsimFailsUnlessAskedToSkip: a missing bin/hostsim fails the tests
// that need it, in CI and outside it; only TAKOKIT_NO_HOSTSIM=1 makes them skip, built
// or not, and the skip names the variable.
func TestMissingHostsimFailsUnlessAskedToSkip(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "go.work"), []byte("go 1.26\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	wd := filepath.Join(root, "conformance", "selftest")
	if _, skip, err := LocateHostsim(wd, false); err == nil || skip != "" ||
		!strings.Contains(err.Error(), filepath.Join(root, "bin", "hostsim")) || !strings.Contains(err.Error(), "go tool mage build") ||
		!strings.Contains(err.Error(), NoHostsimEnv+"=1") {
		t.Errorf("without the opt-out: skip %q, err %v; want a failure naming the missing binary, how to build it and the opt-out", skip, err)
	}
	bin := filepath.Join(root, "bin", "hostsim")
	os.MkdirAll(filepath.Dir(bin), 0o755)
	os.WriteFile(bin, nil, 0o755)
	if got, skip, err := LocateHostsim(wd, false); err != nil || skip != "" || got != bin {
		t.Errorf("with the binary present: %q, skip %q, %v", got, skip, err)
	}
	if got, skip, err := LocateHostsim(wd, true); err != nil || got != "" || !strings.Contains(skip, NoHostsimEnv+"=1") {
		t.Errorf("with the opt-out: %q, skip %q, err %v; want a skip naming %s, the binary present or not", got, skip, err, NoHostsimEnv)
	}
}

// TestHostsimOptOutIsReadFromItsVariable: only a true value of TAKOKIT_NO_HOSTSIM opts out.
func TestHostsimOptOutIsReadFromItsVariable(t *testing.T) {
	for v, want := range map[string]bool{"": false, "0": false, "false": false, "1": true, "true": true} {
		t.Setenv(NoHostsimEnv, v)
		if got := HostsimOptOut(); got != want {
			t.Errorf("%s=%q: opt-out %v, want %v", NoHostsimEnv, v, got, want)
		}
	}
}
