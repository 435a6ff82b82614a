package scripts

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// BenchmarkTofuPlan200 compares, through the real OpenTofu CLI in one run, `tofu plan`
// of 200 takoform resources of 5 kinds against hostsim with `tofu plan` of 200
// terraform_data resources, and reports the support requests one plan makes (it
// fails unless that equals the 11 distinct support routes of those kinds).
// It uses the binaries of `go tool mage build tofu`:
//
//	go test -run '^$' -bench TofuPlan200 -benchtime 3x ./scripts
func BenchmarkTofuPlan200(b *testing.B) {
	bin, err := filepath.Abs("../bin")
	if err != nil {
		b.Fatal(err)
	}
	for _, name := range []string{"tofu", "hostsim", "terraform-provider-takoform"} {
		if _, err := os.Stat(filepath.Join(bin, name)); err != nil {
			b.Skipf("%s is missing: run `go tool mage build tofu` first", filepath.Join(bin, name))
		}
	}
	dir := b.TempDir()
	url, admin := benchHostsim(b, bin, dir)
	env := benchEnv(bin, dir, url)
	takoform := benchDir(b, dir, "takoform", benchTakoformConfig)
	data := benchDir(b, dir, "data", benchDataConfig)
	const routes = 11 // 5 Form routes + edge.queue, edge.kv, edge.objects, edge.sql, worker.runtime, worker.service
	var tTako, tData time.Duration
	var reads int64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		before := benchSupportReads(b, admin)
		tTako += benchPlan(b, bin, takoform, env)
		got := benchSupportReads(b, admin) - before
		if got != routes {
			b.Fatalf("tofu plan of 200 takoform resources made %d support requests, want %d (one per distinct route)", got, routes)
		}
		reads += got
		tData += benchPlan(b, bin, data, env)
	}
	b.StopTimer()
	n := float64(b.N)
	b.ReportMetric(float64(reads)/n, "support-reqs/plan")
	b.ReportMetric(float64(tTako.Milliseconds())/n, "takoform-ms/plan")
	b.ReportMetric(float64(tData.Milliseconds())/n, "terraform_data-ms/plan")
	b.ReportMetric(float64(tTako)/float64(tData), "ratio")
}

// benchHostsim starts bin/hostsim (profile full) and stops it when the benchmark ends.
func benchHostsim(b *testing.B, bin, dir string) (url, admin string) {
	ready := filepath.Join(dir, "hostsim.ready")
	logf, err := os.Create(filepath.Join(dir, "hostsim.log"))
	if err != nil {
		b.Fatal(err)
	}
	cmd := exec.Command(filepath.Join(bin, "hostsim"), "serve", "--addr", "127.0.0.1:0", "--profile", "full", "--ready-file", ready)
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
		_ = logf.Close()
	})
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(25 * time.Millisecond) {
		var r struct{ URL, Admin string }
		if raw, err := os.ReadFile(ready); err == nil && json.Unmarshal(raw, &r) == nil && r.URL != "" {
			return r.URL, r.Admin
		}
	}
	b.Fatalf("hostsim wrote no ready file within 20s; log:\n%s", readLog(logf.Name()))
	return "", ""
}

// benchEnv is the scenario environment: sanitized, bin/ first on PATH, dev_overrides.
func benchEnv(bin, dir, url string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "TF_") || strings.HasPrefix(kv, "TOFU_") || strings.HasPrefix(kv, "TAKOFORM_") ||
			strings.HasPrefix(kv, "HOME=") || strings.HasPrefix(kv, "PATH=") {
			continue
		}
		env = append(env, kv)
	}
	rc := filepath.Join(dir, ".tofurc")
	_ = os.WriteFile(rc, []byte(cliConfig(bin)), 0o644)
	return append(env, "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "HOME="+dir,
		"TF_CLI_CONFIG_FILE="+rc, "TF_IN_AUTOMATION=1", "CHECKPOINT_DISABLE=1",
		"TAKOFORM_ENDPOINT="+url, "TAKOFORM_TOKEN=sim-primary", "TAKOFORM_SPACE=bench")
}

func benchDir(b *testing.B, dir, name, config string) string {
	d := filepath.Join(dir, name)
	if err := os.MkdirAll(d, 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(d, "main.tf"), []byte(config), 0o644); err != nil {
		b.Fatal(err)
	}
	return d
}

// benchPlan runs one `tofu plan` and returns its wall time.
func benchPlan(b *testing.B, bin, dir string, env []string) time.Duration {
	cmd := exec.Command(filepath.Join(bin, "tofu"), "plan", "-no-color", "-lock=false", "-input=false")
	cmd.Dir, cmd.Env = dir, env
	start := time.Now()
	out, err := cmd.CombinedOutput()
	elapsed := time.Since(start)
	if err != nil || !strings.Contains(string(out), "Plan: 200 to add") {
		b.Fatalf("tofu plan in %s: %v\n%s", dir, err, out)
	}
	return elapsed
}

func benchSupportReads(b *testing.B, admin string) int64 {
	resp, err := http.Get(strings.TrimSuffix(admin, "/") + "/counters")
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	var c struct {
		SupportReads int64 `json:"supportReads"`
	}
	if resp.StatusCode != http.StatusOK || json.NewDecoder(resp.Body).Decode(&c) != nil {
		b.Fatalf("GET %s/counters answered HTTP %d", admin, resp.StatusCode)
	}
	return c.SupportReads
}

var benchTakoformConfig = func() string {
	var sb strings.Builder
	sb.WriteString("terraform {\n  required_providers {\n    takoform = { source = \"takokit/takoform\" }\n  }\n}\n\nprovider \"takoform\" {}\n")
	kinds := []struct{ typ, extra string }{
		{"takoform_at_least_once_queue", "  message_retention_seconds = 3600\n"},
		{"takoform_edge_kv_namespace", ""},
		{"takoform_object_bucket", ""},
		{"takoform_sqlite_database", ""},
		{"takoform_module_worker", ""},
	}
	for i, k := range kinds {
		fmt.Fprintf(&sb, "\nresource %q \"r\" {\n  count = 40\n  name  = \"r%d-${count.index}\"\n%s}\n", k.typ, i, k.extra)
	}
	return sb.String()
}()

const benchDataConfig = `resource "terraform_data" "r" {
  count = 200
  input = "r-${count.index}"
}
`
