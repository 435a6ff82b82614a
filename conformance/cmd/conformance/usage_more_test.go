package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunRefusesWhatWouldWasteIt: a --catalog that is no family root, a check in
// both --only and --skip, and an --out whose directory is missing or a file are
// refused before anything runs (exit 2, nothing on stdout), each saying what to do.
// Before, the first ran knowing no Form (not-applicable everywhere, exit 0), the
// second ran nothing (exit 0), the third lost the whole run once it ended.
func TestRunRefusesWhatWouldWasteIt(t *testing.T) {
	empty := t.TempDir()
	noForms := t.TempDir()
	if err := os.MkdirAll(filepath.Join(noForms, "forms"), 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "plain")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	base := []string{"run", "--endpoint", "http://127.0.0.1:1", "--token-env", "TOK"}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"catalog that is no family root", []string{"--catalog", empty}, "conformance: --catalog " + empty + ": "},
		{"catalog of an empty family", []string{"--catalog", noForms}, "conformance: --catalog " + noForms + ": its forms/ directory holds no Form package"},
		{"missing catalog", []string{"--catalog", filepath.Join(empty, "none")}, "conformance: --catalog " + filepath.Join(empty, "none") + ": "},
		{"a check in --only and --skip", []string{"--only", "stale-generation-rejected,discovery-exact", "--skip", "stale-generation-rejected"},
			`conformance: run: check "stale-generation-rejected" is in both --only and --skip; name it in one of them`},
		{"out in a missing directory", []string{"--out", filepath.Join(empty, "no", "r.json")},
			"conformance: --out " + filepath.Join(empty, "no", "r.json") + ": the directory " + filepath.Join(empty, "no") + " does not exist; create it, or write elsewhere"},
		{"out under a file", []string{"--out", filepath.Join(file, "r.json")},
			"conformance: --out " + filepath.Join(file, "r.json") + ": " + file + " is a file, not a directory"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, env(map[string]string{"TOK": "t"}), append(append([]string{}, base...), tc.args...)...)
			first, _, _ := strings.Cut(stderr, "\n")
			if code != 2 || stdout != "" || !strings.HasPrefix(first, tc.want) {
				t.Errorf("exit %d, stdout %q, stderr's first line %q; want 2, nothing, a line starting %q", code, stdout, first, tc.want)
			}
		})
	}
}

// TestSelftestAndListRefuseBadFlagsFirst: an unknown lane or check id given to
// selftest is refused before any hostsim starts (it started one and ran the positive
// suite first), and list's --out in a missing directory is refused like run's.
//
// The --hostsim given is a stand-in that only leaves a mark: were the refusal lost,
// selftest would start it, and the mark fails the test. (It was the test binary
// itself once, and a mutant that lost the refusal had the binary start itself,
// which started itself again, until /tmp filled.)
func TestSelftestAndListRefuseBadFlagsFirst(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "no", "list.md")
	mark := filepath.Join(dir, "hostsim-started")
	standIn := filepath.Join(dir, "hostsim")
	if err := os.WriteFile(standIn, []byte("#!/bin/sh\ntouch '"+mark+"'\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"selftest", "--hostsim", standIn, "--lanes", "v2"}, `conformance: selftest: --lanes: unknown lane "v2"; the known lanes are`},
		{[]string{"selftest", "--hostsim", standIn, "--only", "no-such-check"}, `conformance: selftest: check "no-such-check" is not in the table`},
		{[]string{"list", "--out", missing}, "conformance: --out " + missing + ": the directory " + filepath.Dir(missing) + " does not exist; create it, or write elsewhere"},
	} {
		code, stdout, stderr := runCLI(t, env(nil), tc.args...)
		first, _, _ := strings.Cut(stderr, "\n")
		if code != 2 || stdout != "" || !strings.HasPrefix(first, tc.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr's first line %q; want 2, nothing, a line starting %q", tc.args, code, stdout, first, tc.want)
		}
		if _, err := os.Stat(mark); err == nil {
			t.Fatalf("%v started the hostsim it was given before refusing", tc.args)
		}
	}
}

// TestRunSaysWhichOriginToWrite: an --endpoint that is not a bare origin is
// answered with the origin to write when one can be read from it (a host:port with
// no scheme, an API path, a query). Before, each got "must be a bare origin such as
// http://127.0.0.1:8484", the same example whatever was given.
func TestRunSaysWhichOriginToWrite(t *testing.T) {
	for raw, want := range map[string]string{
		"127.0.0.1:18556": `conformance: --endpoint "127.0.0.1:18556" must be a bare origin: write http://127.0.0.1:18556`,
		"localhost:8484":  `conformance: --endpoint "localhost:8484" must be a bare origin: write http://localhost:8484`,
		"host.example":    `conformance: --endpoint "host.example" must be a bare origin: write https://host.example`,
		"http://127.0.0.1:18556/apis/forms.takoform.com": `conformance: --endpoint "http://127.0.0.1:18556/apis/forms.takoform.com" must be a bare origin: write http://127.0.0.1:18556`,
		"https://host.example/?x=1":                      `conformance: --endpoint "https://host.example/?x=1" must be a bare origin: write https://host.example`,
		"ftp://host.example":                             `conformance: --endpoint "ftp://host.example" must be a bare origin such as http://127.0.0.1:8484`,
		"http:///apis":                                   `conformance: --endpoint "http:///apis" must be a bare origin such as http://127.0.0.1:8484`,
		"/apis":                                          `conformance: --endpoint "/apis" must be a bare origin such as http://127.0.0.1:8484`,
		"http://[::1":                                    `conformance: --endpoint "http://[::1" must be a bare origin such as http://127.0.0.1:8484`,
		"[::1":                                           `conformance: --endpoint "[::1" must be a bare origin such as http://127.0.0.1:8484`,
		"me@127.0.0.1:1":                                 `conformance: --endpoint "me@127.0.0.1:1" must be a bare origin: write http://127.0.0.1:1`,
		"https://me:pw@host.example":                     `conformance: --endpoint "https://me:pw@host.example" must be a bare origin: write https://host.example`,
	} {
		code, stdout, stderr := runCLI(t, env(map[string]string{"TOK": "t"}), "run", "--endpoint", raw, "--token-env", "TOK")
		first, _, _ := strings.Cut(stderr, "\n")
		if code != 2 || stdout != "" || first != want {
			t.Errorf("--endpoint %s: exit %d, stdout %q, stderr's first line %q; want 2, nothing, %q", raw, code, stdout, first, want)
		}
	}
}
