package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/takokit/takokit/hostsim/internal/profile"
)

func envOf(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestLoadPrecedenceFlagEnvDefault(t *testing.T) {
	env := envOf(map[string]string{"HOSTSIM_READY_FILE": "/env/ready", "HOSTSIM_ACK_DEADLINE": "3s",
		"HOSTSIM_PROFILE": "kv-only", "HOSTSIM_CONFORMANCE_PROBES": "true"})
	c, err := Load("serve", []string{"--profile", "async"}, env)
	if err != nil {
		t.Fatal(err)
	}
	if c.Profile != "async" || c.Sources["profile"] != "flag --profile" {
		t.Fatalf("flag must win over env: %q from %s", c.Profile, c.Sources["profile"])
	}
	if c.ReadyFile != "/env/ready" || c.AckDeadline != 3*time.Second || !c.ConformanceProbes || c.Sources["ready-file"] != "env HOSTSIM_READY_FILE" {
		t.Fatalf("env fallback: %+v", c)
	}
	if c.Addr != "127.0.0.1:8484" || c.Sources["addr"] != "default" {
		t.Fatalf("default addr: %q %s", c.Addr, c.Sources["addr"])
	}
	if _, err := Load("serve", nil, envOf(map[string]string{"HOSTSIM_ACK_DEADLINE": "soon"})); err == nil || !strings.Contains(err.Error(), "HOSTSIM_ACK_DEADLINE") {
		t.Fatalf("a bad env value must be named: %v", err)
	}
	// two bad environment values: the first in flag order is named, and only it
	_, err = Load("serve", nil, envOf(map[string]string{"HOSTSIM_SEED": "x", "HOSTSIM_ACK_DEADLINE": "soon"}))
	if want := `HOSTSIM_ACK_DEADLINE="soon" is not a valid --ack-deadline (backend acknowledgement duration of Form transitions); fix the variable or unset it`; err == nil || err.Error() != want {
		t.Fatalf("two bad env values: %v, want %s", err, want)
	}
	if _, err := Load("serve", []string{"--log-format", "xml"}, envOf(nil)); err == nil {
		t.Fatal("--log-format xml accepted")
	}
	if EnvName("ready-file") != "HOSTSIM_READY_FILE" {
		t.Fatal(EnvName("ready-file"))
	}
}

// Every bad input exits 2 before anything starts, with one message on stderr
// that starts with the command's prefix and names what to fix; nothing goes
// to stdout.
func TestBadInputExitsTwoWithAMessage(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(text), 0o644)
		return p
	}
	badProfile := write("p.json", `{"name": "x", "support": 3}`)
	typo := write("typo.json", "{\"name\": \"typo\", \"extends\": \"full\",\n \"supportedEnums\": {\"WorkerVersoin\": {\"handlerz\": [\"fetch\"]}}}")
	extends := write("extends.json", "{\"name\": \"t\",\n \"extends\": \"kv-onyl\"}")
	syntax := write("syntax.json", "{\"name\": \"s\",\n \"extends\": \"full\"\n \"support\": \"served\"}")
	none := write("none.json", `{"name": "none", "extends": "full", "forms": {"include": []}}`)
	tokens := write("tokens.json", "[{\"token\": \"a\", \"tenant\": \"t\", \"principal\": \"p\"},\n {\"token\": \"b\" \"tenant\": \"t\"}]")
	emptyToken := write("empty-token.json", "[{\"token\": \"a\", \"tenant\": \"t\", \"principal\": \"p\"},\n {\"token\": \"\", \"tenant\": \"t\", \"principal\": \"p\"}]")
	badCatalog := filepath.Join(dir, "cat")
	write("cat/forms/x/y/definition.json", `{"kind": 1}`)
	notRoot := filepath.Join(dir, "parent") // holds a family root, is none itself
	os.MkdirAll(filepath.Join(notRoot, "family", "forms"), 0o755)
	empty := filepath.Join(notRoot, "family") // a family root whose forms/ is empty
	addr := "--addr=127.0.0.1:0"
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"serve", "--profile", "nope", addr}, "hostsim serve: unknown profile \"nope\"; built-in profiles are: full, kv-only"},
		{[]string{"serve", "--profile", "kv-onyl", addr}, `hostsim serve: unknown profile "kv-onyl" (did you mean "kv-only"?); built-in profiles are: full, kv-only`},
		{[]string{"serve", "--profile", extends, addr}, "hostsim serve: " + extends + `:2: /extends: unknown profile "kv-onyl" (did you mean "kv-only"?); built-in profiles are: full,`},
		{[]string{"serve", "--profile", badProfile, addr}, "hostsim serve: profile file " + badProfile + " does not parse"},
		{[]string{"profile", "show", syntax}, "hostsim profile show: profile file " + syntax + " does not parse (a profile is a JSON object with the members of docs/guides/partial-hosts.md): " + syntax + ":3:2: the document: expected ','"},
		{[]string{"serve", "--profile", typo, addr}, "hostsim serve: the profile names what the catalog does not hold"},
		{[]string{"serve", "--profile", typo, addr}, typo + `:2: /supportedEnums/WorkerVersoin: the catalog has no kind "WorkerVersoin" (did you mean "WorkerVersion"?)`},
		{[]string{"serve", "--profile", none, addr}, "hostsim serve: --profile " + none + " installs none of the catalog's"},
		{[]string{"serve", "--tokens", tokens, addr}, "hostsim serve: --tokens " + tokens + " does not parse (expected a JSON list of {token, tenant, principal}): " + tokens + ":2:16: /1: expected ','"},
		{[]string{"serve", "--tokens", emptyToken, addr}, "hostsim serve: --tokens " + emptyToken + ":2: /1: token, tenant and principal must be non-empty"},
		{[]string{"serve", "--catalog", badCatalog, addr}, "hostsim serve: --catalog " + badCatalog + ": does not load:\n"},
		{[]string{"serve", "--catalog", filepath.Join(dir, "missing"), addr}, "hostsim serve: --catalog " + filepath.Join(dir, "missing") + ": no such directory"},
		{[]string{"serve", "--catalog", notRoot, addr}, "hostsim serve: --catalog " + notRoot + ": not a Form family root: it has no forms/ directory"},
		{[]string{"serve", "--catalog", notRoot, addr}, "these directories under it are family roots: " + empty},
		{[]string{"serve", "--catalog", empty, addr}, "hostsim serve: --catalog " + empty + ": its forms/ directory holds no Form package"},
		{[]string{"catalog", "--catalog", notRoot}, "hostsim catalog: --catalog " + notRoot + ": not a Form family root"},
		{[]string{"catalog", "--catalog", empty}, "hostsim catalog: --catalog " + empty + ": its forms/ directory holds no Form package"},
		{[]string{"catalog", notRoot}, "hostsim catalog: takes no arguments"},
		{[]string{"catalog", "--format", "yaml"}, `hostsim catalog: --format "yaml" is not text or json`},
		{[]string{"catalog", "--addr", "127.0.0.1:0"}, "hostsim catalog: flag provided but not defined: -addr (hostsim catalog --help lists the flags)"},
		{[]string{"profile", "show"}, "hostsim profile show: give one built-in profile name or profile file"},
		{[]string{"profile", "show", "full", "kv-only"}, "hostsim profile show: give one"},
		{[]string{"profile"}, "hostsim profile: name a subcommand"},
		{[]string{"profile", "shw"}, `hostsim profile: unknown subcommand "shw"`},
		{[]string{"profiles", "extra"}, "hostsim profiles: takes no arguments"},
		{[]string{"version", "extra"}, "hostsim version: takes no arguments"},
		{[]string{"help", "nope"}, `hostsim help: no command "nope"`},
		{[]string{"bogus"}, "hostsim: unknown command"},
		{[]string{"serve", "--no-such-flag"}, "hostsim serve: flag provided but not defined: -no-such-flag"},
		{[]string{"serve", "extra"}, "hostsim serve: takes no arguments"},
		{[]string{"serve", "--lane", "v9", addr}, `hostsim serve: --lane: unknown lane "v9"`},
		{[]string{"serve", "--procs", "-1", addr}, "hostsim serve: --procs -1 is not a number of threads; give 1 or more"},
		{[]string{"serve", "--procs", "two", addr}, `hostsim serve: invalid value "two" for flag -procs`},
		{[]string{"catalog", "--lane", "v9"}, `hostsim catalog: --lane: unknown lane "v9"`},
		{[]string{"serve", "--db", filepath.Join(dir, "no", "such", "dir", "x.db"), addr}, "x.db"},
	} {
		var out, errb bytes.Buffer
		code := run(tc.args, envOf(nil), &out, &errb)
		placed := strings.Contains(errb.String(), tc.want)
		if strings.HasPrefix(tc.want, "hostsim") { // the message starts with it
			placed = strings.HasPrefix(errb.String(), tc.want)
		}
		if code != 2 || !placed || !strings.HasPrefix(errb.String(), "hostsim") {
			t.Errorf("hostsim %q: exit %d, stderr %q\nwant 2 and %q", tc.args, code, errb.String(), tc.want)
		}
		if out.Len() > 0 {
			t.Errorf("hostsim %q: printed on stdout: %q", tc.args, out.String())
		}
	}
}

