package simhosts

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// env is a getenv of the given pairs.
func env(pairs ...string) func(string) string {
	return func(k string) string {
		for i := 0; i+1 < len(pairs); i += 2 {
			if pairs[i] == k {
				return pairs[i+1]
			}
		}
		return ""
	}
}

// TestAHostThatEndsBeforeReadyIsReportedAtOnce: a host that refuses its flags
// ends at once; the demo says so, with what it said, instead of waiting out
// the ready file's 20 s.
func TestAHostThatEndsBeforeReadyIsReportedAtOnce(t *testing.T) {
	dir := t.TempDir()
	fake := filepath.Join(dir, "hostsim")
	if err := os.WriteFile(fake, []byte("#!/bin/sh\necho 'hostsim serve: --profile nope: no such profile' >&2\nexit 2\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	hosts, err := Start(fake, dir, []string{"full"}, env())
	if err == nil {
		Stop(hosts)
		t.Fatal("a host that exits at once started")
	}
	for _, want := range []string{"hostsim --profile full on 127.0.0.1:0 ended (exit status 2) before it was ready", "--profile nope: no such profile"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error %q does not say %q", err, want)
		}
	}
	if took := time.Since(start); took > ReadyWithin/2 {
		t.Errorf("Start took %v to see the host end; want at once, not the ready file's %v", took, ReadyWithin)
	}
}

// TestTheEnvironmentIsCheckedBeforeAnythingStarts: a lane or a first port the
// hosts cannot take is refused naming the variable, and no host is started
// (the binary given does not exist).
func TestTheEnvironmentIsCheckedBeforeAnythingStarts(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "no-hostsim")
	for _, c := range []struct {
		env  func(string) string
		want string
	}{
		{env(EnvLane, "v2"), `TAKOKIT_SIM_LANE="v2": unknown lane "v2"; the known lanes are v1beta1 (current), v1alpha3 (withdrawn upstream); unset it for the default`},
		{env(EnvPort, "80"), `TAKOKIT_SIM_PORT="80": give the first of 2 free ports, from 1024 up`},
		{env(EnvPort, "65535"), `TAKOKIT_SIM_PORT="65535": give the first of 2 free ports`},
		{env(EnvPort, "x"), `TAKOKIT_SIM_PORT="x"`},
	} {
		_, err := Start(missing, t.TempDir(), []string{"full", "kv-only"}, c.env)
		if err == nil || err.Error() != c.want && !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("Start: %v; want %s", err, c.want)
		}
	}
	if _, err := Start(missing, t.TempDir(), []string{"full"}, env(EnvLane, "v1alpha3")); err == nil || !strings.Contains(err.Error(), "start hostsim --profile full") {
		t.Errorf("a known lane and a missing binary: %v; want the start to fail on the binary", err)
	}
}
