package main

import (
	"bytes"
	"encoding/json"
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
	if _, err := Load("serve", []string{"--log-format", "xml"}, envOf(nil)); err == nil {
		t.Fatal("--log-format xml accepted")
	}
	if EnvName("ready-file") != "HOSTSIM_READY_FILE" {
		t.Fatal(EnvName("ready-file"))
	}
}

func TestBadInputExitsTwoWithAMessage(t *testing.T) {
	dir := t.TempDir()
	badProfile := filepath.Join(dir, "p.json")
	os.WriteFile(badProfile, []byte(`{"name": "x", "support": 3}`), 0o644)
	typo := filepath.Join(dir, "typo.json")
	os.WriteFile(typo, []byte("{\"name\": \"typo\", \"extends\": \"full\",\n \"supportedEnums\": {\"WorkerVersoin\": {\"handlerz\": [\"fetch\"]}}}"), 0o644)
	badCatalog := filepath.Join(dir, "cat")
	os.MkdirAll(filepath.Join(badCatalog, "forms", "x", "y"), 0o755)
	os.WriteFile(filepath.Join(badCatalog, "forms", "x", "y", "definition.json"), []byte(`{"kind": 1}`), 0o644)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"serve", "--profile", "nope", "--addr", "127.0.0.1:0"}, "kv-only"},
		{[]string{"serve", "--profile", badProfile, "--addr", "127.0.0.1:0"}, badProfile},
		{[]string{"serve", "--profile", typo, "--addr", "127.0.0.1:0"}, typo + `:2: /supportedEnums/WorkerVersoin: the catalog has no kind "WorkerVersoin" (did you mean "WorkerVersion"?)`},
		{[]string{"serve", "--catalog", badCatalog, "--addr", "127.0.0.1:0"}, badCatalog},
		{[]string{"serve", "--catalog", filepath.Join(dir, "missing")}, "missing"},
		{[]string{"catalog", "--format", "yaml"}, "yaml"},
		{[]string{"profile", "show"}, "usage"},
		{[]string{"bogus"}, "unknown command"},
		{[]string{"serve", "--no-such-flag"}, "no-such-flag"},
		{[]string{"serve", "--db", filepath.Join(dir, "no", "such", "dir", "x.db"), "--addr", "127.0.0.1:0"}, "x.db"},
	} {
		var out, errb bytes.Buffer
		if code := run(tc.args, envOf(nil), &out, &errb); code != 2 || !strings.Contains(errb.String(), tc.want) {
			t.Errorf("hostsim %v: exit %d, stderr %q; want 2 naming %q", tc.args, code, errb.String(), tc.want)
		}
	}
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