// --help and -h print the command's usage and its flags, and only its own,
// on stdout, and exit 0.
func TestHelpPrintsTheCommandsFlagsAndExitsZero(t *testing.T) {
	for _, tc := range []struct {
		args        []string
		usage       string
		want, never []string
	}{
		{[]string{"serve", "--help"}, "usage: hostsim serve [flags]", []string{"--addr address", "--ready-file file", "[HOSTSIM_READY_FILE]",
			"[HOSTSIM_PROFILE, default full]", "--conformance-probes\n", "--catalog dir", "--tokens file", "--log-format", "[HOSTSIM_SEED]", "[HOSTSIM_CONFORMANCE_PROBES]", "[HOSTSIM_PROCS]"},
			[]string{"--format", ", default 0]", ", default false]"}},
		{[]string{"serve", "-h"}, "usage: hostsim serve [flags]", []string{"--admin-token token"}, nil},
		{[]string{"serve", "--profile", "kv-only", "-help"}, "usage: hostsim serve [flags]", []string{"--seed n"}, nil},
		{[]string{"catalog", "--help"}, "usage: hostsim catalog [flags]", []string{"--catalog dir", "--format format", "[HOSTSIM_FORMAT, default text]"}, []string{"--addr", "--profile"}},
		{[]string{"catalog", "-h"}, "usage: hostsim catalog [flags]", nil, nil},
		{[]string{"profiles", "--help"}, "usage: hostsim profiles\n", []string{"List the built-in profiles"}, []string{"--"}},
		{[]string{"profile", "show", "--help"}, "usage: hostsim profile show NAME|FILE", []string{"merged profile"}, nil},
		{[]string{"profile", "-h"}, "usage: hostsim profile show NAME|FILE", nil, nil},
		{[]string{"version", "-h"}, "usage: hostsim version", nil, nil},
		{[]string{"help", "serve"}, "usage: hostsim serve [flags]", []string{"--addr address"}, nil},
		{[]string{"help"}, "usage:\n  hostsim serve", []string{"hostsim profile show NAME|FILE", "hostsim COMMAND --help"}, nil},
		{[]string{"--help"}, "usage:\n  hostsim serve", nil, nil},
	} {
		var out, errb bytes.Buffer
		code := run(tc.args, envOf(nil), &out, &errb)
		if code != 0 || errb.Len() > 0 || !strings.HasPrefix(out.String(), tc.usage) {
			t.Errorf("hostsim %q: exit %d, stderr %q, stdout %q; want 0 and %q", tc.args, code, errb.String(), out.String(), tc.usage)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(out.String(), w) {
				t.Errorf("hostsim %q: the help does not list %q:\n%s", tc.args, w, out.String())
			}
		}
		for _, n := range tc.never {
			if strings.Contains(out.String(), n) {
				t.Errorf("hostsim %q: the help lists %q, which the command does not take:\n%s", tc.args, n, out.String())
			}
		}
	}
	// every flag serve takes is in its help
	fs := flagSet("serve", &Config{})
	var out bytes.Buffer
	run([]string{"serve", "--help"}, envOf(nil), &out, &out)
	fs.VisitAll(func(f *flag.Flag) {
		if !strings.Contains(out.String(), "--"+f.Name) || !strings.Contains(out.String(), EnvName(f.Name)) {
			t.Errorf("serve --help omits --%s or %s", f.Name, EnvName(f.Name))
		}
	})
}

