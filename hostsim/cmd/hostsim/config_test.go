package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
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
	emptyTenant := write("empty-tenant.json", "[\n\n {\"token\": \"a\", \"tenant\": \"\", \"principal\": \"p\"}]")
	emptyPrincipal := write("empty-principal.json", "[{\"token\": \"a\", \"tenant\": \"t\", \"principal\": \"p\"},\n {\"token\": \"b\", \"tenant\": \"t\", \"principal\": \"\"}]")
	noTokens := write("no-tokens.json", "[]")
	twice := write("twice.json", "[{\"token\": \"s3cret-value\", \"tenant\": \"t\", \"principal\": \"p\"},\n {\"token\": \"s3cret-value\", \"tenant\": \"t2\", \"principal\": \"q\"}]")
	badCatalog := filepath.Join(dir, "cat")
	write("cat/forms/x/y/definition.json", `{"kind": 1}`)
	notRoot := filepath.Join(dir, "parent") // holds a family root, is none itself
	os.MkdirAll(filepath.Join(notRoot, "family", "forms"), 0o755)
	empty := filepath.Join(notRoot, "family") // a family root whose forms/ is empty
	addr := "--addr=127.0.0.1:0"
	newDB := filepath.Join(dir, "new.db") // a bad --addr must not leave it created
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
		{[]string{"profile", "show", typo}, "hostsim profile show: the profile names what the catalog does not hold"},
		{[]string{"profile", "show", typo, "--lane", "v1alpha3"}, "hostsim profile show: give one built-in profile name or profile file, after the flags (got 3 arguments)"},
		{[]string{"serve", "--profile", typo, addr}, typo + `:2: /supportedEnums/WorkerVersoin: the catalog has no kind "WorkerVersoin" (did you mean "WorkerVersion"?)`},
		{[]string{"serve", "--profile", none, addr}, "hostsim serve: --profile " + none + " installs none of the catalog's"},
		{[]string{"serve", "--tokens", tokens, addr}, "hostsim serve: --tokens " + tokens + " does not parse (expected a JSON list of {token, tenant, principal}): " + tokens + ":2:16: /1: expected ','"},
		{[]string{"serve", "--tokens", emptyToken, addr}, "hostsim serve: --tokens " + emptyToken + ":2: /1: token, tenant and principal must be non-empty"},
		{[]string{"serve", "--tokens", emptyTenant, addr}, "hostsim serve: --tokens " + emptyTenant + ":3: /0: token, tenant and principal must be non-empty"},
		{[]string{"serve", "--tokens", emptyPrincipal, addr}, "hostsim serve: --tokens " + emptyPrincipal + ":2: /1: token, tenant and principal must be non-empty"},
		{[]string{"serve", "--tokens", noTokens, addr}, "hostsim serve: --tokens " + noTokens + " lists no token; give at least one {token, tenant, principal}, or omit --tokens for the default tokens"},
		{[]string{"serve", "--tokens", twice, addr}, "hostsim serve: --tokens " + twice + ":2: /1/token repeats the token of /0; a token stands for one principal of one tenant"},
		{[]string{"serve", "--catalog", referenceDir(t), "--lane", "v1alpha3", addr}, "hostsim serve: --catalog " + referenceDir(t) + " with --lane v1alpha3: the catalog speaks forms.takoform.com/v1beta1"},
		{[]string{"catalog", "--catalog", referenceDir(t), "--lane", "v1alpha3"}, "hostsim catalog: --catalog " + referenceDir(t) + " with --lane v1alpha3: the catalog speaks forms.takoform.com/v1beta1"},
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
		{[]string{"--version", "extra"}, "hostsim version: takes no arguments"}, // named as the command, not the flag spelling
		{[]string{"--help", "nope"}, `hostsim help: no command "nope"`},
		{[]string{"help", "nope"}, `hostsim help: no command "nope"`},
		{[]string{"bogus"}, "hostsim: unknown command"},
		{[]string{"serve", "--no-such-flag"}, "hostsim serve: flag provided but not defined: -no-such-flag"},
		{[]string{"serve", "extra"}, "hostsim serve: takes no arguments"},
		{[]string{"serve", "--lane", "v9", addr}, `hostsim serve: --lane: unknown lane "v9"`},
		{[]string{"serve", "--procs", "-1", addr}, "hostsim serve: --procs -1 is not a number of threads; give 1 or more"},
		{[]string{"serve", "--procs", "two", addr}, `hostsim serve: invalid value "two" for flag -procs`},
		{[]string{"catalog", "--lane", "v9"}, `hostsim catalog: --lane: unknown lane "v9"`},
		{[]string{"serve", "--db", filepath.Join(dir, "no", "such", "dir", "x.db"), addr}, "hostsim serve: --db " + filepath.Join(dir, "no", "such", "dir", "x.db") + ": the directory " + filepath.Join(dir, "no", "such", "dir") + " does not exist; create it, or name a file in one that exists (without --db the database is in memory)"},
		{[]string{"serve", "--db", filepath.Join(tokens, "x.db"), addr}, "hostsim serve: --db " + filepath.Join(tokens, "x.db") + ": the directory " + tokens + " is a file; name a file in a directory (without --db the database is in memory)"},
		{[]string{"serve", "--db", dir, addr}, "hostsim serve: --db " + dir + ": " + dir + " is a directory; name a file in it, such as " + filepath.Join(dir, "hostsim.db") + " (without --db the database is in memory)"},
		{[]string{"serve", "--db", tokens, addr}, "hostsim serve: --db " + tokens + ": " + tokens + " is not a SQLite database (it was left as it is); name a hostsim database file, or a path where no file is yet (without --db the database is in memory)"},
		{[]string{"serve", "--addr", "http://127.0.0.1:8490/"}, "hostsim serve: --addr http://127.0.0.1:8490/ is a URL; it takes host:port: write --addr 127.0.0.1:8490"},
		{[]string{"serve", "--addr", "http://localhost"}, "hostsim serve: --addr http://localhost is a URL; it takes host:port: write --addr localhost:8484"},
		{[]string{"serve", "--addr", "//127.0.0.1:8490"}, "hostsim serve: --addr //127.0.0.1:8490 is a URL; it takes host:port: write --addr 127.0.0.1:8490"},
		{[]string{"serve", "--addr", "8490"}, "hostsim serve: --addr 8490 has no host; write --addr 127.0.0.1:8490 (this machine only) or --addr :8490 (every interface)"},
		{[]string{"serve", "--addr", "localhost"}, "hostsim serve: --addr localhost is not host:port, such as 127.0.0.1:8484 (address localhost: missing port in address)"},
		{[]string{"serve", "--db", newDB, "--addr", "8490"}, "hostsim serve: --addr 8490 has no host"},
		{[]string{"serve", "--ack-deadline", "-5s", addr}, "hostsim serve: --ack-deadline -5s is negative; give 0 (no deadline) or a duration such as 10s"},
	} {
		code, out, errb := runRefusing(t, tc.args)
		placed := strings.Contains(errb.String(), tc.want)
		if strings.HasPrefix(tc.want, "hostsim") { // the message starts with it
			placed = strings.HasPrefix(errb.String(), tc.want)
		}
		if code != 2 || !placed || !strings.HasPrefix(errb.String(), "hostsim") {
			t.Errorf("hostsim %q: exit %d, stderr %q\nwant 2 and %q", tc.args, code, errb.String(), tc.want)
		}
		if strings.Contains(errb.String(), "s3cret") {
			t.Errorf("hostsim %q: a token from the tokens file reached stderr: %q", tc.args, errb.String())
		}
		if out.Len() > 0 {
			t.Errorf("hostsim %q: printed on stdout: %q", tc.args, out.String())
		}
	}
	if _, err := os.Stat(newDB); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a refused hostsim serve --db %s left the file behind (%v)", newDB, err)
	}
	// no command at all: the usage, on stderr, and exit 2
	var out, errb bytes.Buffer
	if code := run(nil, envOf(nil), &out, &errb); code != 2 || out.Len() > 0 || errb.String() != usage() {
		t.Errorf("hostsim with no arguments: exit %d, stdout %q, stderr %q; want 2 and the usage on stderr", code, out.String(), errb.String())
	}
}

// runRefusing runs hostsim args, which should be refused at once: a command
// that is still running after ten seconds (serving what it should have refused)
// fails the test then instead of hanging it to its deadline.
func runRefusing(t *testing.T, args []string) (int, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	return runRefusingWith(t, nil, args)
}

// runRefusingWith is runRefusing with the environment env.
func runRefusingWith(t *testing.T, env map[string]string, args []string) (int, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	var out, errb syncBuffer
	done := make(chan int, 1)
	go func() { done <- run(args, envOf(env), &out, &errb) }()
	select {
	case code := <-done:
		return code, bytes.NewBufferString(out.String()), bytes.NewBufferString(errb.String())
	case <-time.After(10 * time.Second):
		t.Fatalf("hostsim %q is still running after 10s instead of refusing its input; stdout %q", args, out.String())
		return 0, nil, nil
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
		{[]string{"profiles", "--help"}, "usage: hostsim profiles\n", []string{"List the built-in profiles"}, []string{"--", "Flags"}},
		{[]string{"profiles", "-help"}, "usage: hostsim profiles\n", nil, []string{"Flags"}},
		{[]string{"version", "--help"}, "usage: hostsim version\n", nil, []string{"Flags"}},
		{[]string{"profile", "show", "--help"}, "usage: hostsim profile show [flags] NAME|FILE", []string{"merged profile"}, nil},
		{[]string{"profile", "-h"}, "usage: hostsim profile show [flags] NAME|FILE", nil, nil},
		{[]string{"version", "-h"}, "usage: hostsim version", nil, nil},
		{[]string{"help", "serve"}, "usage: hostsim serve [flags]", []string{"--addr address"}, nil},
		{[]string{"help"}, "usage:\n  hostsim serve", []string{"hostsim profile show [flags] NAME|FILE", "hostsim COMMAND --help"}, nil},
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
	// a file naming a kind of the default lane's catalog: shown, and refused when
	// held to the other lane's, which lacks the kind (as serve --lane would)
	file := filepath.Join(t.TempDir(), "p.json")
	if err := os.WriteFile(file, []byte(`{"name": "x", "extends": "full", "forms": {"exclude": ["StaticAssetBundle"]}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if code := run([]string{"profile", "show", file}, envOf(nil), &out, &out); code != 0 || !strings.Contains(out.String(), `"StaticAssetBundle"`) {
		t.Fatalf("profile show of a file the catalog holds: exit %d %s", code, out.String())
	}
	out.Reset()
	if code := run([]string{"profile", "show", "--lane", "v1alpha3", file}, envOf(nil), &out, &out); code != 2 ||
		!strings.Contains(out.String(), "the profile names what the catalog does not hold") {
		t.Fatalf("profile show --lane v1alpha3 of a v1beta1 profile: exit %d %s", code, out.String())
	}
}

// hostsim catalog lists exactly what the catalog holds, each Form with its
// ref, package digest, capabilities and typed outputs, in JSON and in text:
// the published folder given by --catalog, and the built-in catalog of the lane
// --lane names.
func TestCatalogCommandListsWhatTheCatalogHolds(t *testing.T) {
	ref := referenceDir(t)
	fromDir, err := catalog.LoadRoot(ref)
	if err != nil {
		t.Fatal(err)
	}
	alpha, err := catalog.EmbeddedLane(wire.Lanes()[1])
	if err != nil {
		t.Fatal(err)
	}
	if alpha.Lane() == fromDir.Lane() {
		t.Fatalf("wire.Lanes()[1] is the default lane %s; the test needs the other one", alpha.Lane().Name)
	}
	for _, c := range []struct {
		args []string
		cat  *catalog.Catalog
	}{
		{[]string{"--catalog", ref}, fromDir},
		{[]string{"--lane", alpha.Lane().Name}, alpha},
	} {
		var out, errb bytes.Buffer
		if code := run(append([]string{"catalog", "--format", "json"}, c.args...), envOf(nil), &out, &errb); code != 0 {
			t.Fatalf("catalog %q: exit %d: %s", c.args, code, errb.String())
		}
		type formLine struct {
			FormRef       wire.FormRef `json:"formRef"`
			PackageDigest string       `json:"packageDigest"`
			Role          string       `json:"role"`
			Capabilities  []string     `json:"capabilities"`
			Outputs       []string     `json:"outputs"`
		}
		var got struct {
			Forms      []formLine          `json:"forms"`
			Interfaces []wire.InterfaceRef `json:"interfaces"`
			Bindings   []wire.BindingRef   `json:"bindings"`
		}
		if err := json.Unmarshal(out.Bytes(), &got); err != nil {
			t.Fatalf("catalog %q --format json: %v: %s", c.args, err, out.String())
		}
		var want struct {
			Forms      []formLine
			Interfaces []wire.InterfaceRef
			Bindings   []wire.BindingRef
		}
		var text []string // the start of each line the text format prints
		for _, f := range c.cat.Forms() {
			outs, spelled := []string{}, "no outputs"
			for _, o := range f.Outputs {
				outs = append(outs, o.Wire+":"+o.Type)
			}
			if len(outs) > 0 {
				spelled = "outputs " + strings.Join(outs, ",")
			}
			want.Forms = append(want.Forms, formLine{f.Ref, f.PackageDigest, f.Role, f.Capabilities, outs})
			text = append(text, fmt.Sprintf("form      %s %s@%s %s package %s role %s [%s] %s", f.Ref.APIVersion, f.Ref.Kind,
				f.Ref.DefinitionVersion, f.Ref.SchemaDigest, f.PackageDigest, f.Role, strings.Join(f.Capabilities, ","), spelled))
		}
		for _, i := range c.cat.Interfaces() {
			want.Interfaces = append(want.Interfaces, i.Ref)
			text = append(text, fmt.Sprintf("interface %s@%s %s", i.Ref.Name, i.Ref.Version, i.Ref.SchemaDigest))
		}
		for _, b := range c.cat.Bindings() {
			want.Bindings = append(want.Bindings, b.Ref)
			text = append(text, fmt.Sprintf("binding   %s@%s %s", b.Ref.Name, b.Ref.Version, b.Ref.SchemaDigest))
		}
		if !reflect.DeepEqual(want.Forms, got.Forms) || !reflect.DeepEqual(want.Interfaces, got.Interfaces) || !reflect.DeepEqual(want.Bindings, got.Bindings) {
			t.Errorf("catalog %q --format json:\n got %+v\nwant %+v", c.args, got, want)
		}
		if len(want.Forms) == 0 || len(want.Interfaces) == 0 || len(want.Bindings) == 0 || !strings.Contains(strings.Join(text, "\n"), " outputs ") {
			t.Fatalf("catalog %q: the catalog should hold Forms with outputs, interfaces and bindings: %+v", c.args, want)
		}
		out.Reset()
		if code := run(append([]string{"catalog"}, c.args...), envOf(nil), &out, &errb); code != 0 {
			t.Fatalf("catalog %q: exit %d: %s", c.args, code, errb.String())
		}
		if got := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n"); !slices.Equal(got, text) {
			t.Errorf("catalog %q: text\n%s\nwant\n%s", c.args, out.String(), strings.Join(text, "\n"))
		}
	}
}

// hostsim version prints the version `go tool mage build` stamps, and "dev" for
// a build that carries none (a test binary's module version is "(devel)" or
// empty, which is no version either).
func TestVersionIsTheStampedOneElseDev(t *testing.T) {
	defer func(v string) { version = v }(version)
	for _, c := range []struct{ stamped, want string }{{"1.4.0-rc.1", "hostsim 1.4.0-rc.1\n"}, {"", "hostsim dev\n"}} {
		version = c.stamped
		for _, args := range [][]string{{"version"}, {"--version"}, {"-version"}} {
			var out, errb bytes.Buffer
			if code := run(args, envOf(nil), &out, &errb); code != 0 || out.String() != c.want || errb.Len() > 0 {
				t.Errorf("stamped %q, hostsim %q: exit %d, stdout %q, stderr %q; want %q", c.stamped, args, code, out.String(), errb.String(), c.want)
			}
		}
	}
}

// TestCheckAddrTakesHostPort: what serve listens on is host:port in any of its
// spellings; a host name with a port is not a URL of that scheme.
func TestCheckAddrTakesHostPort(t *testing.T) {
	for _, addr := range []string{"127.0.0.1:0", "localhost:0", ":0", "[::1]:0", "0.0.0.0:8484"} {
		if err := (Config{Addr: addr}).checkAddr(); err != nil {
			t.Errorf("--addr %s refused: %v", addr, err)
		}
	}
}

// TestASettingFromTheEnvironmentIsNamedAsTheVariable: a value refused after
// parsing is named as it was given, HOSTSIM_PROCS=-1 from the environment and
// --procs -1 from the command line, and so is what to write instead.
func TestASettingFromTheEnvironmentIsNamedAsTheVariable(t *testing.T) {
	for _, c := range []struct {
		env  map[string]string
		args []string
		want string
	}{
		{map[string]string{"HOSTSIM_PROCS": "-1"}, nil, "HOSTSIM_PROCS=-1 is not a number of threads; give 1 or more (or 0: GOMAXPROCS when set, else 1)"},
		{map[string]string{"HOSTSIM_PROCS": "2"}, []string{"--procs", "-1"}, "--procs -1 is not a number of threads"},
		{map[string]string{"HOSTSIM_ACK_DEADLINE": "-1s"}, nil, "HOSTSIM_ACK_DEADLINE=-1s is negative; give 0 (no deadline) or a duration such as 10s"},
		{map[string]string{"HOSTSIM_LOG_FORMAT": "xml"}, nil, `HOSTSIM_LOG_FORMAT="xml" is not text or json`},
		{nil, []string{"--log-format", "xml"}, `--log-format "xml" is not text or json`},
		{map[string]string{"HOSTSIM_ADDR": "8490"}, nil, "HOSTSIM_ADDR=8490 has no host; write HOSTSIM_ADDR=127.0.0.1:8490 (this machine only) or HOSTSIM_ADDR=:8490 (every interface)"},
		{map[string]string{"HOSTSIM_ADDR": "http://127.0.0.1:1"}, nil, "HOSTSIM_ADDR=http://127.0.0.1:1 is a URL; it takes host:port: write HOSTSIM_ADDR=127.0.0.1:1"},
	} {
		_, err := Load("serve", c.args, envOf(c.env))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("env %v, args %q: %v; want an error starting %q", c.env, c.args, err, c.want)
		}
	}
	// the settings checked once the command runs, through the whole command
	dir := t.TempDir()
	noTokens := filepath.Join(dir, "none.json")
	os.WriteFile(noTokens, []byte("[]"), 0o644)
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	for _, c := range []struct {
		env  map[string]string
		args []string
		want string
	}{
		{map[string]string{"HOSTSIM_TOKENS": noTokens}, []string{"serve", "--addr=127.0.0.1:0"}, "hostsim serve: HOSTSIM_TOKENS=" + noTokens + " lists no token; give at least one {token, tenant, principal}, or omit HOSTSIM_TOKENS for the default tokens"},
		{nil, []string{"serve", "--addr=127.0.0.1:0", "--tokens", noTokens}, "hostsim serve: --tokens " + noTokens + " lists no token; give at least one {token, tenant, principal}, or omit --tokens for the default tokens"},
		{map[string]string{"HOSTSIM_DB": dir}, []string{"serve", "--addr=127.0.0.1:0"}, "hostsim serve: HOSTSIM_DB=" + dir + ": " + dir + " is a directory; name a file in it, such as " + filepath.Join(dir, "hostsim.db") + " (without HOSTSIM_DB the database is in memory)"},
		{map[string]string{"HOSTSIM_LANE": "v9"}, []string{"catalog"}, `hostsim catalog: HOSTSIM_LANE: unknown lane "v9"`},
		{map[string]string{"HOSTSIM_ADDR": busy.Addr().String()}, []string{"serve"}, "hostsim serve: cannot listen on HOSTSIM_ADDR=" + busy.Addr().String() + ": "},
		{map[string]string{"HOSTSIM_CATALOG": noTokens}, []string{"catalog"}, "hostsim catalog: HOSTSIM_CATALOG=" + noTokens + ": "},
	} {
		code, _, errb := runRefusingWith(t, c.env, c.args)
		if code != 2 || !strings.HasPrefix(errb.String(), c.want) {
			t.Errorf("env %v, hostsim %q: exit %d, stderr %q; want 2 and a line starting %q", c.env, c.args, code, errb.String(), c.want)
		}
	}
}