func TestProfilesAndProfileShow(t *testing.T) {
	var out bytes.Buffer
	if run([]string{"profiles"}, envOf(nil), &out, &out) != 0 || strings.Count(out.String(), "\n") != len(profile.BuiltinNames) {
		t.Fatalf("profiles: %s", out.String())
	}
	out.Reset()
	if run([]string{"profile", "show", "tight-limits"}, envOf(nil), &out, &out) != 0 || !strings.Contains(out.String(), `"maximumHandlers": 1`) ||
		!strings.Contains(out.String(), `"maximumBundleFiles": 16`) || strings.Contains(out.String(), "extends") {
		t.Fatalf("profile show: %s", out.String())
	}
}

func TestCatalogCommandListsFormsAndContracts(t *testing.T) {
	ref := referenceDir(t)
	var out, errb bytes.Buffer
	if code := run([]string{"catalog", "--catalog", ref, "--format", "json"}, envOf(nil), &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var doc struct {
		Forms []struct {
			FormRef       map[string]string `json:"formRef"`
			PackageDigest string            `json:"packageDigest"`
			Capabilities  []string          `json:"capabilities"`
			Outputs       []string          `json:"outputs"`
		} `json:"forms"`
		Interfaces []any `json:"interfaces"`
		Bindings   []any `json:"bindings"`
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil || len(doc.Forms) == 0 || len(doc.Interfaces) == 0 || len(doc.Bindings) == 0 {
		t.Fatalf("catalog json: %v %s", err, out.String())
	}
	outputs := 0
	for _, f := range doc.Forms {
		if f.FormRef["schemaDigest"] == "" || f.PackageDigest == "" || len(f.Capabilities) == 0 {
			t.Fatalf("form line lacks ref, package digest or capabilities: %+v", f)
		}
		outputs += len(f.Outputs)
	}
	if outputs == 0 {
		t.Fatal("no Form lists outputs")
	}
	out.Reset()
	if run([]string{"catalog", "--catalog", ref}, envOf(nil), &out, &errb) != 0 || !strings.Contains(out.String(), "interface ") {
		t.Fatalf("catalog text: %s", out.String())
	}
}
